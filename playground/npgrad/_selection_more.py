"""Order statistics and NaN-aware reductions: kthvalue, median, mode, quantile, nansum,
aminmax, std_mean/var_mean (torch's names, nodes and tie-breaking), and their kit helpers."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._formula_kit import Kit
from ._indexing import gather
from ._recording import RESULT, output, record_several
from ._reductions import _return_type, sort
from ._selection import reduced_dims, type_name
from ._selection_rules import KIT_HELPERS
from ._shapes import flatten, squeeze_to, transpose, unsqueeze, view
from ._summation_order import dim_sums, whole_sum
from ._tensor import Tensor, _wrap_dim
from ._tie_order import introselect_position, std_sort, torch_quick_select

_make = Tensor._make
return_kthvalue = _return_type("kthvalue")
return_median = _return_type("median")
return_nanmedian = _return_type("nanmedian")
return_mode = _return_type("mode")
return_aminmax = _return_type("aminmax", ("min", "max"))


def _rows(self: Tensor, dim, name: str) -> tuple[np.ndarray, int]:
    """The values along ``dim`` as rows, one per result, and the wrapped dim."""
    data = self._data
    dim = _wrap_dim(dim, data.ndim)
    if not data.ndim:
        return data.reshape(1, 1), dim
    if data.shape[dim] == 0:
        raise IndexError(f"{name}: Expected reduction dim {dim} to have non-zero size.")
    return np.moveaxis(data, dim, -1).reshape(-1, data.shape[dim]), dim


def _selected(self: Tensor, op: str, named, rows, positions, dim: int, keepdim: bool):
    """The values at ``positions`` (one per row) and the positions, shaped as torch's result,
    recorded so that the gradient goes back to the chosen element."""
    data = self._data
    shape = data.shape[:dim] + data.shape[dim + 1:]
    positions = np.asarray(positions, np.int64).reshape(shape)
    values = rows[np.arange(len(rows)), positions.reshape(-1)].reshape(shape) if rows.size \
        else np.empty(shape, data.dtype)
    kept = np.expand_dims(positions, dim) if data.ndim else positions
    if keepdim and data.ndim:
        values, positions = np.expand_dims(values, dim), kept
    result = output(op, np.array(values, order="C"), (self,), (data.shape, dim, keepdim, kept))
    return named(result, _make(np.array(positions, order="C")))


@binds("kthvalue")
def kthvalue(self: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """The k-th smallest value along ``dim`` (NaN the largest) and where it was: the one
    torch's quickselect lands on among equal values."""
    _no_bool(self, "kthvalue_cpu")
    rows, dim = _rows(self, dim, "kthvalue()")
    if not 1 <= k <= rows.shape[1]:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {dim}")
    positions = _tied_positions(rows, np.sort(rows, axis=1)[:, k - 1] if rows.size else None,
                                lambda row: torch_quick_select(row.tolist(), k - 1))
    return _selected(self, "kthvalue", return_kthvalue, rows, positions, dim, keepdim)


def _tied_positions(rows, chosen, pick) -> list:
    """Where each row's chosen value is: found directly when it occurs once in the row, else
    by ``pick`` (torch's own search, whose result among equal values depends on it)."""
    if chosen is None:
        return []
    nan = np.isnan(chosen) if rows.dtype.kind == "f" else np.zeros(len(rows), bool)
    matches = rows == chosen[:, None]
    if nan.any():
        matches |= nan[:, None] & np.isnan(rows)
    positions = np.argmax(matches, axis=1).tolist()
    for index in np.flatnonzero(np.count_nonzero(matches, axis=1) != 1):
        positions[index] = pick(rows[index])
    return positions


def _median_along(self: Tensor, dim, keepdim: bool, ignore_nan: bool):
    op = "nanmedian" if ignore_nan else "median"
    _no_bool(self, "median_out")
    rows, dim = _rows(self, dim, "median()")
    # the middle of the (value, position) order, torch's nth_element's; NaNs sort last
    order = np.argsort(rows, axis=1, kind="stable")
    nans = np.isnan(rows) if rows.dtype.kind == "f" else np.zeros(rows.shape, bool)
    counts = nans.sum(axis=1)
    middle = (rows.shape[1] - (counts if ignore_nan else 0) - 1) // 2
    positions = order[np.arange(len(rows)), np.maximum(middle, 0)]
    if not ignore_nan:  # median: the first NaN
        positions = np.where(counts > 0, np.argmax(nans, axis=1), positions)
    else:  # nanmedian of NaNs only: where nth_element leaves one of them
        positions[counts == rows.shape[1]] = introselect_position(rows.shape[1])
    named = return_nanmedian if ignore_nan else return_median
    return _selected(self, f"{op}_dim", named, rows, positions, dim, keepdim)


