"""Large elementwise ops split between the cores give the very arrays the whole op gives.

``_parallel.apply`` runs a ufunc on one slice per core; the engine's forward fast paths, its
derivative formulas (for large gradients) and its gradient sums go through it. The split is
only a matter of speed: every result here is compared bit for bit with the op run whole.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading

import numpy as np
import pytest

import playground.npgrad as npgrad
from playground.npgrad import _parallel

SIZE = 3 * _parallel.SPLIT_FROM + 37  # not a multiple of the slices' 64-element blocks


def _awkward(dtype, size=SIZE, seed=0) -> np.ndarray:
    """Normal values with the cases a SIMD loop treats apart: NaN, infinities, signed zeros,
    subnormals, and numbers near overflow, scattered across the slices' edges."""
    rng = np.random.default_rng(seed)
    values = (rng.normal(size=size) * 3).astype(dtype)
    info = np.finfo(dtype)
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, info.tiny / 4, -info.tiny / 3,
                         info.max / 2, -info.max], dtype)
    places = rng.choice(size, 400, replace=False)
    values[places] = np.resize(specials, places.size)
    return values


@pytest.fixture(autouse=True)
def _workers():
    if not _parallel._Pool.get():
        pytest.skip("one core: nothing is split")


UNARY = [np.negative, np.tanh, np.sin, np.cos, np.exp, np.log, np.sqrt, np.arctan, np.expm1,
         np.log1p, np.sinh, np.reciprocal, np.abs]
