"""Searching, counting and picking: ops whose results are positions, counts or chosen
elements (torch's names and nodes)."""

from __future__ import annotations

import math
import warnings

import numpy as np

from . import _bindings
from ._bindings import binds
from ._dtype import scalar_type_name
from ._indexing import gather
from ._operands import broadcast_error
from ._recording import RESULT, output, record_several
from ._reductions import _correction
from ._shapes import expand, flatten, meshgrid, stack, view
from ._tensor import Tensor, _wrap_dim

_make = Tensor._make
type_name = scalar_type_name  # (the name its callers import it by)


def _sizes(shape) -> str:
    return f"[{', '.join(str(side) for side in shape)}]"


def reduced_dims(dim, ndim: int):
    """The sorted dims a reduction over ``dim`` removes (None: all of them, as () and []
    are); torch's error for a dim given twice."""
    if dim is None:
        return None
    dims = [_wrap_dim(d, ndim) for d in ((dim,) if isinstance(dim, int) else dim)]
    for d in dims:
        if dims.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return tuple(sorted(dims)) if ndim else None  # (a 0-d tensor's dim 0: all of it)


def _data(value) -> np.ndarray:
    return value._data if isinstance(value, Tensor) else np.asarray(value)


# ----- positions ----------------------------------------------------------------------------
@binds("nonzero")
def nonzero(self: Tensor, *, as_tuple: bool = False):
    """The positions of the non-zero elements: one row each (a 0-d tensor counts as one
    element with no coordinates), or one tensor of positions per dimension."""
    data = self._data
    if as_tuple:
        return tuple(_make(np.asarray(p, np.int64)) for p in np.nonzero(np.atleast_1d(data)))
    return _make(np.ascontiguousarray(np.argwhere(data), dtype=np.int64))


@binds("argwhere")
def argwhere(self: Tensor) -> Tensor:
    return nonzero(self)


_where = _bindings.FUNCTIONS["where"]


def where(*args, **kwargs):
    """torch.where(condition, input, other), and torch.where(condition): its nonzero
    positions as a tuple (the three-argument form is _arithmetic.py's)."""
    if len(args) + len(kwargs) == 1:
        condition = args[0] if args else kwargs.get("condition")
        if isinstance(condition, Tensor):
            return nonzero(condition, as_tuple=True)
    if len(args) == 2 and not kwargs:
        got = ", ".join("Tensor" if isinstance(a, Tensor) else type(a).__name__ for a in args)
        raise TypeError(
            f"where() received an invalid combination of arguments - got ({got}), but expected "
            "one of:\n * (Tensor condition)\n * (Tensor condition, Tensor input, Tensor other, "
            "*, Tensor out = None)\n * (Tensor condition, Number self, Tensor other)\n * "
            "(Tensor condition, Tensor input, Number other)\n * (Tensor condition, Number self, "
            "Number other)\n")
    return _where(*args, **kwargs)


_bindings.FUNCTIONS["where"] = where  # (bound already: replaced, not bound twice)


@binds("masked_select")
def masked_select(self: Tensor, mask: Tensor) -> Tensor:
    """The elements where the mask (broadcast with self) is True, in a 1-d tensor."""
    if not isinstance(mask, Tensor):
        raise TypeError("masked_select(): argument 'mask' (position 1) must be Tensor, not "
                        f"{type(mask).__name__}")
    if mask._data.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    try:
        shape = np.broadcast_shapes(mask._data.shape, self._data.shape)
    except ValueError:
        raise broadcast_error(mask._data.shape, self._data.shape) from None
    chosen = np.broadcast_to(mask._data, shape)
    values = np.broadcast_to(self._data, shape)[chosen]
    return output("masked_select", values, (self,), (chosen, shape))


