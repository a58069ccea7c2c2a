"""GELU's float32 bits against torch run here: oneDNN's kernels (torch's for a contiguous
tensor of two or more elements, forward and gradient) bit for bit, on this CPU's code and on
oneDNN's AVX2 code (chosen by ONEDNN_MAX_CPU_ISA in a fresh torch); ATen's (one element,
oneDNN switched off) within the C library's erf's last bit, and strided layouts within 1e-5."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import playground.npgrad as npgrad

torch = pytest.importorskip("torch")

SPECIAL = [-2.9972641, -5.541384, 0.0, -0.0, 1e-30, -1e-40, 6.0, -6.0, float("inf"),
           float("-inf"), float("nan"), 5.5426, -5.5426, -20.0, -100.0, 1.0, -1.0]


def _inputs() -> list[np.ndarray]:
    generator = np.random.default_rng(7)
    arrays = [(generator.standard_normal(size) * 3).astype(np.float32)
              for size in (2, 7, 40, 1000, 100_000)]
    arrays.append(np.linspace(-10, 10, 200_001, dtype=np.float32))
    arrays.append(np.array(SPECIAL, np.float32))
    arrays.append((generator.standard_normal((4, 3, 5)) * 2).astype(np.float32))
    return arrays


def _ours(values: np.ndarray, view=lambda t: t) -> np.ndarray:
    return npgrad.nn.functional.gelu(view(npgrad.tensor(values))).numpy()


def _torchs(values: np.ndarray, view=lambda t: t) -> np.ndarray:
    return torch.nn.functional.gelu(view(torch.from_numpy(values))).numpy()


def _ulps(a: np.ndarray, b: np.ndarray) -> int:
    """The largest distance in float32 steps (NaNs must sit at the same places)."""
    assert np.array_equal(np.isnan(a), np.isnan(b))
    a, b = a[~np.isnan(a)], b[~np.isnan(b)]
    ordered = [np.where(x.view(np.int32) < 0, np.int64(-2**31) - x.view(np.int32),
                        x.view(np.int32)).astype(np.int64) for x in (a, b)]
    return int(np.abs(ordered[0] - ordered[1]).max(initial=0))


def test_contiguous_tensors_have_onednns_bits():
    for values in _inputs():
        ours, torchs = _ours(values), _torchs(values)
        assert ours.tobytes() == torchs.tobytes(), values.size


def _gradients(values: np.ndarray, module) -> np.ndarray:
    """gelu's gradient at ``values`` for an upstream gradient of cos(values)."""
    x = module.tensor(values, requires_grad=True)
    module.nn.functional.gelu(x).backward(module.tensor(np.cos(values)))
    return x.grad.numpy()


def test_gradients_have_onednns_bits():
    for values in _inputs():
        assert _gradients(values, npgrad).tobytes() == _gradients(values, torch).tobytes()


def test_onednns_avx2_code_too():
    """oneDNN capped at AVX2 in a fresh process: the engine, told the same, agrees."""
    script = (
        "import numpy as np\n"
        "from tests.npgrad.test_gelu_bits_vs_torch import _inputs, _ours, _torchs, "
        "test_gradients_have_onednns_bits\n"
        "print(sum(_ours(v).tobytes() != _torchs(v).tobytes() for v in _inputs()))\n"
        "test_gradients_have_onednns_bits()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "ONEDNN_MAX_CPU_ISA": "AVX2"},
                          cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0"


def test_one_element_within_the_c_librarys_erf():
    for values in _inputs()[:5]:
        assert _ulps(_ours(values, lambda t: t[:1]), _torchs(values, lambda t: t[:1])) <= 1


@pytest.mark.parametrize("view", [lambda t: t[::2], lambda t: t.reshape(-1, 1).expand(-1, 2)],
                         ids=["strided", "expanded"])
def test_other_layouts_near_torch(view):
    """ATen's loop over a strided or broadcast input mixes its vector erf and the C
    library's by layout, which the engine does not follow: a few float32 steps apart."""
    for values in _inputs()[:5]:
        ours, torchs = _ours(values, view), _torchs(values, view)
        assert np.allclose(ours, torchs, rtol=1e-5, atol=1e-7)


def test_onednn_switched_off():
    kept = npgrad.backends.mkldnn.enabled
    npgrad.backends.mkldnn.enabled = False
    try:
        with torch.backends.mkldnn.flags(enabled=False):
            for values in _inputs()[:4]:
                assert _ulps(_ours(values), _torchs(values)) <= 1
    finally:
        npgrad.backends.mkldnn.enabled = kept
