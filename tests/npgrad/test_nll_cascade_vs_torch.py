"""nll_loss and cross_entropy reduce as torch's kernel reduces: the rows added in its cascade
of levels (not as .sum() adds them), so that Karpathy's "backprop ninja" check of
F.cross_entropy against a mean of picked log-probabilities prints torch's difference; sums,
weighted means and ignored targets over batches of every size, against torch run here."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg
from tests.oracle import assert_playground_prints_as_torch

torch = pytest.importorskip("torch")


def test_losses_and_gradients_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch('''
import torch
import torch.nn.functional as F
g = torch.Generator().manual_seed(2147483647)
logits = (torch.randn(32, 27, generator=g) * 3).requires_grad_()
Y = torch.randint(0, 27, (32,), generator=g)
loss = F.cross_entropy(logits, Y)
print(loss.item())
logprobs = logits.log_softmax(1)
manual = -logprobs[range(32), Y].mean()
print(manual.item(), (loss - manual).item())
loss.backward()
print(logits.grad[:2, :4])
for n in (1, 5, 17, 300, 1000):
    x = torch.randn(n, 5, generator=g, requires_grad=True)
    y = torch.randint(0, 5, (n,), generator=g)
    w = torch.rand(5, generator=g)
    for kw in ({}, {"weight": w}, {"reduction": "sum"}, {"weight": w, "reduction": "sum"},
               {"ignore_index": 2}, {"ignore_index": 2, "weight": w}):
        l = F.nll_loss(x, y, **kw)
        x.grad = None
        l.backward()
        print(n, list(kw), l.item(), x.grad.sum().item(), x.grad[0].tolist())
print(F.nll_loss(torch.randn(5, generator=g), torch.tensor(3)).item())
''', tmp_path)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_cascade_over_batches_of_every_size(dtype):
    rng = np.random.default_rng(21)
    for trial in range(120):
        size = int(rng.integers(1, 5000)) if trial % 3 else int(rng.integers(1, 80))
        inputs = rng.standard_normal((size, 6)).astype(dtype)
        targets = rng.integers(0, 6, size)
        weight = rng.uniform(0.1, 2.0, 6).astype(dtype) if trial % 2 else None
        for reduction in ("mean", "sum"):
            theirs = torch.nn.functional.nll_loss(
                torch.tensor(inputs), torch.tensor(targets), reduction=reduction,
                weight=None if weight is None else torch.tensor(weight), ignore_index=3
                if trial % 5 == 0 else -100)
            mine = pg.nn.functional.nll_loss(
                pg.tensor(inputs), pg.tensor(targets), reduction=reduction,
                weight=None if weight is None else pg.tensor(weight), ignore_index=3
                if trial % 5 == 0 else -100)
            assert mine.item() == theirs.item(), (size, reduction, weight is None)
