"""log_softmax's rows in one C call (npgrad/_softmax_rows.py) give the bits of the NumPy steps
they stand in for, forward and backward, for rows shorter and longer than a vector, a partial
last vector, several dimensions, -inf and huge values; and torch's, where torch is here."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad import _compiled, _softmax_rows
from playground.npgrad._kernel_exp import vector_floats

pytestmark = pytest.mark.skipif(_compiled.kernels is None or vector_floats() == 1,
                                reason="no C module here, or torch's scalar build")

SHAPES = [(1, 1), (4, 2), (3, 7), (2, 8), (5, 16), (2, 17), (3, 33), (2, 100), (2, 3, 5)]


def _values(shape, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = (rng.standard_normal(shape) * 4).astype(np.float32)
    flat = values.reshape(-1)
    if flat.size > 3:
        flat[1], flat[-2] = -np.inf, 80.0  # (e^x of the differences: 0 and underflow)
    return values


def _forward_and_gradient(engine, values: np.ndarray, grad: np.ndarray):
    x = engine.tensor(values, requires_grad=True)
    out = engine.nn.functional.log_softmax(x, dim=-1)
    out.backward(engine.tensor(grad))
    return out.detach().numpy(), x.grad.numpy()


def _same_bits(given: np.ndarray, expected: np.ndarray) -> None:
    assert given.dtype == expected.dtype and given.shape == expected.shape
    assert np.array_equal(given.view(np.uint32), expected.view(np.uint32)), \
        int((given.view(np.uint32) != expected.view(np.uint32)).sum())


@pytest.mark.parametrize("shape", SHAPES)
def test_the_c_rows_are_the_numpy_steps(shape, engine, monkeypatch):
    values = _values(shape, sum(shape))
    grad = np.random.default_rng(len(shape)).standard_normal(shape).astype(np.float32)
    taken = []
    real = _softmax_rows._rows_here
    monkeypatch.setattr(_softmax_rows, "_rows_here",
                        lambda *a: taken.append(real(*a)) or taken[-1])
    in_c = _forward_and_gradient(engine, values, grad)
    assert taken == [True, True]  # (forward and backward both took the C call)
    monkeypatch.setattr(_softmax_rows, "_rows_here", lambda *a: False)
    in_numpy = _forward_and_gradient(engine, values, grad)
    for given, expected in zip(in_c, in_numpy, strict=True):
        _same_bits(given, expected)


@pytest.mark.parametrize("shape", [(4, 2), (3, 33), (2, 3, 5)])
def test_the_c_rows_are_torchs(shape, engine, torch):
    values = _values(shape, 7)
    grad = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    given = _forward_and_gradient(engine, values, grad)
    expected = _forward_and_gradient(torch, values, grad)
    for ours, theirs in zip(given, expected, strict=True):
        _same_bits(ours, theirs)


def test_other_rows_take_the_numpy_steps():
    """float64, another dimension than the last, nothing in them: None (the caller's way)."""
    rows = np.ones((3, 4), np.float32)
    assert _softmax_rows.log_softmax_rows(rows.astype(np.float64), 1) is None
    assert _softmax_rows.log_softmax_rows(rows, 0) is None
    assert _softmax_rows.log_softmax_rows(np.ones((0, 4), np.float32), 1) is None
    assert _softmax_rows.log_softmax_grad_rows(rows[:2], rows, 1) is None


def test_the_c_call_refuses_what_it_cannot_take():
    kernels = _compiled.kernels
    rows, out = np.ones(6, np.float32), np.empty(6, np.float32)
    for length, lanes in ((4, 8), (3, 12), (0, 8)):
        with pytest.raises(ValueError):
            kernels.log_softmax_grad_rows_f32(rows, rows, length, lanes, out)
    with pytest.raises(ValueError):
        kernels.log_softmax_grad_rows_f32(rows, rows, 3, 8, np.empty(3, np.float32))