def _median_of_all(self: Tensor, ignore_nan: bool) -> Tensor:
    _no_bool(self, "median_cpu")
    data = self._data.reshape(-1)
    nans = np.isnan(data) if data.dtype.kind == "f" else np.zeros(data.shape, bool)
    if (nans.any() and not ignore_nan) or nans.all():
        value = np.asarray(np.nan, self._data.dtype)
    else:
        value = np.sort(data[~nans])[(int((~nans).sum()) - 1) // 2]
    op = "nanmedian" if ignore_nan else "median"
    return output(op, np.asarray(value, self._data.dtype), (self,), (self, RESULT))


def _no_bool(self: Tensor, kernel: str) -> None:
    if self._data.dtype == np.bool_:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


@binds("median")
def median(self: Tensor, dim=None, keepdim: bool = False):
    """The lower of the two middle values (NaN if any); along ``dim`` with its position."""
    if dim is None:
        return _median_of_all(self, False)
    return _median_along(self, dim, keepdim, False)


@binds("nanmedian")
def nanmedian(self: Tensor, dim=None, keepdim: bool = False):
    """median of the values that are not NaN."""
    if dim is None:
        return _median_of_all(self, True)
    return _median_along(self, dim, keepdim, True)


@binds("mode")
def mode(self: Tensor, dim: int = -1, keepdim: bool = False):
    """The most frequent value along ``dim`` (the smallest of equally frequent ones) and a
    position of it: the last of its run after torch's std::sort of (value, position) pairs."""
    rows, dim = _rows(self, dim, "mode()")
    positions = [_mode_position(row.tolist()) for row in rows]
    return _selected(self, "mode", return_mode, rows, positions, dim, keepdim)


def _mode_position(values: list) -> int:
    pairs = list(zip(values, range(len(values)), strict=True))
    std_sort(pairs, lambda a, b: a[0] < b[0])
    best, most, run = 0, 0, 0
    for index, (value, position) in enumerate(pairs):
        run += 1
        if index == len(pairs) - 1 or value != pairs[index + 1][0]:
            if run > most:
                best, most = position, run
            run = 0
    return best


@binds("msort")
def msort(self: Tensor) -> Tensor:
    return sort(self, 0).values


# ----- quantiles ------------------------------------------------------------------------------
_MODES = ("linear", "lower", "higher", "midpoint", "nearest")


@binds("quantile")
def quantile(self: Tensor, q, dim=None, keepdim: bool = False, *,
             interpolation: str = "linear") -> Tensor:
    return _quantile(self, q, dim, keepdim, interpolation, False)


@binds("nanquantile")
def nanquantile(self: Tensor, q, dim=None, keepdim: bool = False, *,
                interpolation: str = "linear") -> Tensor:
    return _quantile(self, q, dim, keepdim, interpolation, True)


def _quantile(self: Tensor, q, dim, keepdim: bool, interpolation: str, ignore_nan: bool):
    """torch's composite: sort, gather the values at the ranks below and above, lerp between
    them, then put the quantiles' dimension first (in-place squeeze_/unsqueeze_/transpose_)."""
    name = "nanquantile" if ignore_nan else "quantile"
    if interpolation not in _MODES:
        raise RuntimeError(f"{name}() interpolation must be one of linear, lower, higher, "
                           f"midpoint or nearest, but got {interpolation}")
    scalar = not isinstance(q, Tensor)
    if scalar and not 0 <= q <= 1:
        raise RuntimeError(f"{name}() q must be in the range [0, 1] but got {q:g}")
    data = self._data
    if data.size == 0:
        raise RuntimeError(f"{name}() input tensor must be non-empty")
    if not scalar and q.ndim > 1:
        raise RuntimeError(f"{name}() q must be a scalar or 1D tensor")
    if data.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name}() input tensor must be either float or double dtype")
    if not scalar and q._data.dtype != data.dtype:
        raise RuntimeError(f"{name}() q tensor must be same dtype as the input tensor")
    levels = np.asarray(q, data.dtype).reshape(-1) if scalar else q._data.reshape(-1)
    if not scalar and not np.all((levels >= 0) & (levels <= 1)):
        raise RuntimeError(f"{name}() q values must be in the range [0, 1]")
    shape = _quantile_shape(self, dim, keepdim)
    if dim is None:
        ordered = sort(flatten(self)).values
    else:
        dim = _wrap_dim(dim, self.ndim)
        ordered = sort(self if dim == self.ndim - 1 else
                       transpose(unsqueeze(self, -1), dim, -1)).values
    ordered = view(ordered, *shape, ordered.shape[-1] if ordered.ndim else 1)
    ranks = _ranks(ordered._data, levels, ignore_nan, interpolation)
    below = ranks.astype(np.int64)
    result = gather(ordered, -1, _make(below))
    if interpolation in ("linear", "midpoint"):
        weights = np.full_like(ranks, 0.5) if interpolation == "midpoint" else \
            ranks - below.astype(ranks.dtype)
        above = gather(ordered, -1, _make(np.ceil(ranks).astype(np.int64)))
        result = result.lerp(above, _make(weights))
    if scalar:
        return squeeze_to(result, result.shape[:-1], "squeeze_dims")
    first = output("selection_unsqueeze_", np.expand_dims(result._data, 0), (result,), (0,))
    first = output("transpose_", np.swapaxes(first._data, 0, -1), (first,), (0, -1))
    return squeeze_to(first, first.shape[:-1], "squeeze_dims")


