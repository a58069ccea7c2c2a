# a 3D surface of sin(r) / r, with the gradient's size as colour in a second panel
import torch
import matplotlib.pyplot as plt

u, v = torch.meshgrid(torch.linspace(-6, 6, 40), torch.linspace(-6, 6, 40), indexing="ij")
r = (u ** 2 + v ** 2 + 1e-6).sqrt().requires_grad_()
z = torch.sin(r) / r
z.sum().backward()

fig = plt.figure(figsize=(10, 4))
ax = fig.add_subplot(1, 2, 1, projection="3d")
ax.plot_surface(u.numpy(), v.numpy(), z.detach().numpy(), cmap="coolwarm",
                linewidth=0, antialiased=True)
ax.set_zlabel("sin(r) / r")
ax.view_init(elev=30, azim=45)
flat = fig.add_subplot(1, 2, 2)
flat.pcolormesh(u, v, r.grad.abs(), shading="auto")
flat.set_title("|dz/dr|")
