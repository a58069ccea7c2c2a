# In the style of: PyTorch "Extending PyTorch" (a linear Function that skips the gradients
# nobody asked for with ctx.needs_input_grad)
# Family: pytorch-docs
import torch
from torch.autograd import Function


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        print("needs_input_grad", ctx.needs_input_grad)
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


inp = torch.arange(6.0).reshape(2, 3)
weight = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], requires_grad=True)
bias = torch.tensor([0.1, 0.2], requires_grad=True)
out = LinearFunction.apply(inp, weight, bias)
print(out)
out.sum().backward()
print(weight.grad)
print(bias.grad)

x = torch.ones(1, 3, requires_grad=True)
LinearFunction.apply(x, weight.detach()).sum().backward()
print(x.grad)
