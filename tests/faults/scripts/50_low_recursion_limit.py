# expect: ok
import sys
import torch
x = torch.ones(3, requires_grad=True)
y = x
for _ in range(200):
    y = y * 1.0
y.sum().backward()
sys.setrecursionlimit(50)
print(x.grad)
