# In the style of: Q&A snippets on in-place writes across dtypes (label tensors, masks, counters) and new_* factories (a third fresh sample: today's code, from sources the corpus had not yet drawn on)
# Family: blogs-and-qa
import torch
torch.manual_seed(0)
labels = torch.zeros(5, dtype=torch.long)
labels.copy_(torch.tensor([0.2, 1.7, 2.0, 3.9, -1.5]))
print(labels)
counts = torch.zeros(3, dtype=torch.int32)
counts[1] = 2.9
counts[torch.tensor([True, False, True])] = 7.5
print(counts)
m = torch.zeros(4, dtype=torch.bool); m.copy_(torch.tensor([0.0, 0.1, 2.0, 0.0])); print(m)
f = torch.zeros(3); f.copy_(torch.tensor([1, 2, 3])); f[0] = True; print(f)
x = torch.arange(6).view(2, 3)
x.fill_(2.5); print(x)
x[:, 0] = torch.tensor([9.9, -9.9]); print(x)
d = torch.zeros(2, dtype=torch.float64); d.copy_(torch.tensor([1 / 3, 2 / 3])); print(d)
h = torch.zeros(2, dtype=torch.float16); h.copy_(torch.tensor([1 / 3, 70000.0])); print(h)
t = torch.randn(3, requires_grad=True)
print(t.new_zeros(2), t.new_ones((1, 2), dtype=torch.int64), t.new_full((2,), 3.5), t.new_tensor([1, 2]), t.new_empty(0).shape)
print(torch.tensor([1, 2]).type_as(t), torch.ones(2).to(torch.tensor([1]).dtype), torch.ones(2, dtype=torch.int8).to(t))
out = torch.empty(3, dtype=torch.float64)
torch.add(torch.ones(3), torch.ones(3), out=out); print(out)
o2 = torch.empty(3, dtype=torch.long)
try:
    torch.add(torch.ones(3), 1.5, out=o2); print(o2)
except RuntimeError as e:
    print("RuntimeError:", e)
i = torch.tensor([1, 2, 3])
try:
    i += 0.5
except RuntimeError as e:
    print("RuntimeError:", e)
i.add_(torch.tensor(2)); print(i)
try:
    i.mul_(1.5)
except RuntimeError as e:
    print("RuntimeError:", e)
b = torch.tensor([True, False]); b |= torch.tensor([False, True]); print(b, b.int().sum(), ~b)
u = torch.tensor([250], dtype=torch.uint8); u.add_(10); print(u, torch.tensor([-1]).to(torch.uint8))
print(torch.tensor([1.9, -1.9]).long(), torch.tensor([1.9, -1.9]).int(), torch.tensor([300.0]).to(torch.int8), torch.tensor([float("nan")]).bool())
p = torch.tensor([0.5, 2.5], dtype=torch.float64, requires_grad=True)
q = p.float() * 2; q.sum().backward(); print(q.dtype, q.grad_fn.name(), p.grad, p.grad.dtype)
