# In the style of: PyTorch "Autograd mechanics" notes (how requires_grad flows, no_grad,
# set_grad_enabled, inference mode, is_leaf)
# Family: pytorch-docs
import torch

x = torch.randn(5, 5)
y = torch.randn(5, 5)
z = torch.randn((5, 5), requires_grad=True)
a = x + y
print(a.requires_grad)
b = a + z
print(b.requires_grad, b.is_leaf, z.is_leaf)

with torch.no_grad():
    c = z * 2
print(c.requires_grad, c.grad_fn)

with torch.no_grad(), torch.enable_grad():
    d = z * 2
print(d.requires_grad)

torch.set_grad_enabled(False)
e = z * 2
torch.set_grad_enabled(True)
print(e.requires_grad, torch.is_grad_enabled())

with torch.set_grad_enabled(False):
    f = z + 1
print(f.requires_grad)


@torch.no_grad()
def doubler(t):
    return t * 2


print(doubler(z).requires_grad)

with torch.inference_mode():
    g = z * 3
print(g.requires_grad, g.is_inference())

w = torch.ones(3)
w.requires_grad_()
print(w.requires_grad, (w * 2).is_leaf, w.detach().requires_grad)
