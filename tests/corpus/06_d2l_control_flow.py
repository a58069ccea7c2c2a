# In the style of: Dive into Deep Learning, "Gradients and Python Control Flow"
# Family: d2l
import torch


def f(a):
    b = a * 2
    steps = 0
    while b.norm() < 1000:
        b = b * 2
        steps += 1
    if b.sum() > 0:
        return b, steps
    return 100 * b, steps


torch.manual_seed(0)
a = torch.randn(size=(), requires_grad=True)
d, steps = f(a)
d.backward()
print(a)
print(steps, d)
print(a.grad == d / a)
print(a.grad)

v = torch.randn(3, requires_grad=True)
out, steps = f(v)
out.sum().backward()
print(steps, v.grad)
