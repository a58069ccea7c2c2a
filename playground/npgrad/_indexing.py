"""Indexing: ``x[...]`` as torch records it, gather/scatter and index_select/index_add."""

from __future__ import annotations

import re

import numpy as np

from . import _dtype as dtypes
from ._bindings import binds
from ._deprecations import warn_once
from ._recording import output
from ._shapes import select, sliced, unsqueeze
from ._tensor import Tensor, _wrap_dim, shared_counter

# torch's words for an index that is not integers, by op (gather's by default)
_NOT_INTEGERS = {"scatter": "scatter(): Expected dtype int32/int64 for index",
                 "index_select": "index_select(): Expected dtype int32 or int64 for index",
                 "index_add": "index_add_(): Expected dtype int32/int64 for index but got: {}",
                 "take": "take(): Expected a long tensor for index, but got {}",
                 "index_copy": "index_copy_(): Expected a long tensor for index, but got {}",
                 "index_fill": "index_fill_(): Expected dtype int64 for index."}


def _index_data(index, op: str = "gather") -> np.ndarray:
    data = index._data if isinstance(index, Tensor) else np.asarray(index)
    if data.dtype.kind not in "iu":
        text = _NOT_INTEGERS.get(op, "gather(): Expected dtype int32/int64 for index")
        error = IndexError if op == "index_fill" else RuntimeError  # (torch's kinds)
        raise error(text.format(dtypes.scalar_type_name(data.dtype)))
    return data.astype(np.int64, copy=False)


def first_outside(positions: np.ndarray, size: int, *, wraps: bool = False):
    """The first index, in order, that is not a position of a dimension of ``size`` (from the
    end too where ``wraps``), or None when every index is one."""
    outside = (positions < (-size if wraps else 0)) | (positions >= size)
    if not outside.any():
        return None
    return int(positions.reshape(-1)[np.argmax(outside.reshape(-1))])


def within_bounds(positions: np.ndarray, self: Tensor, dim: int, *, error=RuntimeError,
                  prefix: str = "", wraps: bool = False) -> np.ndarray:
    """``positions`` checked against ``self``'s ``dim`` as torch checks them (no negative index
    unless ``wraps``), and wrapped; torch's message names the first index outside."""
    size = self.shape[dim] if self.ndim else 1
    bad = first_outside(positions, size, wraps=wraps)
    if bad is not None:
        raise error(f"{prefix}index {bad} is out of bounds for dimension {dim} with size {size}")
    return positions % size if wraps and positions.size else positions


