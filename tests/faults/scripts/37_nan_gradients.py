# expect: ok
import torch
x = torch.tensor([0.0, 1.0], requires_grad=True)
(x.sqrt() * 0).sum().backward()
print(x.grad)
