"""``x ** number`` bit for bit as torch computes it, and its gradient, on both float types."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad import _compiled, _vml

# torch multiplies or divides for these: npgrad gives the same bits (torch's ``x ** 0.5`` is
# its sqrt, which is not always NumPy's correctly rounded one: npgrad's sqrt and ``** 0.5`` agree)
EXACT = [2, 3, -1, -2, -0.5, 1, 0, 3.0]
DTYPES = ["float32", "float64"]


def _torchs_own_powers() -> bool:
    """Whether the engine computes powers as torch's loop does, bit for bit: Sleef's pow from
    torch's library on its vector body and the C library's on the rest (all of it under
    ATEN_CPU_CAPABILITY=default), both called by the C module."""
    return _vml.torch_library() is not None and _compiled.kernels is not None


def _pair(torch, engine, dtype_name, positive: bool, grad: bool = False):
    values = torch.linspace(-3, 3, 2001, dtype=getattr(torch, dtype_name))
    if positive:
        values = values.abs() + 0.1
    return (values.clone().requires_grad_(grad),
            engine.tensor(values.numpy(), requires_grad=grad))


@pytest.mark.parametrize("dtype_name", DTYPES)
@pytest.mark.parametrize("exponent", EXACT, ids=str)
def test_powers_torch_computes_by_multiplying_are_bitwise_equal(exponent, dtype_name, torch,
                                                                engine):
    expected, given = _pair(torch, engine, dtype_name, positive=exponent == -0.5)
    np.testing.assert_array_equal((given ** exponent).numpy(), (expected ** exponent).numpy())
    assert (given ** exponent).dtype.name == dtype_name


def test_a_half_power_is_the_engines_square_root(engine):
    values = engine.linspace(0.1, 3, 2001)
    assert engine.equal(values ** 0.5, values.sqrt())


@pytest.mark.parametrize("exponent", [3, 4])
def test_their_gradients_are_too(exponent, torch, engine):
    expected, given = _pair(torch, engine, "float32", positive=False, grad=True)
    (expected ** exponent).sum().backward()
    (given ** exponent).sum().backward()
    np.testing.assert_array_equal(given.grad.numpy(), expected.grad.numpy())


@pytest.mark.parametrize("exponent", [4, 5, 7, -3, -4, 12, 1.5, -2.5, 0.3])
def test_other_powers_are_torchs(exponent, torch, engine):
    """torch's vector loop takes Sleef's pow, its scalar tail the C library's: the same bits
    where torch's library is here to call Sleef in (_vml.sleef_binary); else each power
    rounded once (a whole one multiplied out in float64), torch's within an ulp."""
    for dtype_name in DTYPES:
        expected, given = _pair(torch, engine, dtype_name, positive=not float(exponent)
                                .is_integer())
        result, wanted = (given ** exponent).numpy(), (expected ** exponent).numpy()
        if _torchs_own_powers():
            np.testing.assert_array_equal(result, wanted)
        else:
            np.testing.assert_allclose(result, wanted, rtol=2.5e-7 if dtype_name == "float32"
                                       else 5e-16)


def test_powers_keep_torchs_special_values(torch, engine):
    """Zeros (with their sign), infinities and NaNs exactly as torch's; finite results within
    an ulp: torch's float32 square root is not correctly rounded on every CPU (3e38 ** 0.5 is
    the correctly rounded root on one AVX-512 machine and its neighbour on another)."""
    values = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), 1e-30, 3e38]
    for exponent in (-3, -2, -1, 2, 3, 4, 0.5, -0.5):
        expected = (torch.tensor(values) ** exponent).numpy()
        given = (engine.tensor(values) ** exponent).numpy()
        special = ~np.isfinite(expected) | (expected == 0)
        np.testing.assert_array_equal(given[special], expected[special], err_msg=str(exponent))
        signed = special & ~np.isnan(expected)  # a NaN's sign bit means nothing
        assert np.array_equal(np.signbit(given[signed]), np.signbit(expected[signed]))
        np.testing.assert_array_max_ulp(given[~special], expected[~special], maxulp=1)


@pytest.mark.parametrize("shape", [(1,), (15,), (16,), (17,), (33,), (3, 7), (2, 5, 13)])
def test_tensor_exponents_and_number_bases_are_torchs_at_every_length(shape, torch, engine):
    """A tensor to a tensor's powers and a number to a tensor's, over lengths with and without
    a scalar tail after torch's vector body (16 float32 under AVX2): Sleef's pow on the body,
    the C library's on the tail; each power rounded once where Sleef cannot be called."""
    generator = np.random.default_rng(len(shape) * 100 + shape[-1])
    for dtype in (np.float32, np.float64):
        bases = generator.uniform(0.1, 3.0, shape).astype(dtype)
        exponents = generator.uniform(-3.0, 3.0, shape).astype(dtype)
        pairs = [((torch.tensor(bases) ** torch.tensor(exponents)).numpy(),
                  (engine.tensor(bases) ** engine.tensor(exponents)).numpy()),
                 ((2.5 ** torch.tensor(exponents)).numpy(),
                  (2.5 ** engine.tensor(exponents)).numpy())]
        for wanted, result in pairs:
            if _torchs_own_powers():
                np.testing.assert_array_equal(result, wanted)
            else:
                np.testing.assert_array_max_ulp(result, wanted, maxulp=1)


@pytest.mark.parametrize("exponent", [0.5, 0.3, 4, -2.5])
def test_powers_in_place_are_torchs_kernel_too(exponent, torch, engine):
    """``x.pow_(number)`` runs torch's x ** number kernel (its square root for 0.5, its tail's
    pow in double for the rest): the bits of ``x ** number``."""
    for dtype_name in DTYPES:
        expected, given = _pair(torch, engine, dtype_name, positive=True)
        wanted = (expected ** exponent).numpy()
        result = given.clone().pow_(exponent).numpy()
        np.testing.assert_array_equal(result, (given ** exponent).numpy())
        if _torchs_own_powers():
            np.testing.assert_array_equal(result, wanted)
        else:
            np.testing.assert_array_max_ulp(result, wanted, maxulp=1)
