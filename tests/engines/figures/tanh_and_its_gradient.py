# tanh and its derivative side by side, the derivative taken by autograd
import torch
import matplotlib.pyplot as plt

x = torch.linspace(-4, 4, 200, requires_grad=True)
y = torch.tanh(x)
y.sum().backward()

fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3))
left.plot(x.detach(), y.detach(), label="tanh(x)")
left.set_title("tanh")
left.legend()
right.plot(x.detach().numpy(), x.grad.numpy(), color="tab:orange", label="d tanh / dx")
right.set_title("its gradient")
right.grid(True)
right.legend(loc="upper right")
fig.tight_layout()
