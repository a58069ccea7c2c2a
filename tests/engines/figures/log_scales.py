# gradient descent on a quadratic: the error falls geometrically, a line on a log scale
import torch
import matplotlib.pyplot as plt

w = torch.tensor([4.0, -3.0], requires_grad=True)
errors = []
for step in range(60):
    loss = (w * torch.tensor([1.0, 10.0]) * w).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.04 * w.grad
    w.grad = None
    errors.append(loss.item())

fig, (semi, both) = plt.subplots(1, 2, figsize=(9, 3.5))
semi.semilogy(errors, "o-", markersize=3)
semi.set_title("semilogy")
both.loglog(range(1, 61), errors)
both.set_xscale("log")
both.set_title("log-log")
both.grid(True, which="both", linestyle=":")
