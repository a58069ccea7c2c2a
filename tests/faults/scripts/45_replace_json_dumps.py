# expect: ok
import json
import torch
json.dumps = None
json.loads = None
x = torch.ones(2, requires_grad=True)
(x * 2).sum().backward()
print("replaced", x.grad)
