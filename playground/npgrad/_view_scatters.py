"""Writes that make a new tensor: select_scatter, slice_scatter and diagonal_scatter (self's
values with src where the view would look: SelectScatterBackward0...) and put / put_ (values
written or added at positions of self read as one flat row: PutBackward0)."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._formula_kit import Kit
from ._grad_mode import no_grad
from ._inplace import _inplace
from ._recording import output
from ._reductions import _scalar_type
from ._tensor import Tensor

# The view each scatter fills, as a Tensor method's call with the scatter's own arguments
_VIEWS = {
    "select_scatter": lambda t, dim, index: t.select(dim, index),
    "slice_scatter": lambda t, dim, start, end, step: t[(slice(None),) * (dim % max(t.ndim, 1))
                                                      + (slice(start, end, step),)],
    "diagonal_scatter": lambda t, offset, dim1, dim2: t.diagonal(offset, dim1, dim2),
}


def _scattered(op: str, self: Tensor, src: Tensor, args: tuple) -> Tensor:
    """A copy of self with src written into the view ``op`` names: the op's node (laid out
    in memory as self, as torch's clone keeps a dense tensor's strides)."""
    with no_grad():
        result = Tensor._make(self._data.copy(order="K"))
        target = _VIEWS[op](result, *args)
    if tuple(target.shape) != tuple(src.shape):
        raise RuntimeError("expected src to have a size equal to the slice of self. src size = "
                           f"{list(src.shape)}, slice size = {list(target.shape)}")
    target._data[...] = src._data
    return output(op, result._data, (self, src), (args,))


@binds("select_scatter")
def select_scatter(self: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    return _scattered("select_scatter", self, src, (dim, index))


@binds("slice_scatter")
def slice_scatter(self: Tensor, src: Tensor, dim: int = 0, start=None, end=None,
                  step: int = 1) -> Tensor:
    return _scattered("slice_scatter", self, src, (dim, start, end, step))


@binds("diagonal_scatter")
def diagonal_scatter(self: Tensor, src: Tensor, offset: int = 0, dim1: int = 0,
                     dim2: int = 1) -> Tensor:
    return _scattered("diagonal_scatter", self, src, (offset, dim1, dim2))


def scatter_view_grad(k, grad, op: str, args: tuple, for_self: bool):
    """torch's: self's gradient is grad with zeros scattered into the view (the same op,
    recorded under create_graph), src's the view of grad."""
    if isinstance(grad, Tensor):
        view = _VIEWS[op](grad, *args)
        if not for_self:
            return view
        return _SCATTERS[op](grad, Tensor._make(np.zeros(view._data.shape, view._data.dtype)),
                            *args)
    with no_grad():
        copy = Tensor._make(np.array(grad))
        view = _VIEWS[op](copy, *args)
        if not for_self:
            return np.array(view._data)
        view._data[...] = 0
        return copy._data


_SCATTERS = {"select_scatter": select_scatter, "slice_scatter": slice_scatter,
             "diagonal_scatter": diagonal_scatter}


def _put_values(self: Tensor, index: Tensor, source: Tensor, accumulate: bool):
    """Self's values with source written (or added) at flat positions; the positions."""
    positions = np.asarray(getattr(index, "_data", index))
    if positions.dtype != np.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got "
                           f"{_scalar_type(positions.dtype)}")
    if positions.size != source.numel():
        raise IndexError("put_(): Expected source and index to have the same number of "
                         f"elements, but got source.numel() = {source.numel()}, index.numel() "
                         f"= {positions.size}")
    size = self.numel()
    outside = (positions >= size) | (positions < -size)
    if outside.any():
        raise IndexError(f"out of range: tried to access index {int(positions[outside][0])} on "
                         f"a tensor of {size} elements.")
    positions = positions.reshape(-1) % max(size, 1)
    flat = self._data.copy().reshape(-1)
    values = source._data.reshape(-1).astype(flat.dtype, copy=False)
    if accumulate:
        np.add.at(flat, positions, values)
    else:
        flat[positions] = values
    return flat.reshape(self._data.shape), positions


@binds("put")
def put(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    data, positions = _put_values(self, index, source, accumulate)
    return output("put", data, (self, source), (positions, accumulate, tuple(source.shape)))


@binds("put_", function=False)
def put_(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    data, positions = _put_values(self, index, source, accumulate)
    return _inplace("put", self, data, source, (positions, accumulate, tuple(source.shape)))


def put_grad(k, grad, positions: np.ndarray, accumulate: bool, shape: tuple, for_self: bool):
    """torch's: self's gradient is grad (accumulated) or grad with zeros put at the
    positions; source's is grad taken at the positions, in source's shape."""
    if not for_self:
        taken = grad.reshape(-1)[positions] if not isinstance(grad, Tensor) else \
            grad.take(Tensor._make(positions))
        return taken.reshape(shape)
    if accumulate:
        return grad
    if isinstance(grad, Tensor):
        zeros = Tensor._make(np.zeros(positions.shape, grad._data.dtype))
        return grad.put(Tensor._make(positions), zeros)
    flat = np.array(grad).reshape(-1)
    flat[positions] = 0
    return flat.reshape(np.shape(grad))


Kit.scatter_view_grad, Kit.put_grad = scatter_view_grad, put_grad
