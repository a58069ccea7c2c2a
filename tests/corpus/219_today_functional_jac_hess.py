# In the style of: torch.autograd.functional docs (jacobian vectorize/strategy, hessian, hvp/vhp, jvp/vjp) (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
from torch.autograd.functional import jacobian, hessian, hvp, vhp, jvp, vjp
torch.manual_seed(0)
def f(x, y):
    return torch.stack([x[0] * y.sin().sum(), (x ** 2).sum() * y[1], x.prod()])
x = torch.randn(3); y = torch.randn(2)
J = jacobian(f, (x, y))
print(type(J).__name__, [j.shape for j in J])
print(J[0].round(decimals=4))
Jv = jacobian(f, (x, y), vectorize=True)
Jf = jacobian(f, (x, y), vectorize=True, strategy="forward-mode")
print(all(torch.allclose(a, b) and torch.allclose(a, c) for a, b, c in zip(J, Jv, Jf)))
def rosen(z):
    return ((1 - z[:-1]) ** 2 + 100 * (z[1:] - z[:-1] ** 2) ** 2).sum()
z = torch.tensor([0.5, -0.3, 1.2])
H = hessian(rosen, z)
print(H)
print(hessian(rosen, z, vectorize=True, outer_jacobian_strategy="forward-mode").sub(H).abs().max())
v = torch.tensor([1.0, 0.0, -1.0])
val, hv = hvp(rosen, z, v)
val2, vh = vhp(rosen, z, v)
print(val, hv, torch.allclose(hv, vh), torch.allclose(hv, H @ v))
out, jv = jvp(lambda a: a.exp() * a.sum(), z, v)
out, vj = vjp(lambda a: a.exp() * a.sum(), z, v)
print(jv.round(decimals=4), vj.round(decimals=4))
zz = z.clone().requires_grad_()
Hc = hessian(rosen, zz, create_graph=True)
Hc.trace().backward()
print(zz.grad)
print(jacobian(lambda a: a.sum(), z), jacobian(lambda a: a, torch.tensor(2.0)))
try:
    jacobian(lambda a: a.detach() * 2, z, strict=True)
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