@binds("take_along_dim")
def take_along_dim(self: Tensor, indices: Tensor, dim=None) -> Tensor:
    """Values picked along ``dim`` as gather picks them, the two broadcast first (torch's
    composite: expand and gather; without ``dim``, of the flattened tensors)."""
    if dim is None:
        return gather(view(self, -1), 0, view(indices, -1))
    if self.ndim != indices.ndim:
        raise RuntimeError(
            "torch.take_along_dim(): input and indices should have the same number of "
            f"dimensions, but got {self.ndim} dimensions for input, and {indices.ndim} "
            "dimensions for indices")
    if indices._data.dtype != np.int64:
        raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                           f"{type_name(indices._data.dtype)}")
    dim = _wrap_dim(dim, self.ndim)
    picked = list(self.shape)
    picked[dim] = indices.shape[dim]
    positions = expand(indices, _broadcast(picked, indices.shape))
    spread = list(indices.shape)
    spread[dim] = self.shape[dim]
    return gather(expand(self, _broadcast(spread, self.shape)), dim, positions)


def _broadcast(a, b) -> tuple:
    try:
        return np.broadcast_shapes(tuple(a), tuple(b))
    except ValueError:
        raise broadcast_error(tuple(a), tuple(b)) from None


# ----- unique values and counts ---------------------------------------------------------------
@binds("unique")
def unique(self: Tensor, sorted: bool = True, return_inverse: bool = False,
           return_counts: bool = False, dim=None):
    """The distinct values (sorted, as torch's CPU kernel always gives them; every NaN its
    own), or the distinct slices along ``dim``; with where each element went and counts."""
    data = self._data
    if dim is None:
        values, inverse, counts = np.unique(data.reshape(-1), return_inverse=True,
                                            return_counts=True, equal_nan=False)
        inverse = inverse.reshape(data.shape)
        op = "unique"
    else:
        dim = _wrap_dim(dim, data.ndim)
        values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True,
                                            axis=dim, equal_nan=False)
        inverse = inverse.reshape(-1)
        op = "unique_dim"
    return _unique_result(self, op, values, inverse, counts, return_inverse, return_counts)


def _unique_result(self, op, values, inverse, counts, return_inverse, return_counts):
    result = output(op, np.ascontiguousarray(values), (self,))
    if not (return_inverse or return_counts):
        return result
    extra = [np.asarray(inverse, np.int64)] if return_inverse else []
    extra += [np.asarray(counts, np.int64)] if return_counts else []
    return (result, *(_make(array) for array in extra))


