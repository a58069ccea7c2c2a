# the gradient of f(x, y) = x^2 + 3y^2 as arrows, computed by autograd at every grid point
import torch
import matplotlib.pyplot as plt

x, y = torch.meshgrid(torch.linspace(-2, 2, 15), torch.linspace(-2, 2, 15), indexing="xy")
x.requires_grad_()
y.requires_grad_()
f = x ** 2 + 3 * y ** 2
f.sum().backward()

fig, ax = plt.subplots(figsize=(5, 5))
ax.contour(x.detach(), y.detach(), f.detach(), levels=12, cmap="Greys")
ax.quiver(x.detach(), y.detach(), -x.grad, -y.grad, color="tab:blue", angles="xy")
ax.set_aspect("equal")
ax.set_title("-grad f")
