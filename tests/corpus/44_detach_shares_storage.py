# In the style of: the detach() docs and forum answers (a detached tensor shares storage: writing
# into it changes the original, and autograd notices when a saved value was changed)
# Family: blogs-and-qa
import torch

w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
d = w.detach()
d[0] = 100.0
print(w)
print(d.requires_grad, w._version, d._version)

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x.exp()
y.detach().zero_()
try:
    y.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)

a = torch.ones(2, requires_grad=True)
b = a.data
b += 1
print(a, a.requires_grad)
