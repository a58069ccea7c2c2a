"""softmax and log_softmax of float32 rows along the last dimension, and cross_entropy over
them, against torch live where torch runs its AVX-512 kernels: their e^x is Sleef's expf for
every element of a row (a row's tail goes through the vector code as a partial vector), so
softmax's and cross_entropy's values are torch's bit for bit. What is left is in some rows'
sums (log_softmax's values by one ulp in 4% of rows; the gradients of softmax over a single
row, of log_softmax and of cross_entropy by a few ulps, or 4e-7 where a 1000-long sum cancels):
those are held to float32's noise here."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg
from playground.npgrad._kernel_exp import vector_floats
from tests.oracle import kernels_reproduced

torch = pytest.importorskip("torch")

EXACT = ("softmax", "cross_entropy")
NAMES = ("log_softmax", "log_softmax's gradient", "softmax", "softmax's gradient",
         "cross_entropy", "cross_entropy's gradient")


def _outputs(module, x: np.ndarray, g: np.ndarray, y: np.ndarray) -> list[np.ndarray]:
    functional = module.nn.functional
    found = []
    for make in (lambda t: functional.log_softmax(t, -1), lambda t: module.softmax(t, -1)):
        t = module.tensor(x, requires_grad=True)
        out = make(t)
        out.backward(module.tensor(g))
        found += [out.detach().numpy(), t.grad.numpy()]
    t = module.tensor(x, requires_grad=True)
    loss = functional.cross_entropy(t, module.tensor(y))
    loss.backward()
    return [*found, loss.detach().numpy(), t.grad.numpy()]


def test_float32_rows_hold_torchs_bits():
    if not kernels_reproduced(torch) or vector_floats() != 16:
        pytest.skip("torch's bits where it runs its AVX-512 kernels (AVX2's exp is its own)")
    for classes in [*range(1, 70), 100, 127, 128, 129, 1000]:
        for rows in (1, 3, 8):
            rng = np.random.default_rng(classes * 7 + rows)
            x = (rng.normal(size=(rows, classes)) * 3).astype(np.float32)
            g = rng.normal(size=x.shape).astype(np.float32)
            y = rng.integers(0, classes, rows)
            for name, mine, theirs in zip(NAMES, _outputs(pg, x, g, y),
                                          _outputs(torch, x, g, y), strict=True):
                if name in EXACT:
                    np.testing.assert_array_equal(mine, theirs, err_msg=f"{name} {x.shape}")
                else:
                    np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6,
                                               err_msg=f"{name} {x.shape}")
