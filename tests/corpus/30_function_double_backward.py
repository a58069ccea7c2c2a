# In the style of: PyTorch "Double Backward with Custom Functions" (a backward written with
# differentiable torch ops, so a second derivative flows through it; gradcheck and
# gradgradcheck in float64)
# Family: pytorch-tutorials
import torch


class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return grad_out * 2 * x


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        (result,) = ctx.saved_tensors
        return grad_out * result


x = torch.tensor([1.0, -2.0, 0.5], dtype=torch.double, requires_grad=True)
(g,) = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
print(g, g.grad_fn.name())
(gg,) = torch.autograd.grad(g.sum(), x)
print(gg)

print(torch.autograd.gradcheck(Square.apply, (x,)))
print(torch.autograd.gradgradcheck(Square.apply, (x,)))
print(torch.autograd.gradcheck(Exp.apply, (x,)))
print(torch.autograd.gradgradcheck(Exp.apply, (x,)))

y = Exp.apply(x)
(dy,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(d2y,) = torch.autograd.grad(dy.sum(), x)
print(torch.allclose(d2y, x.exp()))
