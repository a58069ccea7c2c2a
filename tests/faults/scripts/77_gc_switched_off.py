# expect: ok
import gc
import torch
gc.disable()
gc.set_threshold(0)
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
print(x.grad)