@binds("unique_consecutive")
def unique_consecutive(self: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim=None):
    """Each run of equal consecutive values (or slices along ``dim``) once."""
    data = self._data
    if dim is None:
        rows = data.reshape(-1, 1)
    else:
        dim = _wrap_dim(dim, data.ndim)
        rows = np.moveaxis(data, dim, 0).reshape(data.shape[dim] if data.ndim else 1, -1)
    starts = np.ones(len(rows), bool)
    starts[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    firsts = np.flatnonzero(starts)
    counts = np.diff(np.append(firsts, len(rows)))
    inverse = np.cumsum(starts) - 1
    if dim is None:
        values, inverse = data.reshape(-1)[firsts], inverse.reshape(data.shape)
    else:
        values = np.take(data, firsts, axis=dim) if data.ndim else data.reshape(1)[firsts]
    return _unique_result(self, "unique_consecutive", values, inverse, counts, return_inverse,
                          return_counts)


@binds("bincount")
def bincount(self: Tensor, weights=None, minlength: int = 0) -> Tensor:
    """How often each value 0, 1, ... occurs (or the sum of its weights)."""
    data = self._data
    if data.dtype.kind not in "iu":
        raise NotImplementedError(f'"bincount_cpu" not implemented for '
                                  f"'{type_name(data.dtype)}'")
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if data.ndim == 1 and data.size == 0:
        return _make(np.zeros(minlength, np.int64))
    if data.ndim != 1 or data.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return _make(np.bincount(data, minlength=minlength).astype(np.int64))
    if weights.ndim != 1 or weights.shape[0] != data.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    kind = weights._data.dtype
    target = kind if kind in (np.float32, np.float64) else np.dtype(np.float64)
    totals = np.zeros(max(int(data.max()) + 1, minlength), target)
    np.add.at(totals, data, weights._data.astype(target))  # one by one, in order, as torch
    return output("bincount", totals, (weights,))


@binds("histc")
def histc(self: Tensor, bins: int = 100, min=0, max=0) -> Tensor:
    """Counts in ``bins`` equal bins between min and max (the data's own extremes when the
    two are equal); values outside are not counted. Not differentiable."""
    data = self._data
    if data.dtype.kind != "f":
        raise NotImplementedError(f'"histogram_cpu" not implemented for '
                                  f"'{type_name(data.dtype)}'")
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for "
                           "dimension 0")
    low, high = float(min), float(max)
    if low == high and data.size:
        low, high = float(np.min(data)), float(np.max(data))
    if low == high:
        low, high = low - 1, high + 1
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histc: range of [{_c_double(low)}, {_c_double(high)}] is "
                           "not finite")
    if not low < high:
        raise RuntimeError("torch.histc: max must be larger than min")
    number = data.dtype.type
    left, right = number(low), number(high)
    inside = data[(data >= left) & (data <= right)]
    # torch's linear interpolation to the bin: (x - left) * bins / (right - left), truncated
    positions = ((inside - left) * number(bins) / (right - left)).astype(np.int64)
    positions[positions == bins] = bins - 1  # the last bin holds its right edge
    return _make(np.bincount(positions, minlength=bins).astype(data.dtype))


def _c_double(value: float) -> str:
    """A double as C++'s stream prints it (6 significant digits; -nan, as torch's NaN)."""
    return "-nan" if np.isnan(value) else f"{value:g}"


@binds("count_nonzero")
def count_nonzero(self: Tensor, dim=None) -> Tensor:
    data = self._data
    if dim is None:
        return _make(np.asarray(np.count_nonzero(data), np.int64))
    dims = reduced_dims(dim, data.ndim)
    counted = np.count_nonzero(data, axis=dims) if data.ndim else np.count_nonzero(data)
    return _make(np.asarray(counted, np.int64))


