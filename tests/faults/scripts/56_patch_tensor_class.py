# expect: ok
import torch
torch.Tensor.__repr__ = lambda self: 1 / 0
torch.Tensor.numpy = None
torch.Tensor.detach = None
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
print("patched")
