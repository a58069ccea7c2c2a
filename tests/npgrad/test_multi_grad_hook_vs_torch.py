"""``torch.autograd.graph.register_multi_grad_hook`` against torch run here: in mode "all" the
hook sees the gradients one backward call computes (None for tensors that call skips: not in
its graph, or not needed for its ``inputs``), once per call; in mode "any" it sees the first
gradient of each call; removing the handle stops it; and torch's refusals (an unknown mode, a
leaf captured by ``autograd.grad``)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPT = r'''
import torch
from torch.autograd.graph import register_multi_grad_hook
torch.manual_seed(0)
a = torch.rand(2, 3, requires_grad=True)
b = torch.rand(2, 3, requires_grad=True)
c = a * b
d = a * b

def show(grads):
    print([None if g is None else (tuple(g.shape), round(g.sum().item(), 5)) for g in grads])

handle = register_multi_grad_hook((a, b, c, d), show)
print(type(handle), isinstance(handle, torch.utils.hooks.RemovableHandle))
c.sum().backward(retain_graph=True)
c.sum().backward(inputs=(a,), retain_graph=True)
(c + d).sum().backward(retain_graph=True)
print(torch.autograd.grad((c * d).sum(), (c, d), retain_graph=True)[0].sum())
handle.remove()
(c + d).sum().backward(retain_graph=True)
print("after remove", a.grad.sum())

seen = []
with register_multi_grad_hook((a, b), lambda g: seen.append(g.sum().item()), mode="any"):
    (a * b).sum().backward()
    (a * 2).sum().backward()
    (b * 3).sum().backward()
(a * b).sum().backward()
print(len(seen), [round(v, 5) for v in seen])

order = []
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = x.exp()
z = y.sin()
y.register_hook(lambda g: order.append("y"))
register_multi_grad_hook((x, y, z), lambda grads: order.append(
    ["-" if g is None else round(g.sum().item(), 4) for g in grads]))
z.register_hook(lambda g: order.append("z"))
(z * z).sum().backward()
print(order, x.grad)

for mode in ("some", "ALL"):
    try:
        register_multi_grad_hook((a,), show, mode=mode)
    except ValueError as error:
        print(type(error).__name__, error)
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p * p
register_multi_grad_hook((p, q), show)
print(torch.autograd.grad(q.sum(), q, retain_graph=True))
try:
    torch.autograd.grad(q.sum(), p)
except RuntimeError as error:
    print(type(error).__name__, error)
try:
    register_multi_grad_hook((torch.ones(2), p), show)
except AssertionError as error:
    print(type(error).__name__, error)
'''


def test_multi_grad_hooks_print_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
