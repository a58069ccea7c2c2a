# In the style of: UvA DL notebooks, "Activation Functions" (activation classes of one's own,
# their gradients from autograd, and how many gradients vanish)
# Family: uvadl
import torch
import torch.nn as nn


class ActivationFunction(nn.Module):
    def __init__(self):
        super().__init__()
        self.name = self.__class__.__name__
        self.config = {"name": self.name}


class Sigmoid(ActivationFunction):
    def forward(self, x):
        return 1 / (1 + torch.exp(-x))


class Swish(ActivationFunction):
    def forward(self, x):
        return x * torch.sigmoid(x)


class LeakyReLU(ActivationFunction):
    def __init__(self, alpha=0.1):
        super().__init__()
        self.config["alpha"] = alpha

    def forward(self, x):
        return torch.where(x > 0, x, self.config["alpha"] * x)


def get_grads(act_fn, x):
    x = x.clone().requires_grad_()
    out = act_fn(x)
    out.sum().backward()
    return x.grad


x = torch.linspace(-5, 5, 11)
for act_fn in (Sigmoid(), Swish(), LeakyReLU(), nn.ELU(), nn.GELU()):
    grads = get_grads(act_fn, x)
    vanished = (grads.abs() < 1e-2).float().mean().item()
    print(f"{act_fn.__class__.__name__:9s} grads {[round(g, 3) for g in grads[::3].tolist()]} "
          f"vanished {vanished:.2f}")
