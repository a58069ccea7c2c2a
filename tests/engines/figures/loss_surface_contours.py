# the loss of y = w*x + b over (w, b), and the path gradient descent takes across it
import torch
import matplotlib.pyplot as plt

xs = torch.tensor([0.0, 1.0, 2.0, 3.0])
ys = 2 * xs + 1
w_grid, b_grid = torch.meshgrid(torch.linspace(-1, 5, 60), torch.linspace(-3, 5, 60),
                                indexing="xy")
surface = ((w_grid[..., None] * xs + b_grid[..., None] - ys) ** 2).mean(dim=-1)

w = torch.tensor(-0.5, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
path = []
for step in range(40):
    loss = ((w * xs + b - ys) ** 2).mean()
    loss.backward()
    path.append((w.item(), b.item()))
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()

filled = plt.contourf(w_grid, b_grid, surface, levels=30, cmap="magma")
plt.colorbar(filled, label="loss")
plt.contour(w_grid, b_grid, surface, levels=[0.5, 2, 8], colors="white", linewidths=0.8)
plt.plot([p[0] for p in path], [p[1] for p in path], "c.-", label="descent")
plt.scatter([2.0], [1.0], marker="*", s=200, color="yellow", zorder=3, label="minimum")
plt.xlabel("w")
plt.ylabel("b")
plt.legend()
