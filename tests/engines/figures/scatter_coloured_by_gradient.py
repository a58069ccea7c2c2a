# inputs coloured by the size of the loss's gradient with respect to each of them
import torch
import matplotlib.pyplot as plt

torch.manual_seed(7)
points = torch.randn(200, 2, requires_grad=True)
loss = (points[:, 0] ** 2 - points[:, 1]).abs().sum()
loss.backward()
size = points.grad.norm(dim=1)

fig, ax = plt.subplots(figsize=(5, 4))
shown = ax.scatter(points[:, 0].detach(), points[:, 1].detach(), c=size, s=20 * size + 5,
                   cmap="plasma", alpha=0.8)
fig.colorbar(shown, ax=ax, label="|grad|")
ax.set_xlim(-3, 3)
ax.set_ylim(-3, 3)
