"""The float32 fused multiply-add (torch's add(alpha=), lerp and addcmul kernels round
a * b + c once): the C kernel and its NumPy twin give the same bits, ties, subnormals,
infinities and signed zeros included (a NaN is a NaN: its sign bit and payload, which
nothing prints, may differ), and both are the correctly rounded result."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad import _compiled, _numerics

HARD = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1.1754942e-38,
                 3.4028235e38, -3.4028235e38, 1 + 2 ** -23, 1 - 2 ** -24, 2 ** -12, 3.0,
                 0.1, 1e-20], np.float32)


def _triples(count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random operands, every combination of the hard values, and products near halfway
    between two floats (a tie the twin must break as the FMA instruction does)."""
    rng = np.random.default_rng(seed)
    a, b, c = (rng.normal(size=count).astype(np.float32) * 4 for _ in range(3))
    grid = np.array(np.meshgrid(HARD, HARD, HARD)).reshape(3, -1).astype(np.float32)
    halves = np.float32(1 + 2 ** -12) * np.ones(64, np.float32)
    ties = (halves, halves, -np.float32(1) * np.ones(64, np.float32))
    return tuple(np.concatenate([x, g, t]) for x, g, t in zip((a, b, c), grid, ties,
                                                                strict=True))


def _same_bits(x: np.ndarray, y: np.ndarray) -> bool:
    nan = np.isnan(x)
    return np.array_equal(nan, np.isnan(y)) and \
        np.array_equal(x[~nan].view(np.uint32), y[~nan].view(np.uint32))


def _exact(a, b, c) -> np.ndarray:
    """The correctly rounded a * b + c (finite cases): exact rational arithmetic, rounded
    to the nearest float32, ties to the even one (not through a float64: that would round
    twice)."""
    from fractions import Fraction

    def nearest(value: Fraction) -> np.float32:
        guess = np.float32(float(value))
        around = [np.nextafter(guess, np.float32(-np.inf)), guess,
                  np.nextafter(guess, np.float32(np.inf))]
        return min((f for f in around if np.isfinite(f)),
                   key=lambda f: (abs(Fraction(float(f)) - value),
                                  int(np.asarray(f).view(np.uint32)) & 1))

    return np.array([nearest(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
                     for x, y, z in zip(a, b, c, strict=True)], np.float32)


@pytest.fixture
def kernels():
    if _compiled.kernels is None:
        pytest.skip("the C kernels were not built here (no C compiler at install)")
    return _compiled.kernels


def test_the_c_kernel_and_its_twin_agree_bit_for_bit(kernels):
    a, b, c = _triples(5000, seed=1)
    with np.errstate(all="ignore"):
        twin = _numerics.fused_multiply_add_float32_twin(a, b, c)
        compiled = _numerics.fused_multiply_add_float32(a, b, c)
    assert _same_bits(twin, compiled)


@pytest.mark.parametrize("shapes", [((), (7,), (7,)), ((7,), (), (7,)), ((7,), (7,), ()),
                                    ((), (), ()), ((2, 3), (1,), (2, 3)), ((1, 1), (3,), ()),
                                    ((3, 1), (1, 4), (4,)), ((0,), (), (0,))])
def test_numbers_and_arrays_of_any_shape_give_the_twins_result(shapes, kernels):
    rng = np.random.default_rng(len(shapes[0]))
    a, b, c = (rng.normal(size=shape).astype(np.float32) for shape in shapes)
    compiled = _numerics.fused_multiply_add_float32(a, b, c)
    twin = _numerics.fused_multiply_add_float32_twin(a, b, c)
    assert compiled.shape == twin.shape and compiled.dtype == np.float32
    assert _same_bits(compiled, twin)


def test_python_numbers_and_float64_operands_are_taken_as_float32(kernels):
    values = np.arange(5, dtype=np.float32) / 3
    for a, b, c in ((values, 0.1, values), (0.1, values.astype(np.float64), 1e-9)):
        compiled = _numerics.fused_multiply_add_float32(a, b, c)
        twin = _numerics.fused_multiply_add_float32_twin(a, b, c)
        assert _same_bits(compiled, twin)


@pytest.mark.parametrize("twin", [True, False], ids=["numpy twin", "c kernel"])
def test_the_result_is_rounded_once(twin, monkeypatch):
    if twin:
        monkeypatch.setattr(_compiled, "kernels", None)
    elif _compiled.kernels is None:
        pytest.skip("the C kernels were not built here (no C compiler at install)")
    a, b, c = _triples(2000, seed=2)
    with np.errstate(all="ignore"):
        wide = a.astype(np.float64) * b
        finite = np.isfinite(a) & np.isfinite(b) & np.isfinite(c) & (np.abs(wide) < 1e38) & \
            (np.abs(wide + c) < 1e38)  # (past float32's largest, the sum rounds to infinity)
    a, b, c = a[finite], b[finite], c[finite]
    got = _numerics.fused_multiply_add_float32(a, b, c)
    assert np.array_equal(got, _exact(a, b, c))  # (an exact zero's sign: the test above)
