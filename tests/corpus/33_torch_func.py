# In the style of: PyTorch torch.func tutorials (grad, vjp, jacrev, jacfwd, vmap over them,
# hessian)
# Family: pytorch-func-and-recipes
import torch
from torch.func import grad, hessian, jacfwd, jacrev, vjp, vmap

x = torch.tensor([0.1, 0.2, 0.3])


def f(t):
    return torch.sin(t).sum()


print(grad(f)(x))
print(grad(grad(lambda t: torch.sin(t)))(torch.tensor(0.5)))

out, vjp_fn = vjp(torch.sin, x)
print(out, vjp_fn(torch.ones(3)))


def g(t):
    return t.sin() * t


print(jacrev(g)(x))
print(jacfwd(g)(x))
print(torch.allclose(jacrev(g)(x), jacfwd(g)(x)))

batch = torch.tensor([[1.0, 2.0], [3.0, 4.0], [0.5, -1.0]])
print(vmap(grad(lambda v: (v**2).sum()))(batch))
print(vmap(jacrev(torch.sin))(batch).shape)
print(hessian(lambda v: (v**3).sum())(torch.tensor([1.0, 2.0])))

weights = torch.tensor([1.0, -1.0])
print(vmap(torch.dot, in_dims=(0, None))(batch, weights))
