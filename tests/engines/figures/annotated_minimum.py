# a function, its minimum found by gradient descent, annotated with an arrow and text
import torch
import matplotlib.pyplot as plt

x = torch.tensor(2.5, requires_grad=True)
for step in range(100):
    y = (x - 1) ** 2 + 0.5 * torch.cos(3 * x)
    y.backward()
    with torch.no_grad():
        x -= 0.05 * x.grad
    x.grad.zero_()

grid = torch.linspace(-1, 3, 300)
plt.plot(grid, (grid - 1) ** 2 + 0.5 * torch.cos(3 * grid), label="f(x)")
found = x.item()
plt.annotate(f"minimum near x = {found:.3f}", xy=(found, y.item()), xytext=(found - 1.5, 2.5),
             arrowprops={"arrowstyle": "->", "color": "black"})
plt.text(-0.8, 3.5, r"$f(x) = (x-1)^2 + \frac{1}{2}\cos 3x$", fontsize=11)
plt.legend(loc="lower right")
