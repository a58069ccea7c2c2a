# In the style of: forum answers on "Trying to backward through the graph a second time"
# (retain_graph=True, then the error; the script ends with exit status 1)
# Family: blogs-and-qa
import sys

import torch

x = torch.tensor([2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward(retain_graph=True)
print(x.grad)
y.backward()
print(x.grad)

z = x.sin().sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print(type(e).__name__, e, file=sys.stderr)
    sys.exit(1)
print("not reached")
