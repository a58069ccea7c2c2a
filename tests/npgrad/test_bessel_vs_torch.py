"""torch.special's Bessel functions against torch, run here: the same values to float32's
last digits (torch's float64 J and Y are its rational approximations, off the true values by
up to 3e-8; ours are closer, so the two agree to that), results that never require grad, and
torch's values at 0, below 0 and far out."""

from __future__ import annotations

import numpy as np
import pytest

NAMES = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
         "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
         "scaled_modified_bessel_k0", "scaled_modified_bessel_k1", "spherical_bessel_j0"]
POINTS = [-7.5, -1.0, 0.0, 1e-4, 0.2, 0.9, 1.0, 1.7, 3.3, 5.0, 9.9, 16.5, 17.5, 24.0, 60.0,
          250.0, float("inf"), float("nan")]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", NAMES)
def test_bessel_functions_give_torchs_values(name, dtype):
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    theirs = getattr(torch.special, name)(torch.tensor(POINTS, dtype=getattr(torch, dtype),
                                                       requires_grad=True))
    ours = getattr(npgrad.special, name)(npgrad.tensor(POINTS, dtype=getattr(npgrad, dtype),
                                                       requires_grad=True))
    assert (ours.requires_grad, ours.grad_fn, ours.dtype.is_floating_point) == \
        (theirs.requires_grad, None, True)
    expected, got = theirs.detach().numpy(), ours.numpy()
    assert got.dtype == expected.dtype
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    assert np.array_equal(np.isinf(got), np.isinf(expected))
    finite = np.isfinite(expected)
    # float32: a few units in the last place (of 0.05 near a zero), more far out, where
    # torch's float32 phase x - π/4 carries x's rounding; float64: torch's own error
    points = np.abs(np.array(POINTS))[finite]
    allowed = 4e-7 * np.maximum(np.abs(expected[finite]), 0.05) * np.maximum(points, 1) \
        if dtype == "float32" else 3e-8 * np.maximum(np.abs(expected[finite]), 1)
    np.testing.assert_array_less(np.abs(got[finite] - expected[finite]), allowed + 1e-300)


def test_bessel_functions_take_integers_and_out():
    import playground.npgrad as npgrad

    torch = pytest.importorskip("torch")
    for module in (npgrad, torch):
        out = module.empty(0)
        result = module.special.bessel_j0(module.tensor([0, 1, 2]), out=out)
        assert result is out and out.dtype == module.float32 and out.shape == (3,)
    assert np.allclose(npgrad.special.bessel_j0(npgrad.tensor([0, 1, 2])).numpy(),
                       torch.special.bessel_j0(torch.tensor([0, 1, 2])).numpy(), rtol=1e-6)
