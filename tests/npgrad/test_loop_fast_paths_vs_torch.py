"""The short cuts a training loop's every step takes (issue 36) print what torch prints, bit
for bit: nll_loss of a batch of rows without class weights (and the first target out of range
named, as torch names it), a bias's gradient summed over a small batch, a scalar parameter's
gradient summed over everything, ``x ** 2``'s gradient (2 * x ** 1), and ``w.grad.zero_()``
(its version counter too) with zero_'s refusals."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_a_small_training_loops_steps_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch('''
import torch
import torch.nn.functional as F
g = torch.Generator().manual_seed(7)
for dtype in (torch.float32, torch.float64):
    for rows in (1, 2, 3, 4, 5, 17):
        for classes in (1, 2, 3, 9):
            # (log-probabilities given: exp's last bits differ by CPU, nll_loss's must not)
            x = (torch.randn(rows, classes, generator=g, dtype=dtype) * 4).requires_grad_()
            y = torch.randint(0, classes, (rows,), generator=g)
            for kw in ({}, {"reduction": "sum"}, {"ignore_index": 0}, {"ignore_index": -1}):
                loss = F.nll_loss(x, y, **kw)
                x.grad = None
                loss.backward()
                print(dtype, rows, classes, list(kw), loss.item(), x.grad.flatten().tolist())
    print(F.nll_loss(torch.randn(3, 4, generator=g, dtype=dtype),
                     torch.tensor([0, 3, 1], dtype=torch.uint8)))
    for bad in ([0, 4, 1], [-2, 1, 1], [1, 5, -3], [-100, 7, 1]):
        try:
            F.nll_loss(torch.randn(3, 4, dtype=dtype), torch.tensor(bad))
        except IndexError as error:
            print("IndexError", error)
    for batch in (2, 3, 4, 5):
        for width in (1, 2, 7, 33):
            layer = torch.nn.Linear(3, width).to(dtype)
            out = layer(torch.randn(batch, 3, generator=g, dtype=dtype) * 10)
            (out * torch.randn(batch, width, generator=g, dtype=dtype)).sum().backward()
            print(batch, width, layer.bias.grad.tolist())
    w = torch.tensor(0.5, dtype=dtype, requires_grad=True)
    b = torch.tensor(-0.25, dtype=dtype, requires_grad=True)
    xs = torch.randn(13, generator=g, dtype=dtype)
    for step in range(3):
        loss = ((w * xs + b - 2 * xs) ** 2).mean()
        loss.backward()
        grad = w.grad
        with torch.no_grad():
            w -= 0.1 * w.grad
            b -= 0.1 * b.grad
        version = w.grad._version
        w.grad.zero_()
        b.grad.zero_()
        print(step, loss.item(), w.item(), b.item(), grad is w.grad, w.grad,
              w.grad._version - version)
    x = torch.randn(4, generator=g, dtype=dtype, requires_grad=True)
    (x ** 1 + x ** 2).sum().backward()
    print(x.grad.tolist())
leaf = torch.ones(3, requires_grad=True)
for write in (lambda: leaf.zero_(), lambda: leaf[1:].zero_()):
    try:
        write()
    except RuntimeError as error:
        print("RuntimeError", error)
with torch.no_grad():
    print(leaf.zero_(), leaf._version)
view = torch.arange(6.).reshape(2, 3)[:, 1]
print(view.zero_(), view._base)
t = torch.ones(2, requires_grad=True) * 3
t.zero_()
print(t, type(t.grad_fn).__name__)
''', tmp_path)
