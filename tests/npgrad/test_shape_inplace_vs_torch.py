"""The in-place shape methods (t_, transpose_, squeeze_, unsqueeze_, swapdims_, swapaxes_) on
a tensor with history, against torch run here: the tensor itself changes shape, torch's
in-place view nodes join its history, its version moves (so a saved result's backward
refuses), and a leaf that requires grad is refused."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_in_place_shape_methods_record_torchs_nodes(tmp_path):
    assert_playground_prints_as_torch('''
import torch
torch.manual_seed(0)
for op in ["t_()", "transpose_(0, 1)", "transpose_(-1, 0)", "squeeze_()", "squeeze_(0)",
           "squeeze_((0, 1))", "unsqueeze_(0)", "unsqueeze_(-1)", "swapdims_(0, 1)",
           "swapaxes_(0, 1)"]:
    x = torch.randn(1, 3, requires_grad=True)
    y = x * torch.tensor([1.0, 2.0, 3.0])
    z = eval("y." + op)
    print(op, z is y, y.shape, y.grad_fn.name(), y._version, y.grad_fn.next_functions[0][0].name())
    (y * y).sum().backward()
    print(x.grad)
x = torch.randn(2, 3, requires_grad=True)
y = x.tanh()
y.t_()
try:
    y.sum().backward()
except RuntimeError as e:
    print(str(e)[:80])
leaf = torch.ones(2, 1, requires_grad=True)
try:
    leaf.squeeze_()
except RuntimeError as e:
    print(e)
with torch.no_grad():
    print(leaf.squeeze_().shape)
''', tmp_path)


def test_in_place_shape_methods_on_views(tmp_path):
    """A view keeps its base: its node joins its own history, its strides are torch's, the
    version moves for every view of the base, and a later write to the base regenerates it."""
    assert_playground_prints_as_torch('''
import torch
x0 = torch.arange(6.0, requires_grad=True)
x = x0.reshape(2, 3) * 1
y = x[:, 1]
sibling = x[0]
y.unsqueeze_(1)
print(y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y._base is x, y.shape,
      y.stride(), x._version, x.grad_fn.name(), sibling.grad_fn.name())
(y * torch.tensor([[1.0], [2.0]])).sum().backward(retain_graph=True)
print(x0.grad)
x.mul_(2)
print(y.grad_fn.name(), y)
x0.grad = None
y.sum().backward()
print(x0.grad)
x2 = x0.reshape(2, 3) * 1
z = x2.t()
z.t_()
print(z.grad_fn.name(), z._base is x2, z.is_contiguous(), z.stride())
z.add_(1)
print(x2.grad_fn.name(), z.grad_fn.name())
x2.sum().backward()
print(x0.grad)
w = x0[1:] * 1
v = w.view(5, 1)
v.squeeze_()
v.squeeze_(0)
v.unsqueeze_(0).transpose_(0, 1)
v.swapdims_(0, 1)
v.swapaxes_(1, 0)
print(v.grad_fn.name(), v.shape, v.stride())
node = v.grad_fn
while node is not None and node.next_functions:
    print(" ", node.name())
    node = node.next_functions[0][0]
v.mul_(3)
print(w.grad_fn.name(), v.grad_fn.name(), w)
plain = torch.zeros(4, 3)
column = plain[:, 1]
column.unsqueeze_(1)
print(column.stride(), plain._version, torch.zeros(4, 3)[:, 1:2].squeeze(1).unsqueeze(1).stride(),
      torch.zeros(2, 3)[:, 1].unsqueeze(1).stride(),
      torch.zeros(3).expand(2, 3).unsqueeze(2).stride())
leaf = torch.ones(2, 3, requires_grad=True)
for write in [lambda: leaf.view(3, 2).t_(), lambda: leaf[0].unsqueeze_(0)]:
    try:
        write()
    except RuntimeError as e:
        print(e)
with torch.no_grad():
    made = x0.view(2, 3)
try:
    made.t_()
except RuntimeError as e:
    print(str(e)[:60])
''', tmp_path)
