# In the style of: Docs: register_hook, retain_grad, autograd.grad allow_unused / materialize_grads, module hooks (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
torch.manual_seed(15)
v = torch.tensor([0., 0., 0.], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1., 2., 3.]))
print(v.grad)
h.remove()
a = torch.tensor([2.0, 3.0], requires_grad=True)
b = a * a
b.retain_grad()
c = b.sum() * 3
seen = []
b.register_hook(lambda g: seen.append(g.clone()))
c.backward()
print(a.grad, b.grad, seen, b.is_leaf, b.retains_grad, a.retains_grad)
x = torch.randn(3, requires_grad=True)
y = torch.randn(3, requires_grad=True)
z = (x ** 2).sum()
gx, gy = torch.autograd.grad(z, (x, y), allow_unused=True)
print(gx, gy)
z = (x ** 2).sum()
gx, gy = torch.autograd.grad(z, (x, y), materialize_grads=True)
print(gx, gy)
try:
    torch.autograd.grad((x * 2).sum(), y)
except RuntimeError as e:
    print('RuntimeError:', str(e)[:90])
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
grads = {}
def save_grad(name):
    def hook(module, grad_input, grad_output):
        grads[name] = grad_output[0].detach().clone()
    return hook
handles = [m.register_full_backward_hook(save_grad(n)) for n, m in model.named_children()]
pre = model[0].register_forward_pre_hook(lambda m, inp: (inp[0] * 0.5,))
out = model(torch.randn(5, 4))
out.pow(2).mean().backward()
print({k: tuple(v.shape) for k, v in grads.items()})
print(grads['2'])
for hd in handles: hd.remove()
pre.remove()
w = nn.Parameter(torch.ones(2))
w.register_hook(lambda g: g.clamp(max=0.5))
(w * torch.tensor([1.0, 3.0])).sum().backward()
print(w.grad)
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p * 3
p.register_post_accumulate_grad_hook(lambda t: print('accumulated', t.grad))
q.sum().backward()
x = torch.tensor(2.0, requires_grad=True)
y = x ** 3
g1, = torch.autograd.grad(y, x, create_graph=True)
g2, = torch.autograd.grad(g1, x)
print(g1, g2, g1.requires_grad)
t = torch.ones(2, 2, requires_grad=True)
out = (t * 2).sum()
out.backward(retain_graph=True); out.backward(retain_graph=True)
print(t.grad, t.grad.data_ptr() != 0)
print(torch.autograd.grad(out, t, grad_outputs=torch.tensor(0.5)))
