# In the style of: PyTorch "Autograd mechanics" notes, in-place operations (x.sin_(),
# torch.exp_(x) on a non-leaf, and the error on a leaf that requires grad)
# Family: pytorch-docs
import torch

w = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
h = w * 1.0
h.sin_()
print(h, h.grad_fn.name())
h.sum().backward()
print(w.grad)

w.grad = None
k = w.clone()
torch.exp_(k)
print(k.grad_fn.name(), k._version)
k.sum().backward()
print(w.grad)

try:
    w.sin_()
except RuntimeError as e:
    print(type(e).__name__, e)

with torch.no_grad():
    w.mul_(2)
print(w, w._version)

v = torch.tensor([1.0, 4.0, 9.0])
v.sqrt_()
v.neg_()
print(v)
