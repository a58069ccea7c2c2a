# In the style of: blog posts on higher-order gradients (create_graph=True and
# torch.autograd.grad applied twice)
# Family: blogs-and-qa
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**3

(dy_dx,) = torch.autograd.grad(y.sum(), x, create_graph=True)
print(dy_dx)
print(dy_dx.requires_grad, dy_dx.grad_fn.name())

(d2y_dx2,) = torch.autograd.grad(dy_dx.sum(), x, create_graph=True)
print(d2y_dx2)

(d3y_dx3,) = torch.autograd.grad(d2y_dx2.sum(), x)
print(d3y_dx3)

t = torch.tensor(0.5, requires_grad=True)
f = torch.sin(t) * torch.exp(t)
(g,) = torch.autograd.grad(f, t, create_graph=True)
g.backward()
print(f"{g.item():.6f} {t.grad.item():.6f}")
