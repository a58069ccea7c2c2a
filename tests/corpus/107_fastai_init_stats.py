# In the style of: fast.ai's initialisation lessons (activation means and stds through deep
# ReLU stacks under plain, Kaiming and "a=sqrt(5)" initialisation)
# Family: fastai
import math

import torch
from torch import nn

torch.manual_seed(42)
x = torch.randn(200, 100)
for name, init in [("normal(0, 1)", lambda w: nn.init.normal_(w)),
                   ("kaiming_normal_", lambda w: nn.init.kaiming_normal_(w, nonlinearity="relu")),
                   ("kaiming_uniform_(a=sqrt(5))",
                    lambda w: nn.init.kaiming_uniform_(w, a=math.sqrt(5)))]:
    h = x
    for _ in range(10):
        w = torch.empty(100, 100)
        init(w)
        h = torch.relu(h @ w.T)
    print(f"{name:28s} mean {h.mean().item():12.4f}  std {h.std().item():12.4f}")
print(nn.init.calculate_gain("leaky_relu", math.sqrt(5)), nn.init.calculate_gain("tanh"))
