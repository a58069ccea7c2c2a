# In the style of: blogs that "walk the autograd graph": next_functions, _saved_* attributes, metadata, Node hooks, torchviz-like traversal (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
torch.manual_seed(0)
a = torch.randn(3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
c = a * b
d = c.exp().sum() + (a ** 3).mean()
print(type(d.grad_fn).__name__, d.grad_fn.name())
def walk(fn, depth=0, seen=None):
    seen = set() if seen is None else seen
    if fn is None or fn in seen:
        return
    seen.add(fn)
    print("  " * depth + type(fn).__name__)
    for nxt, idx in fn.next_functions:
        walk(nxt, depth + 1, seen)
walk(d.grad_fn)
print(d.grad_fn.next_functions[0][1], d.grad_fn.next_functions[1][0].name())
mul = c.grad_fn
print(torch.equal(mul._saved_self, a), torch.equal(mul._saved_other, b))
pw = (a ** 3).grad_fn
print(pw._saved_exponent, type(pw._saved_self).__name__)
e = c.exp()
print(torch.equal(e.grad_fn._saved_result, e))
s = torch.sum(a.view(3, 1), dim=0, keepdim=False)
print(s.grad_fn._saved_self_sym_sizes if hasattr(s.grad_fn, "_saved_self_sym_sizes") else None)
acc = a.grad_fn
print(acc, c.grad_fn.next_functions[0][0].variable is a)
d.grad_fn.metadata["tag"] = "loss"
print(d.grad_fn.metadata)
log = []
h = c.grad_fn.register_hook(lambda gi, go: log.append(("post", [g.shape for g in gi if g is not None])))
h2 = c.grad_fn.register_prehook(lambda go: log.append(("pre", go[0].shape)))
d.backward()
print(log)
print(a.grad.round(decimals=4), b.grad.round(decimals=4))
print(torch.autograd.graph.Node, isinstance(c.grad_fn, torch.autograd.graph.Node))
x = torch.ones(2, requires_grad=True)
y = x.clone()
print(y.grad_fn.name(), x.clone().detach().grad_fn, y.view(2, 1).grad_fn.name(), y[0].grad_fn.name(), y.t().grad_fn.name())
z = x.sigmoid(); z2 = x.relu(); z3 = x.tanh(); z4 = x.softmax(0); z5 = x.mean(); z6 = x.norm()
print([t.grad_fn.name() for t in (z, z2, z3, z4, z5, z6)])
print(x.expand(3, 2).grad_fn.name(), x.unsqueeze(0).grad_fn.name(), x.reshape(1, 2).grad_fn.name(), x.flip(0).grad_fn.name(), torch.stack([x, x]).grad_fn.name(), x.repeat(2).grad_fn.name())
