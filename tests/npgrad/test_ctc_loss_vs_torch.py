"""F.ctc_loss and nn.CTCLoss on the NumPy engine against torch run here: losses and gradients
of random batches (float64 bit for bit, float32 within torch's own C-library rounding), the
reductions' nodes, padded and concatenated targets, impossible alignments with and without
zero_infinity, an unbatched input, and torch's errors."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg
from tests.oracle import assert_playground_prints_as_torch

torch = pytest.importorskip("torch")


def _losses_and_gradients(module, log_probs, targets, inputs, wanted, zero_infinity):
    x = module.tensor(log_probs, requires_grad=True)
    loss = module.nn.functional.ctc_loss(x, module.tensor(targets), module.tensor(inputs),
                                         module.tensor(wanted), reduction="none",
                                         zero_infinity=zero_infinity)
    loss.sum().backward()
    return loss.detach().numpy(), x.grad.numpy()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_batches_give_torchs_losses_and_gradients(dtype):
    """Steps, classes, batch and target lengths drawn at random, empty inputs and targets and
    alignments too short for their targets among them."""
    rng = np.random.default_rng(7)
    for trial in range(80):
        steps, classes = int(rng.integers(1, 15)), int(rng.integers(2, 6))
        batch, longest = int(rng.integers(1, 4)), int(rng.integers(1, 6))
        scores = rng.standard_normal((steps, batch, classes))
        log_probs = (scores - np.log(np.exp(scores).sum(2, keepdims=True))).astype(dtype)
        arguments = (log_probs, rng.integers(1, classes, (batch, longest)),
                     rng.integers(0, steps + 1, batch), rng.integers(0, longest + 1, batch),
                     trial % 3 == 0)
        theirs = _losses_and_gradients(torch, *arguments)
        mine = _losses_and_gradients(pg, *arguments)
        np.testing.assert_array_equal(mine[0], theirs[0])
        if dtype == np.float64:
            np.testing.assert_array_equal(mine[1], theirs[1])
        else:  # (torch's expf and logf are the C library's, not always rounded once)
            np.testing.assert_allclose(mine[1], theirs[1], rtol=1e-5, atol=1e-7)


def test_the_loss_prints_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch("""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, C, N, S = 12, 5, 3, 4
scores = torch.randn(T, N, C, dtype=torch.float64)
log_probs = (scores - scores.exp().sum(2, keepdim=True).log()).float().requires_grad_()
targets = torch.randint(1, C, (N, S), dtype=torch.long)
input_lengths = torch.tensor([12, 10, 7])
target_lengths = torch.tensor([4, 2, 3])
for reduction in ("mean", "sum", "none"):
    loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction=reduction)
    print(reduction, loss)
    log_probs.grad = None
    loss.sum().backward()
    print(log_probs.grad[:, 1])
ctc = nn.CTCLoss(blank=0)
print(ctc)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
print(loss.grad_fn.name(), loss.grad_fn.next_functions[0][0].name(),
      loss.grad_fn.next_functions[0][0].next_functions[0][0].name())
flat = torch.tensor([1, 1, 2, 3, 3, 3, 4, 2, 2])
lengths = [4, 2, 3]
print(F.ctc_loss(log_probs, flat, [12, 12, 12], lengths, reduction="none"))
loss = F.ctc_loss(log_probs.double(), flat, (12, 9, 12), lengths, blank=4)
log_probs.grad = None
loss.backward()
print(loss, log_probs.grad[:, 2])
tight = torch.tensor([[1, 1, 1], [2, 2, 0], [1, 2, 3]])
for zero_infinity in (False, True):
    loss = F.ctc_loss(log_probs[:6], tight, torch.tensor([3, 6, 2]), torch.tensor([3, 2, 3]),
                      reduction="none", zero_infinity=zero_infinity)
    print(loss, loss.grad_fn.name())
    log_probs.grad = None
    loss.sum().backward()
    print(log_probs.grad[:6, 0])
single = log_probs[:, 0].detach().requires_grad_()
for reduction in ("none", "mean"):
    loss = F.ctc_loss(single, targets[0], torch.tensor(12), torch.tensor(4), reduction=reduction)
    print(loss, loss.grad_fn.name())
loss.backward()
print(single.grad[0])
g = torch.autograd.grad(F.ctc_loss(log_probs, targets, input_lengths, target_lengths),
                        log_probs, create_graph=True)[0]
print(g.grad_fn.name())
try:
    g.sum().backward()
except RuntimeError as e:
    print(e)
x = log_probs.detach()
for call in [lambda: F.ctc_loss(x, targets, torch.tensor([13, 6, 6]), target_lengths),
             lambda: F.ctc_loss(x, targets, input_lengths, torch.tensor([5, 2, 2])),
             lambda: F.ctc_loss(x, targets, input_lengths, target_lengths, blank=5),
             lambda: F.ctc_loss(x, targets, input_lengths[:2], target_lengths),
             lambda: F.ctc_loss(x, targets, input_lengths, target_lengths[:1]),
             lambda: F.ctc_loss(x, targets, input_lengths, target_lengths, reduction="avg"),
             lambda: F.ctc_loss(x, targets, input_lengths.float(), target_lengths),
             lambda: F.ctc_loss(x.long(), targets, input_lengths, target_lengths),
             lambda: F.ctc_loss(x, targets, input_lengths, torch.tensor([-1, 2, 2])),
             lambda: F.ctc_loss(x, targets, torch.tensor([0, 3, 3]), target_lengths),
             lambda: F.ctc_loss(x, targets.float(), input_lengths, target_lengths),
             lambda: F.ctc_loss(x, flat[:5], input_lengths, target_lengths),
             lambda: F.ctc_loss(x, targets, input_lengths, torch.tensor([0, 0, 1]))]:
    try:
        print(call())
    except Exception as e:
        print(type(e).__name__, e)
""", tmp_path)
