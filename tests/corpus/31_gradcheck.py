# In the style of: PyTorch gradcheck docs and "Extending PyTorch" (checking analytic gradients
# against finite differences, and what a wrong backward looks like)
# Family: pytorch-docs
import torch
from torch.autograd import gradcheck, gradgradcheck

torch.manual_seed(0)
a = torch.randn(3, 4, dtype=torch.double, requires_grad=True)
b = torch.randn(4, 2, dtype=torch.double, requires_grad=True)
print(gradcheck(torch.mm, (a, b), eps=1e-6, atol=1e-4))
print(gradgradcheck(torch.mm, (a, b)))
print(gradcheck(lambda t: (t.sin() * t).sum(dim=1), (a,)))
print(gradgradcheck(lambda t: t.tanh().pow(2), (a,)))


class WrongSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x  # should be 2 * x


x = torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True)
print(gradcheck(WrongSquare.apply, (x,), raise_exception=False))
try:
    gradcheck(WrongSquare.apply, (x,))
except RuntimeError as e:
    print(type(e).__name__, str(e).splitlines()[0])
