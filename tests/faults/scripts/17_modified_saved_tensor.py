# expect: exception
# error: RuntimeError
# message: has been modified by an inplace operation
import torch
x = torch.ones(2, requires_grad=True)
y = x.exp()
z = y.sum()
y.add_(1)
z2 = (y * y).sum()
y.mul_(2)
z2.backward()
