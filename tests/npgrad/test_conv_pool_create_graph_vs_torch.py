"""A create_graph backward through conv2d and max_pool2d records torch's nodes, and their
second derivatives match torch's."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg

torch = pytest.importorskip("torch")


def _normal(t, seed, size, dtype):
    """The same normal numbers for both engines (torch's own randn differs by CPU kernel)."""
    values = np.random.default_rng(seed).standard_normal(size)
    return t.tensor(values, dtype=dtype, requires_grad=True)


def _pool_second_order(t, dtype):
    x = _normal(t, 3, (2, 3, 6, 7), dtype)
    pooled = t.nn.functional.max_pool2d(x, 2, stride=2, padding=1)
    (grad,) = t.autograd.grad((pooled**3).sum(), x, create_graph=True)
    grad.pow(2).sum().backward()
    return grad, x.grad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_pool2d_second_derivative_matches_torch(dtype):
    mine = _pool_second_order(pg, getattr(pg, dtype))
    theirs = _pool_second_order(torch, getattr(torch, dtype))
    assert mine[0].grad_fn.name() == theirs[0].grad_fn.name() == \
        "MaxPool2DWithIndicesBackwardBackward0"
    for a, b in zip(mine, theirs, strict=True):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-6)


def _conv_second_order(t, dtype, stride, padding, dilation):
    x = _normal(t, 0, (2, 2, 7, 6), dtype)
    w = _normal(t, 1, (3, 2, 3, 2), dtype)
    b = _normal(t, 2, (3,), dtype)
    y = t.nn.functional.conv2d(x, w, b, stride=stride, padding=padding, dilation=dilation)
    gx, gw = t.autograd.grad((y**3).sum(), (x, w), create_graph=True)
    (gx.pow(2).sum() + (gw * gw.detach()).sum()).backward()
    return gx, gw, x.grad, w.grad, b.grad


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("stride, padding, dilation", [(1, 0, 1), ((2, 1), 1, 1), (1, 2, 2)])
def test_conv2d_second_derivatives_match_torch(dtype, stride, padding, dilation):
    mine = _conv_second_order(pg, getattr(pg, dtype), stride, padding, dilation)
    theirs = _conv_second_order(torch, getattr(torch, dtype), stride, padding, dilation)
    assert mine[0].grad_fn.name() == theirs[0].grad_fn.name() == "ConvolutionBackwardBackward0"
    assert mine[1].grad_fn.name() == theirs[1].grad_fn.name()
    for a, b in zip(mine, theirs, strict=True):
        want = b.detach().numpy()
        # float32: the sums of cubes reach 10^6 and cancel to 10^2 in places, so the noise
        # of either engine's summation order (torch's AVX2 and AVX-512 kernels differ too) is
        # a millionth of the array's largest value, not of each element
        noise = 1e-6 * float(np.abs(want).max()) if dtype == "float32" else 0.0
        np.testing.assert_allclose(a.detach().numpy(), want,
                                   rtol=1e-4 if dtype == "float32" else 1e-10,
                                   atol=max(1e-3, noise))