def along_axis(index: np.ndarray, dim: int) -> tuple:
    """Index arrays that address element (..., index[i], ...) of each position i, on ``dim``."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


@binds("gather")
def gather(self: Tensor, dim: int, index) -> Tensor:
    """out[i][j] = self[i][index[i][j]] (for dim 1): values picked along one dimension."""
    dim = _wrap_dim(dim, self.ndim)
    positions = within_bounds(_index_data(index), self, dim)
    data = self._data[along_axis(positions, dim)]
    return output("gather", np.asarray(data), (self,), (self.shape, dim, positions))


@binds("scatter")
def scatter(self: Tensor, dim: int, index, src=None, *, value=None, reduce=None) -> Tensor:
    """A copy of self with src's values (or one number) written where index points, or
    added to or multiplied into what is there (``reduce``)."""
    dim = _wrap_dim(dim, self.ndim)
    positions = within_bounds(_index_data(index, "scatter"), self, dim)
    where = along_axis(positions, dim)
    if reduce is not None:
        return _scatter_reducing(self, where, positions.shape,
                                 src if value is None else value, reduce)
    data = self._data.copy()
    if isinstance(src, Tensor):
        source = src._data[tuple(slice(0, n) for n in positions.shape)]
        data[where] = source.astype(data.dtype, copy=False)
        return output("scatter", data, (self, src), (dim, positions))
    data[where] = src if value is None else value
    return output("scatter_value", data, (self,), (dim, positions))


_REDUCERS = {"add": np.add, "multiply": np.multiply}


def _reduced_values(self: Tensor, where: tuple, shape: tuple, source,
                    reduce: str) -> np.ndarray:
    """self's values with ``source`` (its first ``shape`` elements) added or multiplied in at
    ``where``, element by element in order (a position named twice takes both)."""
    if reduce not in _REDUCERS:
        raise RuntimeError("reduce argument must be either add or multiply.")
    data = self._data.copy()
    if isinstance(source, Tensor):
        warn_once("scatter reduce with a tensor")
        source = source._data[tuple(slice(0, n) for n in shape)].astype(data.dtype, copy=False)
    _REDUCERS[reduce].at(data, where, source)
    return data


def _scatter_reducing(self: Tensor, where: tuple, shape: tuple, source,
                      reduce: str) -> Tensor:
    """scatter with reduce=: a node without a derivative (torch's NotImplemented)."""
    data = _reduced_values(self, where, shape, source, reduce)
    if isinstance(source, Tensor):
        return output("scatter_reducing", data, (self, source), ())
    return output("scatter_value_reducing", data, (self,), ())


@binds("scatter_add")
def scatter_add(self: Tensor, dim: int, index, src: Tensor) -> Tensor:
    """A copy of self with src added at the positions index names along ``dim``."""
    dim = _wrap_dim(dim, self.ndim)
    positions = within_bounds(_index_data(index, "scatter"), self, dim)
    data = self._data.copy()
    source = src._data[tuple(slice(0, n) for n in positions.shape)]
    np.add.at(data, along_axis(positions, dim), source.astype(data.dtype, copy=False))
    return output("scatter_add", data, (self, src), (dim, positions))


@binds("index_select")
def index_select(self: Tensor, dim: int, index) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    positions = _index_data(index, "index_select").reshape(-1)
    _select_bounds(positions, self, dim)
    data = np.take(self._data, positions, axis=dim)
    return output("index_select", data, (self,), (self.shape, dim, positions))


def _select_bounds(positions: np.ndarray, self: Tensor, dim: int) -> None:
    """index_select's two messages: its CPU kernel for dim 1 of a matrix or more says one,
    the general path (an embedding-style lookup) the other; neither wraps a negative."""
    size = self.shape[dim] if self.ndim else 1
    bad = first_outside(positions, size)
    if bad is None:
        return
    if dim == 1 and self.ndim > 1:
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={bad} axis_dim={size}")
    raise IndexError("index out of range in self")


@binds("repeat_interleave")
def repeat_interleave(self: Tensor, repeats=None, dim=None, *, output_size=None) -> Tensor:
    """Each element (or slice along ``dim``) ``repeats`` times in a row, made as torch makes it:
    by a number, an expanded copy (Unsqueeze, Expand, Clone, View); by a tensor of counts, an
    index_select; with counts alone, the positions each count repeats."""
    if repeats is None:  # torch.repeat_interleave(counts)
        counts = self._data.reshape(-1)
        return Tensor._make(np.repeat(np.arange(counts.size, dtype=np.int64), counts))
    if dim is None:
        return repeat_interleave(self.reshape(-1), repeats, 0)
    dim = _wrap_dim(dim, self.ndim)
    if isinstance(repeats, Tensor) and repeats.numel() != 1:
        counts = repeats._data.reshape(-1)
        return index_select(self, dim, Tensor._make(np.repeat(np.arange(counts.size), counts)))
    times = int(repeats)
    shape = self.shape
    spread = unsqueeze(self, dim + 1).expand(*shape[:dim + 1], times, *shape[dim + 1:])
    return spread.contiguous().view(*shape[:dim], shape[dim] * times, *shape[dim + 1:])


@binds("index_add")
def index_add(self: Tensor, dim: int, index, source: Tensor, *, alpha=1) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    positions = within_bounds(_index_data(index, "index_add").reshape(-1), self, dim)
    data = self._data.copy()
    added = source._data if alpha == 1 else source._data * alpha
    np.add.at(data, (slice(None),) * dim + (positions,), added.astype(data.dtype, copy=False))
    return output("index_add", data, (self, source), (dim, positions, alpha))


def _is_basic(item) -> bool:
    if item is None or item is Ellipsis or isinstance(item, slice):
        return True
    if isinstance(item, bool):
        return False
    if isinstance(item, int | np.integer):
        return True
    return isinstance(item, Tensor) and item.ndim == 0 and item._data.dtype.kind in "iu"


def index_array(item):
    if isinstance(item, Tensor):
        if item._data.dtype.kind in "fc":
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return item._data
    if isinstance(item, list | tuple):
        return np.asarray([index_array(i) if isinstance(i, Tensor) else i for i in item])
    return item


@binds("__getitem__", function=False)
def getitem(self: Tensor, index) -> Tensor:
    """Indexing as a chain of select/slice/unsqueeze nodes, or one IndexBackward0."""
    items = index if isinstance(index, tuple) else (index,)
    if not all(_is_basic(item) for item in items):
        indices = tuple(index_array(item) for item in items)
        indices = indices[0] if len(indices) == 1 and not isinstance(index, tuple) else indices
        try:
            data = self._data[indices]
        except IndexError as error:
            if str(error).startswith("too many indices"):  # (NumPy's words for torch's)
                raise IndexError(f"too many indices for tensor of dimension {self.ndim}") \
                    from None
            raise in_torch_words(error, items, self.ndim) from None
        return output("index", np.array(data), (self,), (self._data.shape, indices))
    consumed = sum(1 for item in items if item is not None and item is not Ellipsis)
    if self.ndim == 0 and isinstance(index, slice):  # (torch's words for a lone slice
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")  # or number)
    if self.ndim == 0 and isinstance(index, int | np.integer) and not isinstance(index, bool):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or "
                         "`tensor.item<T>()` in C++ to convert a 0-dim tensor to a number")
    if consumed > self.ndim:
        raise IndexError(
            f"too many indices for tensor of dimension {self.ndim}"
        )
    # torch slices for a lone slice even when it spans the whole dimension; inside a tuple it
    # skips such slices, and an index that changes nothing gives an alias.
    lone_slice = isinstance(index, slice)
    result, dim = self, 0
    for item in items:
        if item is Ellipsis:
            dim += self.ndim - consumed
        elif item is None:
            result = unsqueeze(result, dim)
            dim += 1
        elif isinstance(item, slice):
            size = result._data.shape[dim]
            if item.step is not None and item.step <= 0:
                raise ValueError("step must be greater than zero")
            start, stop, step = item.indices(size)
            stop = max(stop, start)
            if lone_slice or not (start == 0 and stop == size and step == 1):
                result = sliced(result, dim, start, stop, step)
            dim += 1
        else:
            size = result._data.shape[dim] if result.ndim else 0
            if result.ndim and not -size <= int(item) < size:  # (select's own words differ)
                raise IndexError(f"index {int(item)} is out of bounds for dimension {dim} with "
                                 f"size {size}")
            result = select(result, dim, int(item))
    return _alias(self) if result is self else result


