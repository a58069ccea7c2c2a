# In the style of: PyTorch "Autograd mechanics" notes, saved tensors (grad_fn._saved_self,
# _saved_other, _saved_result)
# Family: pytorch-docs
import torch

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))
print(x is y.grad_fn._saved_self)

y = x.exp()
print(y.equal(y.grad_fn._saved_result))
print(y is y.grad_fn._saved_result)

a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
m = a * b
print(m.grad_fn._saved_self, m.grad_fn._saved_other)
print(y.grad_fn.name(), m.grad_fn.name())

p = a.pow(3)
print(p.grad_fn._saved_exponent, p.grad_fn._saved_self)
t = torch.tanh(a)
print(t.grad_fn._saved_result)
