"""The C pool (_split_pool.c) that adds, subtracts, multiplies, divides and negates large float
arrays on every core gives NumPy's bits, and tells of overflow and the rest as NumPy does; its
one-pass gradient of tanh gives the formula's bits (``grad * fused(-y, y, 1)``) and torch's.

Its twin is _parallel.py's Python threads (where the C module did not build): each case here
runs on the pool, on the twin and whole in NumPy, and all three must agree bit for bit
(threads sharing the pool: test_parallel.py).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from playground.npgrad import _compiled, _parallel, _quiet_warnings
from playground.npgrad._numerics import fused_values

SIZE = 5 * 16384 + 3 * _parallel.SPLIT_FROM + 41  # many chunks, the last one short

pytestmark = pytest.mark.skipif(_compiled.kernels is None, reason="the C module was not built")


@pytest.fixture(autouse=True)
def _workers():
    if not _parallel._Pool.get():
        pytest.skip("one core: nothing is split")


def _awkward(dtype, seed: int) -> np.ndarray:
    """Normal values with NaN, infinities, signed zeros, subnormals and near-overflow ones."""
    rng = np.random.default_rng(seed)
    values = (rng.normal(size=SIZE) * 3).astype(dtype)
    info = np.finfo(dtype)
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, info.tiny / 4,
                         -info.tiny / 3, info.max / 2, -info.max, info.smallest_subnormal],
                        dtype)
    places = rng.choice(SIZE, 2000, replace=False)
    values[places] = np.resize(specials, places.size)
    return values


def _bits(array: np.ndarray) -> np.ndarray:
    return array.view(f"u{array.dtype.itemsize}")


def _assert_numpys_bits(result: np.ndarray, expected: np.ndarray, *operands) -> None:
    """The same bits, but where every operand is NaN: there a NaN of either's sign (NumPy's own
    loops take the first's or the second's: its float64 array + scalar the scalar's)."""
    assert result.dtype == expected.dtype and result.shape == expected.shape
    all_nan = np.logical_and.reduce([np.isnan(np.broadcast_to(value, result.shape))
                                     for value in operands])
    np.testing.assert_array_equal(_bits(result[~all_nan]), _bits(expected[~all_nan]))
    assert np.isnan(result[all_nan]).all()


def _three_ways(ufunc, *operands, out_of=None):
    """The op on the C pool, on the Python twin and whole; ``out_of``: an operand's index to
    write into (each way gets its own copies)."""
    results = []
    for kernels, workers in ((_compiled.kernels, None), (None, None), (None, [])):
        copies = [value.copy() if isinstance(value, np.ndarray) else value for value in operands]
        out = None if out_of is None else copies[out_of]
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_compiled, "kernels", kernels)
            if workers is not None:
                patch.setattr(_parallel._Pool, "workers", workers)
            results.append(_parallel.apply(ufunc, *copies, out=out))
    return results


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.true_divide],
                         ids=lambda f: f.__name__)
def test_every_kind_of_operand_gives_numpys_bits(ufunc, dtype):
    a, b = _awkward(dtype, 1), _awkward(dtype, 2)
    spread = np.broadcast_to(np.asarray(-1.25, dtype), a.shape)  # a gradient of a sum
    cases = [(a, b), (a, 0.1), (3, b), (a, np.asarray(7.5, dtype)), (a, dtype(-2)), (spread, b),
             (b, spread), (a[:SIZE - 41].reshape(-1, 128), b[:SIZE - 41].reshape(-1, 128))]
    with np.errstate(all="ignore"):
        for left, right in cases:
            on_pool, twin, whole = _three_ways(ufunc, left, right)
            _assert_numpys_bits(on_pool, whole, left, right)
            _assert_numpys_bits(twin, whole, left, right)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_pair_of_special_values_gives_numpys_bits(dtype):
    info = np.finfo(dtype)
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, info.tiny / 4, 1.5,
                         -info.max, info.max, info.smallest_subnormal], dtype)
    pairs = np.array(np.meshgrid(specials, specials)).reshape(2, -1)
    a, b = (np.resize(side, SIZE) for side in pairs)
    with np.errstate(all="ignore"):
        for ufunc in (np.add, np.subtract, np.multiply, np.true_divide):
            for left, right in ((a, b), (a, specials[1]), (specials[0], b)):
                results = _three_ways(ufunc, left, right)
                for result in results[:2]:
                    _assert_numpys_bits(result, results[2], left, right)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_negation_and_a_sum_into_an_operand_give_numpys_bits(dtype):
    a, b = _awkward(dtype, 3), _awkward(dtype, 4)
    with np.errstate(all="ignore"):
        for result in _three_ways(np.negative, a)[:2]:  # a sign flipped: every bit NumPy's
            np.testing.assert_array_equal(_bits(result), _bits(-a))
        for results in (_three_ways(np.add, a, b, out_of=0),
                        _three_ways(np.multiply, a, b, out_of=1)):
            for result in results[:2]:
                _assert_numpys_bits(result, results[2], a, b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tanhs_gradient_in_one_pass_gives_the_formulas_bits(dtype):
    grad, values = _awkward(dtype, 5), _awkward(dtype, 6)
    with np.errstate(all="ignore"):
        results = np.tanh(values)  # with tanh's NaNs, ones and signed zeros
        spread = np.broadcast_to(np.asarray(0.75, dtype), grad.shape)  # a sum's gradient
        for left, right in ((grad, results), (spread, results), (grad, values)):
            expected = left * fused_values(-right, right, 1)  # the formula on the NumPy kit
            for result in _three_ways(_parallel.tanh_grad, left, right):
                _assert_same_but_nans_sign(result, expected)


def _assert_same_but_nans_sign(result: np.ndarray, expected: np.ndarray) -> None:
    """The same bits, but a NaN's sign and payload (which of two NaNs an FMA passes on is the
    machine's: torch does not fix it either)."""
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.isnan(result), nan)
    np.testing.assert_array_equal(_bits(result[~nan]), _bits(expected[~nan]))


