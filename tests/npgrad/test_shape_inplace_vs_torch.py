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
