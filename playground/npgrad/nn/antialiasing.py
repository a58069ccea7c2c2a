"""F.interpolate(..., antialias=True) of an image, bilinear or bicubic: each output pixel a
normalised, separable filter over the input pixels its footprint covers (the filter widened by
the scale when shrinking, as torch's and PIL's resampling do), one node with torch's name
(UpsampleBilinear2DAaBackward0, UpsampleBicubic2DAaBackward0). Each axis is a weight matrix
(outputs × inputs) in float64; the image is filtered along its width, then its height."""

from __future__ import annotations

import numpy as np

from .. import _recording
from .._tensor import Tensor

_SUPPORT = {"bilinear": 1.0, "bicubic": 2.0}  # the filter's half width at scale 1
_AA_CUBIC_A = -0.5  # torch's antialiased bicubic filter (Keys' a, as PIL's)


def _triangle(x: np.ndarray) -> np.ndarray:
    x = np.abs(x)
    return np.where(x < 1, 1 - x, 0.0)


def _cubic(x: np.ndarray) -> np.ndarray:
    a, x = _AA_CUBIC_A, np.abs(x)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far = ((x - 5) * x + 8) * x * a - 4 * a
    return np.where(x < 1, near, np.where(x < 2, far, 0.0))


def filter_weights(size_in: int, size_out: int, scale, mode: str, align_corners) -> np.ndarray:
    """The (size_out, size_in) matrix of each output pixel's normalised input weights."""
    if align_corners:
        ratio = (size_in - 1) / (size_out - 1) if size_out > 1 else 0.0
    else:
        ratio = 1 / scale if scale else size_in / size_out
    support = _SUPPORT[mode] * ratio if ratio >= 1 else _SUPPORT[mode]
    stretch = 1 / ratio if ratio >= 1 else 1.0
    kernel = _triangle if mode == "bilinear" else _cubic
    weights = np.zeros((size_out, size_in))
    for out in range(size_out):
        centre = ratio * (out + 0.5)
        first = max(int(centre - support + 0.5), 0)
        last = min(int(centre + support + 0.5), size_in)
        taps = kernel((np.arange(first, last) - centre + 0.5) * stretch)
        total = taps.sum()
        weights[out, first:last] = taps / total if total != 0 else taps
    return weights


def interpolate_antialiased(input: Tensor, out: tuple, scales: tuple, mode: str,
                            align_corners) -> Tensor:
    rows, columns = (filter_weights(n_in, n_out, scale, mode, align_corners)
                     for n_in, n_out, scale in zip(input.shape[2:], out, scales, strict=True))
    return antialiased(None, input, rows, columns, mode)


def antialiased(k, input, rows, columns, mode: str):
    """The forward (a tensor recorded as torch's node, or an array): also the derivative of
    its own backward."""
    data = getattr(input, "_data", input)
    values = _filtered(data, rows, columns).astype(data.dtype)
    if not isinstance(input, Tensor):
        return values
    return _recording.output(f"upsample_{mode}2d_aa", values, (input,),
                             (input.shape, rows, columns, mode))


def _filtered(data: np.ndarray, rows: np.ndarray, columns: np.ndarray) -> np.ndarray:
    wide = np.matmul(data.astype(np.float64), columns.T)
    return np.ascontiguousarray(np.matmul(rows, wide))


def antialiased_grad(k, grad, shape, rows, columns, mode: str):
    """Each output's gradient spread back over its footprint (the filters' transpose); under
    create_graph torch's Upsample...AaBackwardBackward0, which filters again."""
    data = getattr(grad, "_data", grad)
    values = _filtered(data, rows.T, columns.T).astype(data.dtype)
    return k._backward_of(f"upsample_{mode}2d_aa_backward", values, (grad,),
                          (rows, columns, mode))


def _register() -> None:
    from .._formula_kit import Kit

    Kit.antialiased, Kit.antialiased_grad = antialiased, antialiased_grad


_register()