def _quantile_shape(self: Tensor, dim, keepdim: bool) -> tuple:
    """The result's shape without the quantiles' dimension (torch's out_shape)."""
    if dim is not None and self.ndim:
        dim = _wrap_dim(dim, self.ndim)
        shape = list(self.shape)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
        return tuple(shape)
    return (1,) * self.ndim if keepdim else ()


def _ranks(ordered: np.ndarray, levels: np.ndarray, ignore_nan: bool, interpolation: str):
    """Each quantile's (fractional) position in the sorted rows, in the input's dtype: NaN
    rows at the end (quantile), or ranks among the values that are not NaN (nanquantile)."""
    number = ordered.dtype.type
    nans = np.isnan(ordered)
    if ignore_nan:
        valid = (~nans).sum(-1, keepdims=True) - 1
        ranks = levels * valid.astype(ordered.dtype)
        ranks = np.where(ranks < 0, number(0), ranks)
    else:
        last = number(ordered.shape[-1] - 1)
        ranks = np.where(nans.any(-1, keepdims=True), last, levels * last)
    if interpolation == "lower":
        ranks = np.floor(ranks)
    elif interpolation == "higher":
        ranks = np.ceil(ranks)
    elif interpolation == "nearest":
        ranks = np.round(ranks)  # half to even, as torch's round_
    return np.array(ranks, ordered.dtype, order="C")


# ----- NaN-aware sums, extremes, spread -------------------------------------------------------
@binds("nansum")
def nansum(self: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """sum with NaNs counted as 0 (added in torch's order, as sum's)."""
    data = self._data
    target = dtype.numpy if dtype is not None else \
        np.dtype(np.int64) if data.dtype.kind in "biu" else data.dtype
    clean = np.where(np.isnan(data), 0, data) if data.dtype.kind == "f" else data
    clean = clean.astype(target, copy=False)
    dims = reduced_dims(dim, data.ndim)
    if dims is None or len(dims) == data.ndim:
        total = whole_sum(clean)
        if total is None:
            total = np.sum(clean, dtype=target)
        result = np.asarray(total, target).reshape((1,) * data.ndim if keepdim else ())
    else:
        rows = dim_sums(np.ascontiguousarray(clean), dims)  # (torch's order of adding)
        result = np.sum(clean, axis=dims, keepdims=keepdim, dtype=target) if rows is None \
            else rows.reshape(_reduced(data.shape, dims, keepdim))
        result = np.array(result, order="C")
    return output("nansum", result, (self,), (self, dims, keepdim))


@binds("nanmean")
def nanmean(self: Tensor, dim=None, keepdim: bool = False, *, dtype=None) -> Tensor:
    """nansum over the count of values that are not NaN (torch's composite: DivBackward0)."""
    data = self._data
    if data.dtype.kind not in "fc":
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype "
                           f"but got {type_name(data.dtype)}")
    dims = reduced_dims(dim, data.ndim)
    counted = np.sum(~np.isnan(data), axis=dims, keepdims=keepdim)
    return nansum(self, dim, keepdim, dtype=dtype) / _make(np.asarray(counted, np.int64))


@binds("aminmax")
def aminmax(self: Tensor, *, dim=None, keepdim: bool = False):
    """min and max together, one AminmaxBackward0 node for both."""
    data = self._data
    if dim is None:
        if data.size == 0:
            raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as "
                               "the operation has no identity.")
        dims, axis = None, None
    else:
        axis = _wrap_dim(dim, data.ndim)
        dims = (axis,)
        if data.ndim and data.shape[axis] == 0:
            raise IndexError(f"aminmax: Expected reduction dim {axis} to have non-zero size.")
        axis = axis if data.ndim else None
    low = np.min(data, axis=axis, keepdims=keepdim) if data.size else \
        np.empty(_reduced(data.shape, axis, keepdim), data.dtype)
    high = np.max(data, axis=axis, keepdims=keepdim) if data.size else low.copy()
    outputs = [_make(np.array(low, order="C")), _make(np.array(high, order="C"))]
    record_several("aminmax", outputs, (self,), (self, dims, keepdim, RESULT, outputs[1]))
    return return_aminmax(*outputs)


def _reduced(shape: tuple, axes, keepdim: bool) -> tuple:
    """The shape left by reducing ``axes`` (one or several)."""
    axes = (axes,) if isinstance(axes, int) else axes
    if keepdim:
        return tuple(1 if d in axes else side for d, side in enumerate(shape))
    return tuple(side for d, side in enumerate(shape) if d not in axes)


def _register() -> None:
    for helper in KIT_HELPERS:
        setattr(Kit, helper.__name__, helper)


_register()
