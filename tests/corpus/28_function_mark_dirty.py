# In the style of: PyTorch "Extending PyTorch" (an in-place Function: ctx.mark_dirty) and the
# Function docs (mark_non_differentiable for an integer output)
# Family: pytorch-docs
import torch


class AddOneInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


class SortWithIndices(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.sort()
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        (indices,) = ctx.saved_tensors
        grad = torch.zeros_like(grad_values)
        grad.index_add_(0, indices, grad_values)
        return grad


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = a.clone()
c = AddOneInPlace.apply(b)
print(c is b, c, type(c.grad_fn).__name__)
(c * c).sum().backward()
print(a.grad)

x = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
values, indices = SortWithIndices.apply(x)
print(values, indices, indices.requires_grad)
(values * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
print(x.grad)
