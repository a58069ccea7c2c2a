# expect: ok
import sys
import torch
calls = []
sys.settrace(lambda frame, event, arg: calls.append(event) or None)
x = torch.ones(3, requires_grad=True)
(x * x).sum().backward()
sys.settrace(None)
print(x.grad, len(calls) > 0)
