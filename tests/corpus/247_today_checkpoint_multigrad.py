# In the style of: memory-saving recipes: checkpoint(use_reentrant=False), checkpoint_sequential, save_on_cpu, register_multi_grad_hook, allow_mutation_on_saved_tensors (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: pytorch-docs
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
blocks = nn.Sequential(*[nn.Sequential(nn.Linear(4, 4), nn.Tanh()) for _ in range(4)])
x = torch.randn(3, 4, requires_grad=True)
y = checkpoint_sequential(blocks, 2, x, use_reentrant=False)
y.sum().backward()
print(y.grad_fn.name(), x.grad[0].round(decimals=4))
g1 = blocks[0][0].weight.grad.clone(); blocks.zero_grad(); x.grad = None
blocks(x).sum().backward()
print(torch.allclose(g1, blocks[0][0].weight.grad), x.grad[0].round(decimals=4))
def fn(a, b, scale=1.0):
    return (a @ b).relu() * scale
a = torch.randn(3, 3, requires_grad=True); b = torch.randn(3, 3, requires_grad=True)
out = checkpoint(fn, a, b, scale=2.0, use_reentrant=False, preserve_rng_state=True)
out.sum().backward(); print(a.grad.sum().round(decimals=4))
with torch.autograd.graph.save_on_cpu(pin_memory=False):
    z = (a * b).exp().sum()
z.backward(); print(b.grad.sum().round(decimals=4))
seen = []
h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: seen.append([g is not None for g in grads]))
(a * 2).sum().backward(); (a * b).sum().backward()
print(seen); h.remove()
seen2 = []
h = torch.autograd.graph.register_multi_grad_hook((a, b), lambda g: seen2.append(tuple(g.shape)), mode="any")
(b * 3).sum().backward(); print(seen2)
with torch.autograd.graph.allow_mutation_on_saved_tensors():
    c = torch.ones(3, requires_grad=True).clone()
    d = c.sin(); c.mul_(2)
    d.sum().backward()
    print("mutation ok", c)
with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
    except RuntimeError as e:
        print("RuntimeError:", e)
