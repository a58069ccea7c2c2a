"""``add``/``sub`` with ``alpha`` round as torch's CPU kernels do: ``a + alpha * b`` is one
fused multiply-add (an optimizer's ``p.add_(grad, alpha=-lr)`` included), bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("size", [(), (1,), (7,), (2000,), (3, 40)])
def test_alpha_is_fused_as_torch(dtype, size):
    rng = np.random.default_rng(len(size) * 31 + sum(size))
    for alpha in (0.3, -1e-3, 2.5):
        a = rng.standard_normal(size).astype(dtype)
        b = rng.standard_normal(size).astype(dtype)
        for op in ("add", "sub"):
            theirs = getattr(torch.from_numpy(a.copy()), op)(torch.from_numpy(b), alpha=alpha)
            mine = getattr(pg.tensor(a.copy()), op)(pg.tensor(b), alpha=alpha)
            assert np.array_equal(mine.numpy(), theirs.numpy()), (op, alpha)
            theirs = getattr(torch.from_numpy(a.copy()), op + "_")(torch.from_numpy(b),
                                                                   alpha=alpha)
            mine = getattr(pg.tensor(a.copy()), op + "_")(pg.tensor(b), alpha=alpha)
            assert np.array_equal(mine.numpy(), theirs.numpy()), (op + "_", alpha)


def test_sgd_with_momentum_steps_exactly_as_torch():
    """Scalar parameters fitted to a parabola, 200 steps of SGD with momentum and weight
    decay, bit for bit (no matrix product: BLAS libraries order their sums differently; no
    sine: torch's float32 sin is a vectorised approximation)."""
    def train(t):
        t.manual_seed(0)
        x = t.linspace(-3.0, 3.0, 500)
        target = x * 0.5 - 0.25 * x**2
        weights = [t.randn((), requires_grad=True) for _ in range(4)]
        optimizer = t.optim.SGD(weights, lr=1e-5, momentum=0.9, weight_decay=1e-3)
        for _ in range(200):
            a, b, c, d = weights
            prediction = a + b * x + c * x**2 + d * x**3
            loss = ((prediction - target) ** 2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return [w.detach().numpy() for w in weights] + [loss.detach().numpy()]

    for mine, theirs in zip(train(pg), train(torch), strict=True):
        assert np.array_equal(mine, theirs)
