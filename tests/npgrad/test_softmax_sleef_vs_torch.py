"""softmax and log_softmax along the last dimension bit for bit as torch's kernels compute
them, against torch run here: rows of every length around the vector's (1-33, 100, 1000),
float32 and float64, forward and backward (softmax's backward to float noise: its sums' order
follows torch's thread count), and cross entropy's loss and gradient. Their sums
reduce a vector's lanes half on half (vec_reduce_all's shuffles, float32), their exps and
log_softmax's log are Sleef's (torch's own, called through the C module where torch is here:
npgrad/_vml.sleef_values)."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad import _compiled, _vml

LENGTHS = [*range(1, 18), 31, 32, 33, 100, 1000]


def _same_bits(given: np.ndarray, expected: np.ndarray) -> None:
    assert given.dtype == expected.dtype and given.shape == expected.shape
    differ = given.view(np.uint8) != np.ascontiguousarray(expected).view(np.uint8)
    assert not differ.any(), int(differ.sum())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("function", ["softmax", "log_softmax"])
def test_rows_of_every_length(function, dtype, torch, engine):
    if dtype == "float64" and (not _vml.available() or _compiled.kernels is None):
        pytest.skip("float64 rows take torch's own Sleef exp: torch or the C module missing")
    rng = np.random.default_rng(len(function))
    for length in LENGTHS:
        values = (rng.standard_normal((60, length)) * 4).astype(dtype)
        grads = rng.standard_normal((60, length)).astype(dtype)
        real = torch.from_numpy(values).requires_grad_()
        ours = engine.tensor(values, requires_grad=True)
        real_out, our_out = getattr(torch, function)(real, 1), getattr(engine, function)(ours, 1)
        _same_bits(our_out.detach().numpy(), real_out.detach().numpy())
        real_out.backward(torch.from_numpy(grads))
        our_out.backward(engine.tensor(grads))
        if function == "log_softmax":
            _same_bits(ours.grad.numpy(), real.grad.numpy())
        else:  # (its backward's sums are added in an order that follows torch's threads)
            np.testing.assert_allclose(ours.grad.numpy(), real.grad.numpy(),
                                       rtol=1e-5 if dtype == "float32" else 1e-13,
                                       atol=1e-6 if dtype == "float32" else 1e-15)


@pytest.mark.skipif(not _vml.available() or _compiled.kernels is None,
                    reason="log_softmax's log is torch's own Sleef log: torch or the C module "
                           "missing")
@pytest.mark.parametrize("classes", [3, 10, 27, 65])
def test_cross_entropy_of_a_batch(classes, torch, engine):
    """A makemore-sized batch: the loss and its gradient, label smoothing too."""
    rng = np.random.default_rng(classes)
    logits = (rng.standard_normal((32, classes)) * 3).astype(np.float32)
    targets = rng.integers(0, classes, 32)
    for options in ({}, {"label_smoothing": 0.1}):
        real = torch.from_numpy(logits).requires_grad_()
        ours = engine.tensor(logits, requires_grad=True)
        real_loss = torch.nn.functional.cross_entropy(real, torch.from_numpy(targets), **options)
        our_loss = engine.nn.functional.cross_entropy(ours, engine.tensor(targets), **options)
        assert our_loss.item() == real_loss.item()
        real_loss.backward()
        our_loss.backward()
        _same_bits(ours.grad.numpy(), real.grad.numpy())


def test_sleef_values_need_torchs_library(monkeypatch):
    """Without the C module the engine rounds once instead (sleef_values says None)."""
    monkeypatch.setattr(_compiled, "kernels", None)
    assert _vml.sleef_values("log", np.ones(3, np.float32)) is None
