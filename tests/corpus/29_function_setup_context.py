# In the style of: PyTorch "Extending torch.func with autograd.Function" (forward without ctx,
# a separate setup_context) and once_differentiable from the Function docs
# Family: pytorch-func-and-recipes
import torch
from torch.autograd.function import once_differentiable


class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x**3, 3 * x**2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        _, dx = output
        ctx.save_for_backward(dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        (dx,) = ctx.saved_tensors
        return grad_output * dx


class Clip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(-1, 1)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x.abs() <= 1).to(grad_output.dtype)


x = torch.tensor([0.5, -2.0, 1.5], requires_grad=True)
y, dy = Cube.apply(x)
print(y, dy)
y.sum().backward()
print(x.grad)

x.grad = None
out = Clip.apply(x * 2)
out.sum().backward()
print(out, x.grad)

z = torch.tensor([0.3], requires_grad=True)
(g,) = torch.autograd.grad(Clip.apply(z).sum(), z, create_graph=True)
print(g, g.requires_grad)
try:
    g.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
