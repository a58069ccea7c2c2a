"""torch.autograd.graph.allow_mutation_on_saved_tensors against torch run here: inside it a
saved tensor changed in place (an op's input, an output it saves, a constant) is read by
backward as it was saved, the gradients are torch's, grad_fn._saved_* hands back a tensor
with the saved one's grad_fn and requires_grad (as any saved-tensor hook's); outside it the
change is refused as before; such blocks do not nest, and a graph recorded inside refuses
backward after the block."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import torch
from torch.autograd.graph import allow_mutation_on_saved_tensors

w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
with allow_mutation_on_saved_tensors() as context:
    h = w * 3
    loss = (h ** 2).sum() + h.exp().sum()
    h.mul_(10)                     # saved by pow and by exp's input
    scale = torch.tensor([1.0, 2.0, 3.0])
    product = (w * scale).sum()
    scale.zero_()                  # a constant saved by mul
    t = w.tanh()
    t.add_(1)                      # tanh saves its output
    total = loss + product + t.sum()
    total.backward()
    print(type(context).__name__, w.grad, h, scale, t)
    kept = w.sin()
    saved = kept.grad_fn._saved_self
    print(saved is w, saved.requires_grad, saved.is_leaf, saved.grad_fn, torch.equal(saved, w))
    m = w * 2
    e = m.exp()
    r = e.grad_fn._saved_result
    print(r is e, r.requires_grad, r.grad_fn.name(), r.grad_fn is e.grad_fn)
    later = m.sin()
    m.add_(1)
    before = later.grad_fn._saved_self
    print(before, before.requires_grad, before.grad_fn.name(), torch.equal(before, m))
with allow_mutation_on_saved_tensors():
    y = w * 1
    z = y.exp()
    y.mul_(2)
print(z.grad_fn.name())
try:
    z.sum().backward()
except AssertionError as e:
    print("AssertionError", e)
try:
    with allow_mutation_on_saved_tensors():
        with allow_mutation_on_saved_tensors():
            pass
except RuntimeError as e:
    print("RuntimeError", e)
v = w.detach().clone().requires_grad_()
u = v * 2
out = (u * u).sum()
u.add_(1)
try:
    out.backward()
except RuntimeError as e:
    print("RuntimeError", str(e).split(":")[0])
'''


def test_saved_tensors_may_change_inside_the_block_as_in_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
