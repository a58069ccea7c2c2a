# In the style of: PyTorch's torch.func "Jacobians, Hessians, hvp, vhp, and more" tutorial
# (jacrev with argnums, jacfwd over jacrev, hessian, and a Hessian-vector product)
# Family: pytorch-func-and-recipes
import torch
from torch.func import hessian, jacfwd, jacrev, jvp, vjp

torch.manual_seed(0)


def predict(weight, bias, x):
    return torch.nn.functional.linear(x, weight, bias).tanh()


D = 4
weight, bias, x = torch.randn(D, D), torch.randn(D), torch.randn(D)
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(ft_jacobian.shape)
ft_weight, ft_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_weight.shape, ft_bias.shape)
print(torch.allclose(jacfwd(predict, argnums=2)(weight, bias, x), ft_jacobian, atol=1e-6))
hess = hessian(lambda x: predict(weight, bias, x).sum())(x)
print(hess.shape, torch.allclose(hess, hess.T, atol=1e-6))


def hvp(f, primals, tangents):
    return jvp(lambda *p: jacrev(f)(*p), primals, tangents)[1]


def f(x):
    return x.sin().sum()


v = torch.randn(D)
print(torch.allclose(hvp(f, (x,), (v,)), hessian(f)(x) @ v, atol=1e-6))
_, vjp_fn = vjp(f, x)
print(vjp_fn(torch.tensor(1.0))[0])
