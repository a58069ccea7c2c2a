# In the style of: ARENA's "build your own" exercises (a Linear and a ReLU module from
# nn.Parameter and uniform_ bounds, `import torch as t`, checked against nn.Linear)
# Family: arena
import torch as t
from torch import nn


class Linear(nn.Module):
    def __init__(self, in_features: int, out_features: int, bias=True):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        sf = 1 / (in_features ** 0.5)
        weight = sf * (2 * t.rand(out_features, in_features) - 1)
        self.weight = nn.Parameter(weight)
        self.bias = nn.Parameter(sf * (2 * t.rand(out_features) - 1)) if bias else None

    def forward(self, x: t.Tensor) -> t.Tensor:
        x = x @ self.weight.T
        if self.bias is not None:
            x += self.bias
        return x

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class ReLU(nn.Module):
    def forward(self, x: t.Tensor) -> t.Tensor:
        return t.maximum(x, t.tensor(0.0))


t.manual_seed(0)
mine = nn.Sequential(Linear(3, 4), ReLU(), Linear(4, 2, bias=False))
print(mine)
theirs = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2, bias=False))
theirs.load_state_dict(mine.state_dict())
x = t.randn(5, 3)
print(t.allclose(mine(x), theirs(x)))
mine(x).sum().backward()
theirs(x).sum().backward()
print(t.allclose(mine[0].weight.grad, theirs[0].weight.grad), mine[2].weight.grad)