# ----- searching ------------------------------------------------------------------------------
@binds("searchsorted", method=False)
def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False, right: bool = False,
                 side=None, sorter=None, out=None) -> Tensor:
    """Where each value would go in the sorted innermost rows of ``sorted_sequence`` (left:
    before equal values; right: after them)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError("torch.searchsorted(): side can only be 'left' or 'right' but "
                               f"got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to "
                               "opposites, got side of left while right was True")
        right = side == "right"
    boundaries = sorted_sequence._data
    values = _data(input)
    if sorter is not None:
        boundaries = np.take_along_axis(boundaries, sorter._data, axis=-1)
    if boundaries.ndim > 1 and not isinstance(input, Tensor):
        raise RuntimeError(
            "torch.searchsorted(): input value can be a scalar only when boundaries tensor "
            f"dimension is 1, but we got boundaries tensor dim({boundaries.ndim}) and input "
            f"value's dim({values.ndim}) numel({values.size})")
    if boundaries.ndim == 0 or (boundaries.ndim > 1 and (
            boundaries.ndim != values.ndim or boundaries.shape[:-1] != values.shape[:-1])):
        raise RuntimeError(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
            "dimensions of boundaries tensor and input value tensor must match, but we got "
            f"boundaries tensor {_sizes(boundaries.shape)} and input value tensor "
            f"{_sizes(values.shape)}")
    which = "right" if right else "left"
    if boundaries.ndim == 1:
        positions = np.searchsorted(boundaries, values, which)
    else:
        rows = boundaries.reshape(-1, boundaries.shape[-1])
        wanted = values.reshape(len(rows), -1)
        positions = np.stack([np.searchsorted(row, items, which)
                              for row, items in zip(rows, wanted, strict=True)])
    return _make(np.asarray(positions, np.int32 if out_int32 else np.int64).reshape(
        values.shape))


@binds("bucketize", method=False)
def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False,
              out=None) -> Tensor:
    """The bucket of each value: i such that boundaries[i-1] < x <= boundaries[i] (with
    ``right``, boundaries[i-1] <= x < boundaries[i])."""
    if boundaries.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim"
                           f"({boundaries.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


@binds("isin", method=False)
def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False):
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError(
            "isin() received an invalid combination of arguments - got "
            f"({type(elements).__name__}, {type(test_elements).__name__}), but expected one "
            "of:\n * (Tensor elements, Tensor test_elements, *, bool assume_unique = False, "
            "bool invert = False, Tensor out = None)\n * (Number element, Tensor "
            "test_elements, *, bool assume_unique = False, bool invert = False, Tensor out = "
            "None)\n * (Tensor elements, Number test_element, *, bool assume_unique = False, "
            "bool invert = False, Tensor out = None)\n")
    for values in (elements, test_elements):
        if isinstance(values, Tensor) and values._data.dtype == np.bool_:
            raise RuntimeError("Unsupported input type encountered for isin(): Bool")
    return _make(np.asarray(np.isin(_data(elements), _data(test_elements), invert=invert)))


# ----- index grids and combinations -----------------------------------------------------------
def _triangle_indices(pick, row: int, col: int, offset: int, dtype) -> Tensor:
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    target = np.dtype(np.int64) if dtype is None else np.dtype(dtype.numpy)
    if target.kind not in "iu":
        name = "tril_indices" if pick is np.tril_indices else "triu_indices"
        raise NotImplementedError(f'"{name}" not implemented for \'{type_name(target)}\'')
    rows, cols = pick(row, offset, col)
    return _make(np.stack([rows, cols]).astype(target))


@binds("tril_indices", method=False)
def tril_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None) -> Tensor:
    """The (row, column) positions of a row x col matrix's lower triangle, row by row."""
    return _triangle_indices(np.tril_indices, row, col, offset, dtype)


@binds("triu_indices", method=False)
def triu_indices(row: int, col: int, offset: int = 0, *, dtype=None, device=None,
                 layout=None) -> Tensor:
    return _triangle_indices(np.triu_indices, row, col, offset, dtype)


def _vector(tensor: Tensor) -> None:
    if tensor.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {_sizes(tensor.shape)}")


@binds("cartesian_prod", method=False)
def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of one element from each vector, a row each (torch's composite:
    meshgrid, flatten, stack; one vector is itself)."""
    for tensor in tensors:
        _vector(tensor)
    if len(tensors) == 1:
        return tensors[0]
    grids = meshgrid(*tensors, indexing="ij")
    return stack([flatten(grid) for grid in grids], 1)


@binds("combinations", method=False)
def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The r-element combinations of a vector's elements, in order (torch's composite: the
    meshgrid's entries where i < j < ... (or <=), masked_select'ed and stacked)."""
    _vector(input)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return _make(np.empty(0, input._data.dtype))
    size = input.shape[0]
    if size == 0:
        return _make(np.empty((0, r), input._data.dtype))
    grids = meshgrid(*([input] * r), indexing="ij")
    places = np.indices((size,) * r)
    mask = np.ones((size,) * r, bool)
    for before, after in zip(places[:-1], places[1:], strict=True):
        mask &= before <= after if with_replacement else before < after
    chosen = _make(mask)
    return stack([masked_select(grid, chosen) for grid in grids], 1)


# ----- spread and mean together ---------------------------------------------------------------
@binds("std_mean", method=False)
def std_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,
             correction=None) -> tuple:
    return _spread_mean("std_mean", input, dim, unbiased, keepdim, correction)


@binds("var_mean", method=False)
def var_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *,
             correction=None) -> tuple:
    return _spread_mean("var_mean", input, dim, unbiased, keepdim, correction)


