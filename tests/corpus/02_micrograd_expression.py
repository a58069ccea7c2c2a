# In the style of: micrograd README, a longer scalar expression with powers, relu and division
# Family: karpathy
import torch

a = torch.tensor([-4.0]).double()
b = torch.tensor([2.0]).double()
a.requires_grad = True
b.requires_grad = True
c = a + b
d = a * b + b**3
c = c + c + 1
c = c + 1 + c + (-a)
d = d + d * 2 + (b + a).relu()
d = d + 3 * d + (b - a).relu()
e = c - d
f = e**2
g = f / 2.0
g = g + 10.0 / f
g.backward()
print(f"{g.data.item():.4f}")
print(f"{a.grad.item():.4f}")
print(f"{b.grad.item():.4f}")
print(g.item(), a.grad.item(), b.grad.item())
