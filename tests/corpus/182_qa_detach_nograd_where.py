# In the style of: Q&A: detach vs .data, no_grad vs inference_mode, torch.where NaN gradient trap (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
torch.manual_seed(17)
a = torch.tensor([1., 2., 3.], requires_grad=True)
out = a.sigmoid()
c = out.data
c.zero_()
out.sum().backward()
print('data:', a.grad)
a.grad = None
out = a.sigmoid()
c = out.detach()
c.zero_()
try:
    out.sum().backward()
except RuntimeError as e:
    print('detach:', str(e).split('\n')[0][:100])
print(c.requires_grad, out.detach().is_leaf, a.data.requires_grad)
with torch.no_grad():
    y = a * 2
print(y.requires_grad, y.grad_fn, torch.is_grad_enabled())
with torch.inference_mode():
    z = a * 2
print(z.requires_grad, z.is_inference(), y.is_inference())
try:
    (z * a).sum().backward()
except RuntimeError as e:
    print('inference:', str(e)[:80])
@torch.no_grad()
def f(x): return x * 3
print(f(a).requires_grad)
with torch.enable_grad():
    print((a * 1).requires_grad)
torch.set_grad_enabled(False); print((a * 1).requires_grad); torch.set_grad_enabled(True)
x = torch.tensor([-1.0, 0.0, 2.0, 4.0], requires_grad=True)
y = torch.where(x > 0, torch.sqrt(x), torch.zeros_like(x))
y.sum().backward()
print('where sqrt grad:', x.grad)
x.grad = None
safe = torch.where(x > 0, x, torch.ones_like(x))
y = torch.where(x > 0, torch.sqrt(safe), torch.zeros_like(x))
y.sum().backward()
print('safe:', x.grad)
x.grad = None
y = torch.where(x > 0, torch.log(x), 0.0)
y.sum().backward(); print('log scalar other:', x.grad)
x2 = torch.tensor([0.0, 1.0], requires_grad=True)
(x2 / x2.norm() if False else torch.nan_to_num(x2.log(), neginf=-100.0)).sum().backward()
print(x2.grad)
n = torch.zeros(3, requires_grad=True)
n.norm().backward(); print('norm at 0:', n.grad)
v = torch.tensor([3.0, 4.0], requires_grad=True)
torch.linalg.vector_norm(v, ord=2).backward(); print(v.grad)
print(torch.tensor([float('nan'), 1.0]).isnan(), torch.isfinite(torch.tensor([1.0, float('inf')])))
m = torch.tensor([1.0, float('nan'), 3.0])
print(m.nanmean(), m.nansum(), torch.nan_to_num(m, nan=0.0), m.max(), torch.tensor([1., 2.]).clone().detach().requires_grad_(True))
