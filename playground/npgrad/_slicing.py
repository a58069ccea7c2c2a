"""Views that cut a tensor into pieces: narrow, unbind, unsafe_split/unsafe_chunk (one node
with an output per piece) and unfold (overlapping windows as a new dimension)."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._recording import output
from ._shapes import _pieces, sliced, views_along
from ._tensor import Tensor, _wrap_dim, shared_counter


@binds("narrow")
def narrow(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    if not self.ndim:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, self.ndim)
    return sliced(self, dim, start, start + length, 1)


@binds("unbind")
def unbind(self: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    """Each slice along ``dim`` as a view, all outputs of one UnbindBackward0 node."""
    if not self.ndim:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    dim = _wrap_dim(dim, self.ndim)
    return views_along(self, list(range(self.shape[dim])), dim, "unbind",
                       (self._data.shape, dim))


@binds("unsafe_split")
def unsafe_split(self: Tensor, split_size: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``split`` as torch's RNN cells split their gates: one UnsafeSplitBackward0 node."""
    dim = _wrap_dim(dim, self.ndim)
    length = self.shape[dim]
    count = max(-(-length // split_size), 1)
    sizes = tuple(min(split_size, length - number * split_size) for number in range(count))
    return _pieces(self, sizes, dim, "unsafe_split")


@binds("unsafe_chunk")
def unsafe_chunk(self: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    length = self.shape[_wrap_dim(dim, self.ndim)]
    return unsafe_split(self, -(-length // chunks), dim)


@binds("unfold", function=False)
def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    """Every ``size``-long window along ``dimension``, ``step`` apart, as a new last
    dimension: a view of the same memory, as torch's."""
    data = self._data
    if data.ndim == 0:  # torch treats a number as one element
        return output("unfold", data.reshape(1), (self,), ((), 0, 1, 1))
    dim = _wrap_dim(dimension, data.ndim)
    if size > data.shape[dim]:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {data.shape[dim]} "
                           f"but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    windows = np.lib.stride_tricks.as_strided(
        data, data.shape[:dim] + ((data.shape[dim] - size) // step + 1,) + data.shape[dim + 1:] +
        (size,), data.strides[:dim] + (data.strides[dim] * step,) + data.strides[dim + 1:] +
        (data.strides[dim],))
    return output("unfold", windows, (self,), (data.shape, dim, size, step),
                  shared_counter(self), self)
