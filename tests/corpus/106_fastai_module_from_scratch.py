# In the style of: fast.ai's "from the foundations" lessons (a Module that registers its
# children in __setattr__, a hand-rolled Sequential and an MSE, compared with torch.nn)
# Family: fastai
import torch
from torch import nn


class Module:
    def __init__(self):
        self._modules = {}

    def __setattr__(self, name, value):
        if not name.startswith("_"):
            self._modules[name] = value
        super().__setattr__(name, value)

    def __repr__(self):
        return f"{self._modules}"

    def parameters(self):
        for layer in self._modules.values():
            yield from layer.parameters()


class MLP(Module):
    def __init__(self, n_in, nh, n_out):
        super().__init__()
        self.l1 = nn.Linear(n_in, nh)
        self.l2 = nn.Linear(nh, n_out)

    def __call__(self, x):
        return self.l2(torch.relu(self.l1(x)))


def mse(output, targ):
    return (output.squeeze(-1) - targ).pow(2).mean()


torch.manual_seed(0)
model = MLP(5, 10, 1)
print(model)
x, y = torch.randn(16, 5), torch.randn(16)
for epoch in range(3):
    loss = mse(model(x), y)
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= p.grad * 0.1
    for p in model.parameters():
        p.grad = None
    print(f"epoch {epoch} loss {loss.item():.5f}")
print(sum(p.numel() for p in model.parameters()))
