# expect: ok
import sys
import torch
x = torch.ones(2, requires_grad=True)
(x * 3).sum().backward()
for name in ("json", "struct", "threading", "select", "signal", "codecs"):
    sys.modules[name] = None
print("modules gone", x.grad)
