# In the style of: Dive into Deep Learning, "Detaching Computation"
# Family: d2l
import torch

x = torch.arange(4.0, requires_grad=True)
y = x * x
u = y.detach()
z = u * x

z.sum().backward()
print(x.grad == u)
print(u.requires_grad, u.grad_fn, u.is_leaf)

x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)
print(x.grad)
