# In the style of: PyTorch 2.4+ "Python custom operators" tutorial (torch.library.custom_op + register_autograd) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-func-and-recipes
import numpy as np
import torch
from torch import Tensor
torch.manual_seed(0)

@torch.library.custom_op("mylib::numpy_sin", mutates_args=())
def numpy_sin(x: Tensor) -> Tensor:
    x_np = x.cpu().numpy()
    y_np = np.sin(x_np)
    return torch.from_numpy(y_np).to(device=x.device)

@numpy_sin.register_fake
def _(x):
    return torch.empty_like(x)

def setup_context(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)

def backward(ctx, grad):
    (x,) = ctx.saved_tensors
    return grad * x.cos()

numpy_sin.register_autograd(backward, setup_context=setup_context)

x = torch.randn(4, requires_grad=True)
y = numpy_sin(x)
print(y.round(decimals=4))
print(type(y.grad_fn).__name__)
y.sum().backward()
print(torch.allclose(x.grad, x.cos()), x.grad.round(decimals=4))

@torch.library.custom_op("mylib::scale_inplace", mutates_args={"buf"})
def scale_inplace(buf: Tensor, s: float) -> None:
    buf.mul_(s)

b = torch.arange(4.0)
scale_inplace(b, 3.0)
print(b)
print(torch.ops.mylib.numpy_sin(torch.tensor([0.0, 1.0])))

@torch.library.custom_op("mylib::mymuladd", mutates_args=())
def mymuladd(a: Tensor, b: Tensor, c: float) -> Tensor:
    return a * b + c

def _ctx(ctx, inputs, output):
    a, b, c = inputs
    ctx.save_for_backward(a, b)

def _bwd(ctx, g):
    a, b = ctx.saved_tensors
    return g * b, g * a, None

torch.library.register_autograd("mylib::mymuladd", _bwd, setup_context=_ctx)
a = torch.randn(3, requires_grad=True); bb = torch.randn(3, requires_grad=True)
mymuladd(a, bb, 1.5).sum().backward()
print(a.grad.round(decimals=4), bb.grad.round(decimals=4))
print(torch.autograd.gradcheck(lambda t: numpy_sin(t), (torch.randn(3, dtype=torch.double, requires_grad=True),)))
