# In the style of: autograd mechanics docs on grad modes: no_grad vs inference_mode vs set_grad_enabled, inference tensors errors (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
with torch.inference_mode():
    y = w * 2
print(y.requires_grad, y.is_inference(), w.is_inference(), torch.is_inference_mode_enabled())
try:
    (y * w).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
try:
    y.requires_grad_()
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
try:
    with torch.inference_mode():
        z = torch.ones(3)
    z.add_(1)
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
yc = y.clone()
print(yc.is_inference(), (yc * w).sum().requires_grad)
with torch.no_grad():
    a = w * 2
    with torch.enable_grad():
        b = w * 2
print(a.requires_grad, b.requires_grad, b.grad_fn.name())
@torch.no_grad()
def f(t):
    return t * 3
@torch.inference_mode(mode=False)
def g(t):
    return t * 3
print(f(w).requires_grad, g(w).requires_grad)
torch.set_grad_enabled(False)
print((w * 1).requires_grad, torch.is_grad_enabled())
torch.set_grad_enabled(True)
with torch.set_grad_enabled(False):
    print((w * 1).requires_grad)
print(torch.is_grad_enabled())
with torch.inference_mode():
    with torch.inference_mode(False):
        c = w * 2
print(c.requires_grad, c.is_inference())
lin = torch.nn.Linear(3, 2)
with torch.inference_mode():
    out = lin(torch.ones(1, 3))
print(out.requires_grad, out.is_inference(), out.round(decimals=4))
try:
    lin.weight.data = out
    print("assigned")
except RuntimeError as e:
    print("RuntimeError:", str(e).split("\n")[0])
with torch.autograd.grad_mode.no_grad():
    w.add_(1.0)
print(w.detach().round(decimals=4), w.grad_fn, w.is_leaf, w._version)
print(torch.autograd.grad_mode.set_grad_enabled.__name__, torch.inference_mode.__name__)
