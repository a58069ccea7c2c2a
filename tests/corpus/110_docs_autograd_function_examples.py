# In the style of: the torch.autograd.Function docs (Exp with save_for_backward,
# once_differentiable, mark_non_differentiable outputs, and needs_input_grad)
# Family: pytorch-docs
import torch
from torch.autograd.function import once_differentiable


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


class SortWithIndices(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.sort()
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        grad = torch.zeros_like(grad_values)
        grad.index_add_(0, indices, grad_values)
        return grad


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, grad):
        print("needs_input_grad", ctx.needs_input_grad)
        return grad * ctx.factor, None


x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = Exp.apply(x)
values, indices = SortWithIndices.apply(x * 2)
z = Scale.apply(values, 3.0)
(y.sum() + (z * torch.tensor([1.0, 2.0, 3.0])).sum()).backward()
print(type(y.grad_fn).__name__, indices.requires_grad, values.grad_fn.name())
print(x.grad)
