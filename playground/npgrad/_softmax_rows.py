"""log_softmax of float32 rows along their last dimension, and its gradient, in one call of
the C module (_softmax_rows.c) where it is built and torch runs its vector code: the bits of
the NumPy steps it stands in for (``_summation_order.softmax_values`` with ``row_exp`` and
``softmax_log``; ``Kit.log_softmax_grad``), which took a classifier's few rows some 40 µs a
step. Each function answers None where it cannot, and the caller takes those steps."""

from __future__ import annotations

import numpy as np

from . import _compiled, _kernel_exp
from ._summation_order import SOFTMAX_LANES
from ._vml import sleef_function

_F32 = np.dtype(np.float32)


def _rows_here(data: np.ndarray, dim: int) -> bool:
    """Whether the C module takes ``data``'s rows along ``dim``: float32, the last dimension,
    something in them, and torch's vector code (Sleef's e^x, lanes of 8 or 16), as ``row_exp``
    read it."""
    return _compiled.kernels is not None and data.dtype == _F32 and data.ndim >= 1 and \
        dim == data.ndim - 1 and data.size > 0 and _kernel_exp._VECTOR_FLOATS > 1 and \
        SOFTMAX_LANES[_F32] in (8, 16)


def log_softmax_rows(data: np.ndarray, dim: int) -> np.ndarray | None:
    """log_softmax of ``data`` along ``dim`` (see the module), or None."""
    if not _rows_here(data, dim):
        return None
    log = sleef_function("log", _F32)
    if log is None:
        return None
    rows = np.ascontiguousarray(data)
    out = np.empty_like(rows)
    if not _compiled.kernels.log_softmax_rows_f32(rows, data.shape[-1], SOFTMAX_LANES[_F32],
                                                  *log, out):
        return None
    return out


def log_softmax_grad_rows(grad: np.ndarray, result: np.ndarray, dim: int
                          ) -> np.ndarray | None:
    """log_softmax's gradient, grad - e^result Σ grad along ``dim`` (see the module), or
    None."""
    if not _rows_here(result, dim) or grad.dtype != _F32 or grad.shape != result.shape:
        return None
    out = np.empty(result.shape, _F32)
    _compiled.kernels.log_softmax_grad_rows_f32(
        np.ascontiguousarray(grad), np.ascontiguousarray(result), result.shape[-1],
        SOFTMAX_LANES[_F32], out)
    return out