def test_tanhs_gradient_on_the_pool_is_torchs(torch):
    rng = np.random.default_rng(7)
    for dtype in (np.float32, np.float64):
        results = np.tanh(rng.normal(size=SIZE) * 2).astype(dtype)
        grad = (rng.normal(size=SIZE) * 3).astype(dtype)
        expected = torch.ops.aten.tanh_backward(torch.from_numpy(grad), torch.from_numpy(results))
        np.testing.assert_array_equal(_bits(_parallel.apply(_parallel.tanh_grad, grad, results)),
                                      _bits(expected.numpy()))


@pytest.mark.parametrize("shape", [(), (1,), (2, 2), (3, 17), (0, 4)], ids=str)
def test_a_small_tanh_gradient_in_c_on_the_callers_thread_is_the_formulas_and_torchs(shape,
                                                                                   torch):
    """A small array's tanh gradient is computed in C at once, on the caller's thread (as
    the formulas now ask: _parallel.fuse_tanh_grads): the formula's bits and torch's; a
    strided operand, a tensor or a number still take the formula as written."""
    from playground.npgrad._formula_numpy import NUMPY_KIT

    rng = np.random.default_rng(len(shape))
    for dtype in (np.float32, np.float64):
        results = np.asarray(np.tanh(rng.normal(size=shape) * 2), dtype)
        grad = np.asarray(rng.normal(size=shape) * 3, dtype)
        given = _parallel._tanh_grad(NUMPY_KIT, grad, results)
        assert given.dtype == dtype and given.shape == shape
        _assert_same_but_nans_sign(given, grad * fused_values(-results, results, 1))
        expected = torch.ops.aten.tanh_backward(torch.from_numpy(grad),
                                                torch.from_numpy(results))
        np.testing.assert_array_equal(_bits(given), _bits(expected.numpy()))
    wide = np.tanh(rng.normal(size=(4, 6)))
    strided = _parallel._tanh_grad(NUMPY_KIT, wide[:, ::2], wide[:, 1::2])
    _assert_same_but_nans_sign(strided, wide[:, ::2] * fused_values(-wide[:, 1::2],
                                                                     wide[:, 1::2], 1))
    assert _parallel._tanh_grad(NUMPY_KIT, 2.0, 0.5) == 2.0 * (1 - 0.25)


@pytest.mark.parametrize("built", [True, False], ids=["pool", "twin"])
def test_an_out_partly_over_an_operand_is_left_to_numpy(built, monkeypatch):
    # (slices written at once would read what another slice had just written)
    if not built:
        monkeypatch.setattr(_compiled, "kernels", None)
    for _ in range(5):
        values = np.arange(SIZE + 1, dtype=np.float32)
        expected = values[1:] + values[:-1]
        result = _parallel.apply(np.add, values[1:], values[:-1], out=values[1:])
        np.testing.assert_array_equal(result, expected)


FAULTS = [  # (op, the value at one place of a, of b there): each raises one exception
    (np.multiply, "max", 2.0), (np.true_divide, 1.0, 0.0), (np.add, np.inf, -np.inf),
    (np.multiply, "tiny", "tiny"), (np.subtract, "max", "-max"), (np.true_divide, 0.0, 0.0),
    (_parallel.tanh_grad, "max", 2.0), (_parallel.tanh_grad, "least", 0.5),
    (_parallel.tanh_grad, np.inf, 1.0)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(("ufunc", "left", "right"), FAULTS, ids=lambda v: getattr(v, "__name__",
                                                                                  str(v)))
@pytest.mark.parametrize("setting", ["warn", "raise", "ignore"])
def test_an_exception_is_told_as_numpy_tells_it(ufunc, left, right, dtype, setting):
    info = np.finfo(dtype)
    named = {"max": info.max, "-max": -info.max, "tiny": info.tiny,
             "least": info.smallest_subnormal}
    a, b = np.ones(SIZE, dtype), np.ones(SIZE, dtype)
    a[-7], b[-7] = named.get(left, left), named.get(right, right)  # in the last chunk
    told = []
    for kernels in (_compiled.kernels, None):
        with pytest.MonkeyPatch.context() as patch, np.errstate(all=setting), \
                warnings.catch_warnings(record=True) as heard:
            patch.setattr(_compiled, "kernels", kernels)
            warnings.simplefilter("always")
            without_engine_filter()  # (which hides them from scripts: here they are compared)
            try:
                _parallel.apply(ufunc, a, b)
                told.append([str(warning.message) for warning in heard])
            except FloatingPointError as error:
                told.append(f"raised: {error}")
    assert told[0] == told[1]  # the pool's words are NumPy's, in its order
    assert bool(told[0]) == (setting != "ignore")


def without_engine_filter() -> None:
    """The filters in force, less the engine's (_quiet_warnings)."""
    warnings.filters[:] = [kept for kept in warnings.filters
                           if kept is not _quiet_warnings.ENGINE_FILTER]
    warnings._filters_mutated()


def test_the_pool_rests_for_the_python_threads_and_wakes_for_its_next_op():
    values = _awkward(np.float64, 9)
    with np.errstate(all="ignore"):
        for _ in range(5):
            _parallel.apply(np.tanh, values)  # the Python threads' op: the pool sleeps first
            np.testing.assert_array_equal(_parallel.apply(np.multiply, values, 3.0),
                                          values * 3.0)
