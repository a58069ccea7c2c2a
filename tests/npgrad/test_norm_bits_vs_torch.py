"""float32 layer and group norms bit for bit as torch's CPU kernels compute them (the row
moments of _moments.py), against torch run here: every width from 1 to 40 (the leftover
elements alone, one vector and some), chunk boundaries and model widths, with and without
weight and bias. Where torch runs other kernels (ATEN_CPU_CAPABILITY=default) within its
rounding. The C kernel and its NumPy twin give the same bits."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as npgrad
from playground.npgrad import _compiled
from playground.npgrad._moments import layer_norm_float32, rowwise_moments
from tests.oracle import assert_torchs_bits

torch = pytest.importorskip("torch")

WIDTHS = [*range(1, 41), 63, 64, 127, 128, 129, 256, 300, 512, 768, 1000, 1024, 4096]
AFFINE = ["none", "weight and bias", "weight", "bias"]


def _affine(kind: str, shape, seed: int) -> tuple:
    generator = torch.Generator().manual_seed(seed)
    weight = torch.randn(shape, generator=generator) if "weight" in kind else None
    bias = torch.randn(shape, generator=generator) if "bias" in kind else None
    return weight, bias


def _mine(value):
    return None if value is None else npgrad.tensor(value.numpy())


@pytest.mark.parametrize("affine", AFFINE)
@pytest.mark.parametrize("width", WIDTHS)
def test_layer_norm_as_torch(width: int, affine: str) -> None:
    x = torch.randn(6, width, generator=torch.Generator().manual_seed(width)) * 2 - 0.5
    weight, bias = _affine(affine, (width,), width + 1)
    theirs = torch.nn.functional.layer_norm(x, (width,), weight, bias)
    mine = npgrad.nn.functional.layer_norm(npgrad.tensor(x.numpy()), (width,), _mine(weight),
                                           _mine(bias))
    assert_torchs_bits(mine.numpy(), theirs.numpy(), torch, rtol=1e-5, atol=1e-6)


def test_layer_norm_over_several_dimensions_as_torch() -> None:
    x = torch.randn(3, 4, 5, 33, generator=torch.Generator().manual_seed(2))
    weight, bias = _affine("weight and bias", (5, 33), 3)
    theirs = torch.nn.LayerNorm((5, 33))
    with torch.no_grad():
        theirs.weight.copy_(weight)
        theirs.bias.copy_(bias)
    mine = npgrad.nn.LayerNorm((5, 33))
    mine.load_state_dict({name: npgrad.tensor(value.numpy())
                          for name, value in theirs.state_dict().items()})
    assert_torchs_bits(mine(npgrad.tensor(x.numpy())).detach().numpy(),
                       theirs(x).detach().numpy(), torch, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("affine", AFFINE)
@pytest.mark.parametrize("shape, groups", [((2, 4, 3), 2), ((3, 6, 5, 5), 3), ((2, 8, 7), 4),
                                           ((4, 32, 16, 16), 8), ((2, 4, 3), 1), ((2, 4, 3), 4),
                                           ((2, 6, 50), 2)])
def test_group_norm_as_torch(shape: tuple, groups: int, affine: str) -> None:
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape)))
    weight, bias = _affine(affine, (shape[1],), groups)
    theirs = torch.nn.functional.group_norm(x, groups, weight, bias)
    mine = npgrad.nn.functional.group_norm(npgrad.tensor(x.numpy()), groups, _mine(weight),
                                           _mine(bias))
    assert_torchs_bits(mine.numpy(), theirs.numpy(), torch, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("width", [*range(1, 20), 100, 129, 300, 1000, 2056, 5000])
def test_the_twin_gives_the_kernels_bits(width: int, monkeypatch) -> None:
    """The C kernels (_row_moments.c) and the NumPy twin take the same steps: the same row
    moments and layer norms, in all four affine cases, for rows of any width."""
    if _compiled.kernels is None:
        pytest.skip("the C kernels were not built here")
    rng = np.random.default_rng(width)
    rows = (rng.standard_normal((9, width)) * 30 + 7).astype(np.float32)
    weight, bias = rng.standard_normal((2, width)).astype(np.float32)
    cases = [(rows.reshape(3, 3, width), width, None, None), (rows, width, weight, None),
             (rows, width, None, bias), (rows, width, weight, bias)]
    compiled = [rowwise_moments(rows)] + [layer_norm_float32(*case, 1e-5) for case in cases]
    monkeypatch.setattr(_compiled, "kernels", None)
    twin = [rowwise_moments(rows)] + [layer_norm_float32(*case, 1e-5) for case in cases]
    for mine, theirs in zip(compiled, twin, strict=True):
        for part, twins_part in zip(mine, theirs, strict=True):
            np.testing.assert_array_equal(part, twins_part)


def test_float64_and_mixed_dtypes_within_torchs_rounding() -> None:
    """torch's float64 kernel and a float64 weight on float32 rows are not reproduced bit for
    bit: they stay within rounding."""
    x = torch.randn(4, 50, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
    theirs = torch.nn.functional.layer_norm(x, (50,))
    mine = npgrad.nn.functional.layer_norm(npgrad.tensor(x.numpy()), (50,))
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-12, atol=1e-12)