_NUMPY_BOUNDS = re.compile(r"index (-?\d+) is out of bounds for axis (\d+) with size (\d+)")


def in_torch_words(error: IndexError, items: tuple, ndim: int) -> IndexError:
    """NumPy's out-of-bounds error as torch words it: the dimension is the index tensor's
    place among the index tensors (``x[:, t]``'s is 0)."""
    found = _NUMPY_BOUNDS.match(str(error))
    if found is None:
        return IndexError(str(error))
    value, axis, size = found[1], int(found[2]), found[3]
    sides = [0 if item is None or item is Ellipsis else max(np.ndim(index_array(item)), 1)
             if _is_mask(item) else 1 for item in items]
    dim, place = 0, 0
    for item, taken in zip(items, sides, strict=True):
        if item is Ellipsis:
            dim += ndim - sum(sides)
            continue
        if not _is_basic(item):
            if dim <= axis < dim + taken:
                break
            place += 1
        dim += taken
    return IndexError(f"index {value} is out of bounds for dimension {place} with size {size}")


def _is_mask(item) -> bool:
    return np.asarray(index_array(item)).dtype == np.bool_ if not _is_basic(item) else False


def _alias(self: Tensor) -> Tensor:
    """``x[...]``/``x[:, :]``: a new view of the same values (torch's AliasBackward0)."""
    return output("alias", self._data[...], (self,), (), shared_counter(self), self)


def scatter_into_zeros(op: str, grad: Tensor, shape: tuple, index, saved: tuple) -> Tensor:
    """The backward of select/slice/index as a recorded op, for double backward."""
    data = np.zeros(shape, dtype=grad._data.dtype)
    if op == "index_backward":
        np.add.at(data, index, grad._data)
    else:
        data[index] = grad._data
    return output(op, data, (grad,), saved)

