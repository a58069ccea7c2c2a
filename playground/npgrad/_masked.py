"""Masked writes and NaN-aware extremes: masked_scatter (and masked_scatter_), fmax and fmin,
with torch's nodes (MaskedScatterBackward0 and its MaskedScatterBackwardBackward0,
FmaxBackward0, FminBackward0) and their derivatives."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._formula_kit import Kit
from ._inplace import _inplace, bind_variant
from ._operands import operands
from ._recording import output
from ._reductions import _scalar_type
from ._tensor import Tensor


def _scattered(self: Tensor, mask, source: Tensor) -> tuple[np.ndarray, tuple]:
    """self's values with source's first elements written, in order, where mask is true."""
    mask_data = np.asarray(getattr(mask, "_data", mask))
    if mask_data.dtype != np.bool_:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with "
                           f"dtype {_scalar_type(mask_data.dtype)}")
    if source._data.dtype != self._data.dtype:  # (torch's message has no space after "got")
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but "
                           f"got{_scalar_type(self._data.dtype)} and "
                           f"{_scalar_type(source._data.dtype)}")
    shape = np.broadcast_shapes(self._data.shape, mask_data.shape)
    mask_data = np.broadcast_to(mask_data, shape)
    count = int(mask_data.sum())
    if source._data.size < count:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    data = np.array(np.broadcast_to(self._data, shape))
    data[mask_data] = source._data.reshape(-1)[:count]
    return data, (np.array(mask_data), tuple(source.shape))


@binds("masked_scatter")
def masked_scatter(self: Tensor, mask, source: Tensor) -> Tensor:
    data, saved = _scattered(self, mask, source)
    return output("masked_scatter", data, (self, source), saved)


def masked_scatter_(self: Tensor, mask, source: Tensor) -> Tensor:
    data, saved = _scattered(self, mask, source)
    if data.shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast "
                           f"shape {list(data.shape)}")
    return _inplace("masked_scatter", self, data, source, saved)


bind_variant("masked_scatter", masked_scatter_)


def masked_scatter_grad(k, grad, mask, shape):
    """The source's gradient: grad where the mask is true, in order, then zeros; under
    create_graph torch's masked_scatter_backward (MaskedScatterBackwardBackward0)."""
    values = np.asarray(getattr(grad, "_data", grad))
    flat = np.zeros(int(np.prod(shape)), values.dtype)
    picked = np.broadcast_to(values, mask.shape)[mask]
    flat[:picked.size] = picked
    result = flat.reshape(shape)
    if isinstance(grad, np.ndarray):
        return result
    return k._backward_of("masked_scatter_backward", result, (grad,), (mask, shape))


def masked_scatter_double(k, grad, mask):
    """masked_scatter_backward's derivative: ``grad``'s first elements scattered back into
    zeros where the mask is true."""
    if isinstance(grad, np.ndarray):
        result = np.zeros(mask.shape, grad.dtype)
        result[mask] = grad.reshape(-1)[:int(mask.sum())]
        return result
    return k._zeros(grad, mask.shape).masked_scatter(Tensor._make(mask), grad)


def _extreme(op: str, pick):
    def extreme(self: Tensor, other: Tensor) -> Tensor:
        a, b = operands(self, other)
        return output(op, pick(a, b), (self, other), (self, other))

    extreme.__name__ = extreme.__qualname__ = op
    return binds(op)(extreme)


fmax = _extreme("fmax", np.fmax)
fmin = _extreme("fmin", np.fmin)


def fmax_grad(k, grad, self, other, smaller: bool, for_self: bool):
    """fmax's (fmin's) gradient goes to self where self wins or ties or other is NaN, to
    other elsewhere: torch's masked_fill of the rest with zeros."""
    wins = (self <= other if smaller else self >= other) | k.isnan(other)
    return k.masked_fill(grad, ~wins if for_self else wins, 0)


def _isnan(k, value):
    return value.isnan() if isinstance(value, Tensor) else np.isnan(value)


for _function in (masked_scatter_grad, masked_scatter_double, fmax_grad):
    setattr(Kit, _function.__name__, _function)
Kit.isnan = _isnan