BINARY = [np.add, np.subtract, np.multiply, np.true_divide]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", UNARY, ids=lambda f: f.__name__)
def test_a_split_unary_op_equals_the_whole_op(ufunc, dtype):
    values = _awkward(dtype)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(_parallel.apply(ufunc, values), ufunc(values), strict=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", BINARY, ids=lambda f: f.__name__)
def test_a_split_binary_op_equals_the_whole_op_for_every_kind_of_operand(ufunc, dtype):
    a, b = _awkward(dtype, seed=1), _awkward(dtype, seed=2)
    matrix_a, matrix_b = a[:SIZE - 37].reshape(-1, 64), b[:SIZE - 37].reshape(-1, 64)
    spread = np.broadcast_to(np.asarray(0.75, dtype), a.shape)  # a 0-stride operand
    cases = [(a, b), (a, 0.1), (10, a), (a, np.asarray(-2.5, dtype)), (a, dtype(3)),
             (matrix_a, matrix_b), (spread, b), (a[::-1], b)]
    with np.errstate(all="ignore"):
        for left, right in cases:
            np.testing.assert_array_equal(_parallel.apply(ufunc, left, right),
                                          ufunc(left, right), strict=True)


@pytest.mark.parametrize("lead", [0.0, 20e-6, 60e-6, 1e-3])
def test_an_uneven_cut_gives_the_same_bits(lead, monkeypatch):
    # this thread takes more than its share while a worker wakes up: how much is learnt
    monkeypatch.setattr(_parallel._Balance, "lead", lead)
    monkeypatch.setitem(_parallel._Balance.per_element, np.add, 1.5e-10)
    a, b = _awkward(np.float32, size=1_000_003, seed=5), _awkward(np.float32, size=1_000_003)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(_parallel.apply(np.add, a, b), a + b, strict=True)


@pytest.mark.parametrize("workers", [1, 3, 7])
@pytest.mark.parametrize("lead", [0.0, 30e-6, 200e-6])
def test_the_cut_covers_every_element_once_on_whole_blocks(workers, lead, monkeypatch):
    monkeypatch.setattr(_parallel._Balance, "lead", lead)
    monkeypatch.setitem(_parallel._Balance.per_element, np.add, 1.5e-10)
    for size in (_parallel.SPLIT_FROM, SIZE, 1_000_003, 10_000_000):
        bounds = _parallel._Balance.starts(np.add, size, workers)
        assert bounds[0] == 0 and bounds[-1] == size and bounds == sorted(set(bounds))
        assert all(bound % _parallel.BLOCK == 0 for bound in bounds[1:-1])
        assert len(bounds) - 2 <= workers
        if len(bounds) > 2:  # this thread starts at once: never less than a worker's share
            assert bounds[1] >= max(b - a for a, b in zip(bounds[1:], bounds[2:], strict=False))


def test_one_late_worker_moves_the_cut_only_a_little(monkeypatch):
    monkeypatch.setattr(_parallel._Balance, "lead", 30e-6)
    monkeypatch.setitem(_parallel._Balance.per_element, np.add, 1.5e-10)
    _parallel._Balance.learn(np.add, 500_000, 0.0, 70e-6, 70e-6 + 5e-3)  # descheduled once
    assert 30e-6 < _parallel._Balance.lead <= 30e-6 + _parallel._Balance.NOTICED
    for _ in range(200):  # then on time: it comes back
        _parallel._Balance.learn(np.add, 500_000, 0.0, 70e-6, 60e-6)
    assert _parallel._Balance.lead < 30e-6


def test_an_op_the_slices_cannot_express_is_computed_whole_all_the_same():
    a = _awkward(np.float32)
    cases = [(a, a.astype(np.float64)),                   # mixed dtypes promote
             (a[:SIZE - 37].reshape(-1, 64), a[:64]),     # broadcasting
             (a[:SIZE - 37].reshape(-1, 64).T, 2.0),      # a transposed matrix
             (np.arange(SIZE), 3),                        # integers
             (a, True), (a, 2 ** 60)]                     # numbers NumPy converts its own way
    with np.errstate(all="ignore"):
        for left, right in cases:
            np.testing.assert_array_equal(_parallel.apply(np.multiply, left, right),
                                          np.multiply(left, right), strict=True)


def test_a_split_op_writes_into_its_out_argument_in_place():
    a, b = _awkward(np.float64, seed=3), _awkward(np.float64, seed=4)
    expected = a + b
    with np.errstate(all="ignore"):
        result = _parallel.apply(np.add, a, b, out=a)
    assert result is a
    np.testing.assert_array_equal(a, expected)


def test_a_split_result_is_referenced_by_nothing_but_its_caller():
    # A worker that kept its last slices would pin the result (and AccumulateGrad, seeing
    # another reference, would copy the gradient instead of taking it as .grad)
    a = np.ones(SIZE, np.float32)
    assert sys.getrefcount(_parallel.apply(np.multiply, a, a)) == \
        sys.getrefcount(np.multiply(a, a))


def test_the_callers_numpy_error_settings_hold_in_every_slice():
    values = np.ones(SIZE, np.float32)
    values[-1] = 3e38  # in the last slice, which a worker computes
    with np.errstate(over="raise"), pytest.raises(FloatingPointError):
        _parallel.apply(np.multiply, values, np.float32(10))
    with np.errstate(over="ignore"):
        assert _parallel.apply(np.multiply, values, np.float32(10))[-1] == np.inf


def _squared_less_half(values):
    return _parallel.apply(np.subtract, _parallel.apply(np.multiply, values, values), 0.5)


@pytest.mark.parametrize(("split", "whole"), [
    (lambda values: _parallel.apply(np.tanh, values), np.tanh),  # the Python threads' op
    (_squared_less_half, lambda values: values * values - 0.5),  # the C pool's, where built
], ids=["tanh", "arithmetic"])
def test_threads_splitting_at_once_each_get_their_own_result(split, whole):
    # The workers serve one split at a time; a second thread meanwhile computes whole.
    inputs = [_awkward(np.float32, seed=seed) for seed in range(4)]
    with np.errstate(all="ignore"):
        expected = [whole(values) for values in inputs]
    failures = []

    def work(index: int) -> None:
        with np.errstate(all="ignore"):
            for _ in range(20):
                if not np.array_equal(split(inputs[index]), expected[index], equal_nan=True):
                    failures.append(index)

    threads = [threading.Thread(target=work, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures and not any(thread.is_alive() for thread in threads)


def _split_in_child(queue) -> None:
    values = np.arange(SIZE, dtype=np.float64)
    queue.put(bool(np.array_equal(_parallel.apply(np.multiply, values, 2.0), values * 2)))


@pytest.mark.skipif(sys.platform != "linux", reason="fork is the Linux default")
def test_a_forked_child_starts_workers_of_its_own():
    _parallel.apply(np.multiply, np.ones(SIZE), 2.0)  # the parent's workers are running
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_split_in_child, args=(queue,))
    child.start()
    assert queue.get(timeout=60) is True
    child.join(timeout=60)


def _chain_gradients(m, values: np.ndarray, weights: np.ndarray) -> list[np.ndarray]:
    """Forward and backward through every split path: arithmetic with tensors and numbers,
    transcendentals, a weight used many times (its gradient summed), a reduction."""
    x = m.tensor(values, requires_grad=True)
    w = m.tensor(weights, requires_grad=True)
    y = x
    for step in range(4):
        y = (y * 0.5 + w) * w
        y = 10 - y if step % 2 else y - 0.1
        y = y.tanh().sin() / (w * w + 1)
        y = -y.exp() + y.cos() * y.abs().sqrt()
    (y.sum() + (y * y).mean()).backward()
    return [x.grad.numpy().copy(), w.grad.numpy().copy()]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_engine_computes_the_same_bits_split_or_whole(dtype, monkeypatch):
    values = np.abs(_awkward(dtype, seed=5)).clip(0, 5)
    weights = (_awkward(dtype, seed=6) * 0.3).clip(-2, 2)
    values[np.isnan(values)] = 1
    weights[np.isnan(weights)] = 0.5
    with np.errstate(all="ignore"):
        split = _chain_gradients(npgrad, values, weights)
        monkeypatch.setattr(_parallel._Pool, "workers", [])  # every op whole
        whole = _chain_gradients(npgrad, values, weights)
    for got, expected in zip(split, whole, strict=True):
        np.testing.assert_array_equal(got, expected, strict=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_formula_writes_into_its_own_intermediates_and_never_into_its_inputs(dtype,
                                                                              monkeypatch):
    from playground.npgrad._formula_compiler import formula as _formula
    from playground.npgrad._rules import Rule

    rule = Rule("demo", "DemoBackward0", ("self",), ("result",), ("grad * (1 - result * result)",))
    formula = _formula(rule, rule.texts[0], split=True)
    grad, result = _awkward(dtype, seed=7), np.tanh(_awkward(dtype, seed=8))
    kept_grad, kept_result = grad.copy(), result.copy()
    outs = []
    split_apply = _parallel.apply

    def apply(ufunc, *operands, out=None, fallback=None):
        outs.append(out)
        return split_apply(ufunc, *operands, out=out, fallback=fallback)

    monkeypatch.setattr(_parallel, "apply", apply)
    with np.errstate(all="ignore"):
        got = formula(None, grad, (result,))
        expected = grad * (1 - result * result)
    np.testing.assert_array_equal(got, expected, strict=True)
    np.testing.assert_array_equal(grad, kept_grad, strict=True)  # inputs untouched
    np.testing.assert_array_equal(result, kept_result, strict=True)
    # result * result is new; 1 - it and grad * that are written into it
    assert outs[0] is None and outs[1] is outs[2] is not None
    assert got is outs[1]