# Torch's Welford kernel takes one element at a time (a Python step each here): past this
# count NumPy's two passes.
_WELFORD_UP_TO = 4096


def _spread_mean(op: str, self: Tensor, dim, unbiased, keepdim: bool, correction) -> tuple:
    """(std or var, mean) as torch's Welford kernel computes both, in float64 rounded once;
    one node for the two."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    data = self._data
    if data.dtype.kind not in "fc":
        raise RuntimeError(f"{op} only support floating point and complex dtypes")
    dims = reduced_dims(dim, data.ndim)
    axes = tuple(range(data.ndim)) if dims is None else dims
    correction = _correction(unbiased, correction)
    count = math.prod(data.shape[d] for d in axes)
    if count - correction <= 0:
        warnings.warn(f"{op}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel). "
                      "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                      "ReduceOps.cpp:1861.)", UserWarning, stacklevel=4)
    kept = tuple(side for d, side in enumerate(data.shape) if d not in axes)
    wide = np.complex128 if data.dtype.kind == "c" else np.float64
    rows = np.moveaxis(data.astype(wide), axes, tuple(range(-len(axes), 0))).reshape(
        math.prod(kept), count) if data.ndim else data.astype(wide).reshape(1, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean, m2 = _welford(rows) if count <= _WELFORD_UP_TO and wide is np.float64 else \
            (rows.mean(axis=1), (abs(rows - rows.mean(axis=1, keepdims=True)) ** 2).sum(axis=1))
        spread = m2 / max(0.0, count - correction)
        if op == "std_mean":
            spread = np.sqrt(spread)
    shape = tuple(1 if d in axes else side for d, side in enumerate(data.shape)) if keepdim \
        else kept
    # (the spread of complex numbers is real: |x - mean|² summed)
    outputs = [_make(np.asarray(values, kind).reshape(shape))
               for values, kind in ((spread, _part_dtype(data.dtype)), (mean, data.dtype))]
    saved = (self, dims, correction, keepdim)
    record_several(op, outputs, (self,), saved + ((RESULT,) if op == "std_mean" else ()))
    return tuple(outputs)


def _part_dtype(dtype: np.dtype) -> np.dtype:
    return np.zeros((), dtype).real.dtype


def _welford(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's mean and Σ(x - mean)², by WelfordOps.reduce's steps in float64."""
    mean = np.zeros(len(rows))
    m2 = np.zeros(len(rows))
    if not rows.shape[1]:
        return mean * np.nan, m2 * np.nan
    for index in range(rows.shape[1]):
        value = rows[:, index]
        delta = value - mean
        mean = mean + delta / float(index + 1)
        m2 = m2 + delta * (value - mean)
    return mean, m2


# ----- where a view starts ------------------------------------------------------------------
@binds("storage_offset", function=False)
def storage_offset(self: Tensor) -> int:
    """How many elements into its storage a tensor starts: a view's array shares memory with
    the array that owns it, and the offset is how far the view's first element lies from the
    owner's."""
    data = self._data
    owner = owning_array(data)
    if owner is data or not data.itemsize:
        return 0
    return byte_offset(data, owner) // data.itemsize


def owning_array(data: np.ndarray) -> np.ndarray:
    """The array whose memory ``data`` views (``data`` itself when it owns its memory)."""
    owner = data
    while True:
        base = owner.base
        if not isinstance(base, np.ndarray):  # NumPy's as_strided keeps its array one further
            base = getattr(base, "base", None)
        if not isinstance(base, np.ndarray):
            return owner
        owner = base


def byte_offset(view: np.ndarray, owner: np.ndarray) -> int:
    """How many bytes into ``owner``'s memory ``view`` starts."""
    return view.__array_interface__["data"][0] - np.lib.array_utils.byte_bounds(owner)[0]


from . import _selection_more  # noqa: E402, F401  (its ops' @binds)
