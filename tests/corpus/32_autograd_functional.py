# In the style of: PyTorch torch.autograd.functional docs (jacobian, hessian, vjp, jvp, hvp, vhp)
# Family: pytorch-docs
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def exp_reducer(x):
    return x.exp().sum(dim=1)


def pow_adder(x, y):
    return 2 * x.pow(2) + 3 * y


def cube_sum(x):
    return x.pow(3).sum()


x = torch.tensor([[0.0, 0.5], [1.0, -1.0]])
print(jacobian(exp_reducer, x))
print(jacobian(exp_reducer, x, create_graph=True).requires_grad)
jx, jy = jacobian(pow_adder, (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])))
print(jx, jy, sep="\n")

h = torch.tensor([1.0, -2.0, 0.5])
print(hessian(cube_sum, h))

v = torch.ones(2)
out, grad = vjp(exp_reducer, x, v)
print(out, grad, sep="\n")
out, tangent = jvp(exp_reducer, x, torch.ones(2, 2))
print(tangent)
out, hv = hvp(cube_sum, h, torch.tensor([1.0, 0.0, 1.0]))
print(out, hv)
out, vh = vhp(cube_sum, h, torch.tensor([1.0, 0.0, 1.0]))
print(vh)
