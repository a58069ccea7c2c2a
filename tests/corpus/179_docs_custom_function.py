# In the style of: Custom autograd.Function: setup_context, once_differentiable, save_for_backward, gradcheck (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable
torch.manual_seed(14)
class LinearFunction(Function):
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
class MyExp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant
    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None
class StraightThrough(Function):
    @staticmethod
    def forward(ctx, x):
        return x.round()
    @staticmethod
    def backward(ctx, g):
        return g.clamp(-1, 1)
linear = LinearFunction.apply
inp = (torch.randn(20, 20, dtype=torch.double, requires_grad=True), torch.randn(30, 20, dtype=torch.double, requires_grad=True), None)
print(torch.autograd.gradcheck(linear, inp, eps=1e-6, atol=1e-4))
x = torch.randn(3, 4, requires_grad=True); w = torch.randn(2, 4, requires_grad=True); b = torch.randn(2, requires_grad=True)
y = linear(x, w, b)
y.sum().backward()
print(y.grad_fn.__class__.__name__, w.grad, b.grad)
a = torch.tensor([0.0, 1.0], requires_grad=True)
e = MyExp.apply(a)
e.backward(torch.tensor([1.0, 2.0]))
print(e, a.grad)
g, = torch.autograd.grad(MyExp.apply(a).sum(), a, create_graph=True)
try:
    g.sum().backward()
except RuntimeError as err:
    print('RuntimeError:', str(err).split('\n')[0][:80])
c = torch.tensor([1.5, -2.0], requires_grad=True)
out = MulConstant.apply(c, 3.0)
out.sum().backward(); print(out, c.grad)
s = torch.tensor([0.4, 2.6, -3.0], requires_grad=True)
StraightThrough.apply(s * 2).sum().backward(); print(s.grad)
print(torch.autograd.gradgradcheck(lambda t: MulConstant.apply(t, 2.0) ** 2, (torch.randn(3, dtype=torch.double, requires_grad=True),)))
