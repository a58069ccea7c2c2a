# %% [markdown]
# A tiny training loop: fit y = 2x + 1 with gradient descent.
# %%
import torch

xs = torch.tensor([0.0, 1.0, 2.0, 3.0])
ys = 2 * xs + 1
w = torch.tensor(0.0, requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)
for step in range(200):
    loss = ((w * xs + b - ys) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.05 * w.grad
        b -= 0.05 * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if step % 50 == 0:
        print(f"step {step:3d}  loss {loss.item():.4f}")
print(f"w = {w.item():.3f}, b = {b.item():.3f}")
