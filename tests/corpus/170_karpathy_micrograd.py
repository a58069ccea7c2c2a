# In the style of: micrograd README: compare with torch (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: karpathy
import torch
torch.manual_seed(7)
x = torch.Tensor([-4.0]).double()
x.requires_grad = True
z = 2 * x + 2 + x
q = z.relu() + z * x
h = (z * z).relu()
y = h + q + q * x
y.backward()
xpt, ypt = x, y
print(ypt.data.item(), xpt.grad.item())

a = torch.Tensor([-4.0]).double(); b = torch.Tensor([2.0]).double()
a.requires_grad = True; b.requires_grad = True
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
print(f'{g.data.item():.4f}')
print(f'{a.grad.item():.4f}')
print(f'{b.grad.item():.4f}')
print(g, a.grad, g.grad_fn.name(), [f.name() for f, _ in g.grad_fn.next_functions])

# neuron from micrograd lecture
x1 = torch.Tensor([2.0]).double(); x1.requires_grad = True
x2 = torch.Tensor([0.0]).double(); x2.requires_grad = True
w1 = torch.Tensor([-3.0]).double(); w1.requires_grad = True
w2 = torch.Tensor([1.0]).double(); w2.requires_grad = True
b = torch.Tensor([6.8813735870195432]).double(); b.requires_grad = True
n = x1 * w1 + x2 * w2 + b
o = torch.tanh(n)
print(o.data.item())
o.backward()
print('---')
print('x2', x2.grad.item())
print('w2', w2.grad.item())
print('x1', x1.grad.item())
print('w1', w1.grad.item())
print(torch.Tensor([1, 2]).dtype, torch.Tensor(2, 3).shape, o.is_leaf, x1.is_leaf, o.requires_grad)
