# In the style of: torch.autograd.functional docs examples (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
from torch.autograd.functional import jacobian, hessian, vjp, jvp, hvp, vhp
torch.manual_seed(12)
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))
print(jacobian(exp_reducer, inputs, create_graph=True))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))
print(jacobian(exp_adder, inputs, vectorize=True, strategy='forward-mode'))
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))
inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))
print(vjp(exp_reducer, inputs, v, create_graph=True))
def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))
inputs = torch.rand(4, 4); v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))
inputs = torch.rand(2, 2); v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v))
print(jacobian(lambda x: torch.stack([x[0] * x[1], x[0].sin()]), torch.tensor([1.0, 2.0])))
def f(x):
    return torch.tanh(x @ torch.tensor([[1., 2.], [3., 4.]], dtype=x.dtype))
print(hessian(lambda x: f(x).sum(), torch.tensor([0.1, -0.2], dtype=torch.float64)))
