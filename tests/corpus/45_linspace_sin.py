# In the style of: the first cells of many autograd tutorials (a linspace through sin, its
# gradient cos), the plot removed
# Family: blogs-and-qa
import math

import torch

x = torch.linspace(-math.pi, math.pi, 9, requires_grad=True)
print(x)
y = torch.sin(x)
print(y)
y.sum().backward()
print(x.grad)
print(torch.allclose(x.grad, torch.cos(x)))

t = torch.linspace(0, 2 * math.pi, 25)
print(torch.sin(t))
print(torch.linspace(0, 1, steps=5), torch.linspace(-1, 1, 4, dtype=torch.float64))
