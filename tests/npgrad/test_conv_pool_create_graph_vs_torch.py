"""A create_graph backward through conv2d and max_pool2d records torch's nodes: max_pool2d's
second derivative matches torch's; the convolution's says plainly that the engine lacks it."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg

torch = pytest.importorskip("torch")


def _pool_second_order(t, dtype):
    t.manual_seed(3)
    x = t.randn(2, 3, 6, 7, dtype=dtype, requires_grad=True)
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


def test_conv2d_create_graph_records_torchs_node_and_names_what_is_missing():
    def first_order(t):
        t.manual_seed(0)
        x = t.randn(1, 2, 5, 5, requires_grad=True)
        w = t.randn(3, 2, 3, 3, requires_grad=True)
        (grad,) = t.autograd.grad((t.nn.functional.conv2d(x, w, padding=1) ** 2).sum(), x,
                                  create_graph=True)
        return grad

    mine, theirs = first_order(pg), first_order(torch)
    assert mine.grad_fn.name() == theirs.grad_fn.name() == "ConvolutionBackwardBackward0"
    np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-5)
    with pytest.raises(RuntimeError, match="switch the engine to torch"):
        mine.pow(2).sum().backward()
