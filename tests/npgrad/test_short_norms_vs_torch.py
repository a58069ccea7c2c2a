"""2-norms of short rows and small tensors against torch run here, bit for bit: torch's
vectorised kernel adds a short row in its own order (vectors each in an accumulator, then
four elements side by side, the rest fused on one at a time), which a plain running sum of
squares missed in the last bit for a third of the rows of 2-11 floats. Those norms are what
F.normalize divides by and what clip_grad_norm_ adds up (its total, a norm of norms, mostly
rounds the last bit of one away)."""

from __future__ import annotations

import numpy as np
import pytest

from playground import npgrad
from tests.oracle import assert_torchs_bits

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype, longest", [(np.float32, 11), (np.float64, 17)])
def test_rows_and_whole_tensors_as_torch(dtype, longest):
    rng = np.random.default_rng(11)
    for width in range(1, longest + 1):
        data = rng.standard_normal((40, width)).astype(dtype)
        for kwargs in ({"dim": -1}, {"dim": 1, "keepdim": True}, {}):
            theirs = torch.linalg.vector_norm(torch.from_numpy(data), **kwargs).numpy()
            mine = npgrad.linalg.vector_norm(npgrad.tensor(data), **kwargs).numpy()
            assert_torchs_bits(mine, theirs, torch, rtol=1e-6)
        for row in data[:8]:
            theirs = torch.from_numpy(row).norm().numpy()
            assert_torchs_bits(npgrad.tensor(row).norm().numpy(), theirs, torch, rtol=1e-6)


def test_clip_grad_norm_of_a_small_model_as_torch():
    """The gradients of a model of Linear(3, 7), Linear(7, 3) and Linear(3, 2) (the same
    arrays given to both): the total norm printed and the gradients clipped by it."""
    rng = np.random.default_rng(5)
    shapes = [(7, 3), (7,), (3, 7), (3,), (2, 3), (2,)]
    gradients = [rng.standard_normal(shape).astype(np.float32) for shape in shapes]
    results = []
    for engine in (torch, npgrad):
        params = [engine.zeros(shape, requires_grad=True) for shape in shapes]
        for param, grad in zip(params, gradients, strict=True):
            param.grad = engine.tensor(grad.copy())
        total = engine.nn.utils.clip_grad_norm_(params, 0.5)
        results.append((total.numpy(), [param.grad.numpy().copy() for param in params]))
    (theirs, their_grads), (mine, my_grads) = results
    assert_torchs_bits(mine, theirs, torch, rtol=1e-6)
    for my_grad, their_grad in zip(my_grads, their_grads, strict=True):
        assert_torchs_bits(my_grad, their_grad, torch, rtol=1e-6)
