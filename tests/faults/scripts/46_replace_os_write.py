# expect: ok
import os
import torch
os.write = lambda fd, data: len(data)
os.read = lambda fd, size: b""
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
print("after", x.grad)
