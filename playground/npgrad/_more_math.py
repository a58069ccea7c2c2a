"""More of torch's math: cumulative ops (cumprod, cummax, logcumsumexp, diff, trapezoid),
stacking and splitting, rot90, block_diag, the diagonals and vander, with torch's names and
nodes; special functions, products and more linear algebra in _more_math_linalg.py."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._arithmetic import logical_xor, mul_scalar
from ._bindings import binds
from ._cumprod_grad import cumprod_grad
from ._formula_kit import writable_diagonal
from ._recording import RESULT, output
from ._reductions import _return_type, _scalar_type, _sum_dtype, cumsum
from ._reductions import sum as _sum
from ._shapes import (
    cat,
    contiguous,
    flip,
    reshape,
    select,
    sliced,
    transpose,
    unsqueeze,
    view,
)
from ._slicing import narrow
from ._summation_order import running_products
from ._tensor import Tensor, _wrap_dim

_make = Tensor._make
_cummax_result = _return_type("cummax")
_cummin_result = _return_type("cummin")


# ----- cumulative ops ---------------------------------------------------------------------------
def _needs_dim(op: str, dim) -> None:
    if dim is None:  # torch's argument parser's words
        raise TypeError(f'{op}() missing 1 required positional arguments: "dim"')


@binds("cumprod")
def cumprod(self: Tensor, dim=None, *, dtype=None) -> Tensor:
    _needs_dim("cumprod", dim)
    data = self._data
    dim = _wrap_dim(dim, data.ndim)
    target = dtype.numpy if dtype is not None else _sum_dtype(self)
    values = running_products(data, dim, target) if data.ndim else data.astype(
        target or data.dtype)
    return output("cumprod", np.asarray(values), (self,), (self, dim, RESULT))


def _running_extreme(op: str, named, larger: bool):
    """cummax and cummin: the running extreme and where it was last reached (a NaN wins and
    stays, as in torch's kernel); the gradient goes back to those places."""

    def running(self: Tensor, dim=None):
        _needs_dim(op, dim)
        data = self._data
        dim = _wrap_dim(dim, data.ndim)
        if data.ndim == 0 or data.size == 0:
            indices = np.zeros(data.shape, np.int64)
            return named(output(op, data.copy(), (self,), (data.shape, dim, indices)),
                         _make(indices))
        moved = np.moveaxis(data, dim, -1)
        values, indices = np.empty_like(moved), np.zeros(moved.shape, np.int64)
        best, where = moved[..., 0], np.zeros(moved.shape[:-1], np.int64)
        floats = data.dtype.kind in "fc"
        for j in range(moved.shape[-1]):
            item = moved[..., j]
            better = item >= best if larger else item <= best
            if floats:
                better = np.isnan(item) | (~np.isnan(best) & better)
            best, where = np.where(better, item, best), np.where(better, j, where)
            values[..., j], indices[..., j] = best, where
        values, indices = np.moveaxis(values, -1, dim), np.moveaxis(indices, -1, dim)
        result = output(op, np.ascontiguousarray(values), (self,), (data.shape, dim, indices))
        return named(result, _make(np.ascontiguousarray(indices)))

    running.__name__ = op
    return binds(op)(running)


cummax = _running_extreme("cummax", _cummax_result, True)
cummin = _running_extreme("cummin", _cummin_result, False)


@binds("logcumsumexp")
def logcumsumexp(self: Tensor, dim=None) -> Tensor:
    _needs_dim("logcumsumexp", dim)
    data = self._data
    if data.dtype.kind not in "fc":
        raise NotImplementedError(f'"logcumsumexp_out_cpu" not implemented for '
                                  f"'{_scalar_type(data.dtype)}'")
    dim = _wrap_dim(dim, data.ndim)
    values = np.logaddexp.accumulate(data, axis=dim) if data.ndim else data.copy()
    return output("logcumsumexp", np.asarray(values, data.dtype), (self,), (self, RESULT, dim))


def _logcumsumexp_of(k, value, dim):
    if isinstance(value, Tensor):
        return logcumsumexp(value, dim)
    return np.logaddexp.accumulate(value, axis=dim)


def logcumsumexp_grad(k, grad, self, result, dim):
    """torch's logcumsumexp_backward: the positive and the negative parts of the gradient,
    each summed in log space from the end."""
    if len(grad.shape) == 0:
        return grad
    lowest = float(np.finfo((grad._data if isinstance(grad, Tensor) else grad).dtype).min)

    def reverse(value):
        return k.flip(_logcumsumexp_of(k, k.flip(value, (dim,)), dim), (dim,))

    with np.errstate(divide="ignore", over="ignore"):  # (log 0, lowest - result: -inf)
        log_abs = k.log(k.abs(grad))
        positive = k.exp(reverse(k.where(grad > 0, log_abs, lowest) - result) + self)
        negative = k.exp(reverse(k.where(grad < 0, log_abs, lowest) - result) + self)
        return positive - negative


@binds("diff")
def diff(self: Tensor, n: int = 1, dim: int = -1, prepend=None, append=None) -> Tensor:
    """Differences of neighbours along ``dim``, ``n`` times: torch's narrows and a sub (a
    logical xor for bools), after cat of ``prepend`` and ``append``."""
    if self.ndim < 1:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    dim = _wrap_dim(dim, self.ndim)
    for other in (prepend, append):
        if other is None:
            continue
        if other.ndim != self.ndim:
            raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        for i in range(self.ndim):
            if i != dim and other.shape[i] != self.shape[i]:
                raise RuntimeError(
                    "diff expects the shape of tensor to prepend or append to match that of "
                    f"input except along the differencing dimension; input.size({i}) = "
                    f"{self.shape[i]}, but got tensor.size({i}) = {other.shape[i]}")
    if n == 0:  # torch's zeros_like and copy_
        return _make(np.zeros_like(self._data)).copy_(self)
    if prepend is not None or append is not None:
        self = cat([t for t in (prepend, self, append) if t is not None], dim)
    length = self.shape[dim] - 1
    for _ in range(min(n, self.shape[dim])):
        later, earlier = narrow(self, dim, 1, length), narrow(self, dim, 0, length)
        self = logical_xor(later, earlier) if self.dtype == dtypes.bool else later - earlier
        length -= 1
    return self


def _float_samples(y: Tensor) -> Tensor:
    if y.dtype == dtypes.bool:
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    return y if y._data.dtype.kind in "fc" else y.to(dtypes.get_default_dtype())


def _spacing(y: Tensor, x: Tensor, dim: int) -> Tensor:
    """x's differences along ``dim``, x viewed to broadcast against y's (torch's x_viewed)."""
    if x.ndim == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        shape = [1] * y.ndim
        shape[dim] = x.shape[0]
        x = view(x, tuple(shape))
    elif x.ndim < y.ndim:
        x = view(x, (1,) * (y.ndim - x.ndim) + tuple(x.shape))
    return _slice(x, dim, 1, None) - _slice(x, dim, 0, -1)


def _slice(t: Tensor, dim: int, start, end) -> Tensor:
    """torch's t.slice(dim, start, end): bounds wrapped and clamped as its slice is."""
    size = t.shape[dim]
    start, end = start or 0, size if end is None else end
    start, end = (min(max(b + size if b < 0 else b, 0), size) for b in (start, end))
    return sliced(t, dim, start, max(end, start), 1)


@binds("trapezoid", "trapz", method=False)
def trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    """The trapezoid rule along ``dim``: with a spacing dx, (Σy - (y₀ + yₙ)/2)·dx; with
    sample points x, Σ (x_{i+1} - x_i)(y_i + y_{i+1}) / 2 (torch's ops for each)."""
    dim = _wrap_dim(dim, y.ndim)
    if isinstance(x, Tensor):
        y = _float_samples(y)
        return divide_by_number(_sum((_slice(y, dim, 0, -1) + _slice(y, dim, 1, None))
                                     * _spacing(y, x, dim), dim), 2.0)
    spacing = 1 if dx is None and x is None else dx if dx is not None else x
    y = _float_samples(y)
    ends = select(y, dim, 0) + select(y, dim, -1)
    return mul_scalar(_sum(y, dim) - mul_scalar(ends, 0.5), float(spacing))


@binds("cumulative_trapezoid", method=False)
def cumulative_trapezoid(y: Tensor, x=None, *, dx=None, dim: int = -1) -> Tensor:
    dim = _wrap_dim(dim, y.ndim)
    y = _float_samples(y)
    pairs = _slice(y, dim, 0, -1) + _slice(y, dim, 1, None)
    if isinstance(x, Tensor):
        return divide_by_number(cumsum(_spacing(y, x, dim) * pairs, dim), 2.0)
    spacing = 1 if dx is None and x is None else dx if dx is not None else x
    return cumsum(mul_scalar(pairs, float(spacing) / 2.0), dim)


def divide_by_number(self: Tensor, number: float) -> Tensor:
    """torch's div(Tensor, Scalar), what its C++ composites record (DivBackward1)."""
    data = self._data
    return output("div_by_number", data / np.asarray(number, data.dtype), (self,), (number,))


def divided(k, grad, number):
    return divide_by_number(grad, number) if isinstance(grad, Tensor) else grad / number


def scaled(k, grad, number):
    """``grad * number`` as torch's maybe_multiply: nothing recorded for 1 (MulBackward1)."""
    return grad if number == 1 else k.times(grad, number)


# ----- stacking, splitting, rotating -------------------------------------------------------------
def _rotated(data: np.ndarray, turns: int, dim0: int, dim1: int) -> np.ndarray:
    """torch's rot90 kernel: flips and a transpose of the copy (a transposed result)."""
    turns %= 4
    if turns == 1:
        return np.swapaxes(np.flip(data, dim1).copy(), dim0, dim1)
    if turns == 3:
        return np.swapaxes(np.flip(data, dim0).copy(), dim0, dim1)
    return np.flip(data, (dim0, dim1)).copy() if turns == 2 else data.copy()


@binds("rot90")
def rot90(self: Tensor, k: int = 1, dims=(0, 1)) -> Tensor:
    dims, ndim = list(dims), self.ndim
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if ndim < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {ndim}")
    given, dims = dims, (_wrap_dim(dims[0], ndim), _wrap_dim(dims[1], ndim))
    if dims[0] == dims[1]:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {given[0]} "
                           f"and dim1 = {given[1]}")
    return output("rot90", _rotated(self._data, k, *dims), (self,), (k, dims))


def _rot90_of(k, grad, turns, dims):
    return rot90(grad, turns, dims) if isinstance(grad, Tensor) else _rotated(grad, turns, *dims)


def _at_least(count: int):
    """atleast_1d/2d/3d: a number reshaped, a vector unsqueezed in front (and behind for 3d),
    a matrix unsqueezed behind for 3d; one tensor, or a tuple for several."""

    def raised(t: Tensor) -> Tensor:
        if t.ndim >= count:
            return t
        if t.ndim == 0:
            return reshape(t, (1,) * count)
        if t.ndim == 2:
            return unsqueeze(t, -1)
        return unsqueeze(unsqueeze(t, 0), -1) if count == 3 else unsqueeze(t, 0)

    def at_least(*tensors):
        if len(tensors) == 1:
            tensors = tensors[0]
        if isinstance(tensors, Tensor):
            return raised(tensors)
        return tuple(raised(t) for t in tensors)

    at_least.__name__ = f"atleast_{count}d"
    return binds(at_least.__name__, method=False)(at_least)


atleast_1d, atleast_2d, atleast_3d = _at_least(1), _at_least(2), _at_least(3)


def _stacker(name: str, join):
    def stack(tensors) -> Tensor:
        tensors = list(tensors)
        if not tensors:
            raise RuntimeError(f"{name} expects a non-empty TensorList")
        return join(tensors)

    stack.__name__ = name
    return stack


def _hstack(tensors: list) -> Tensor:
    tensors = atleast_1d(tensors)
    return cat(tensors, 0 if tensors[0].ndim == 1 else 1)


hstack = binds("hstack", method=False)(_stacker("hstack", _hstack))
vstack = binds("vstack", "row_stack", method=False)(
    _stacker("vstack", lambda tensors: cat(atleast_2d(tensors), 0)))
dstack = binds("dstack", method=False)(
    _stacker("dstack", lambda tensors: cat(atleast_3d(tensors), 2)))
column_stack = binds("column_stack", method=False)(_stacker("column_stack", lambda tensors: _hstack(
    [reshape(t, (t.numel(), 1)) if t.ndim <= 1 else t for t in tensors])))


@binds("tensor_split")
def tensor_split(self: Tensor, indices_or_sections, dim: int = 0) -> tuple[Tensor, ...]:
    """Slices along ``dim``: n nearly equal sections (the first ones one longer), or the
    pieces between the indices given (each its own SliceBackward0, as in torch)."""
    if self.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a "
                           "tensor with 0 dims")
    dim = _wrap_dim(dim, self.ndim)
    if isinstance(indices_or_sections, Tensor):
        indices_or_sections = indices_or_sections.tolist()
    size = self.shape[dim]
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if sections <= 0:
            raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
        base, extra = divmod(size, sections)
        ends = np.cumsum([base + (i < extra) for i in range(sections)]).tolist()
        starts = [0, *ends[:-1]]
    else:
        starts, ends = [0, *indices_or_sections], [*indices_or_sections, size]
    return tuple(_slice(self, dim, start, end) for start, end in zip(starts, ends, strict=True))


def _split_along(name: str, least: int, dim_of):
    def split(self: Tensor, indices_or_sections) -> tuple[Tensor, ...]:
        if self.ndim < least:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {least} dimension, "
                               f"but got a tensor with {self.ndim} dimensions!")
        dim = dim_of(self.ndim)
        if isinstance(indices_or_sections, int):
            size = self.shape[dim]
            if indices_or_sections == 0 or size % indices_or_sections:
                raise RuntimeError(
                    f"torch.{name} attempted to split along dimension {dim}, but the size of "
                    f"the dimension {size} is not divisible by the split_size "
                    f"{indices_or_sections}!")
        return tensor_split(self, indices_or_sections, dim)

    split.__name__ = name
    return binds(name)(split)


hsplit = _split_along("hsplit", 1, lambda ndim: 0 if ndim == 1 else 1)
vsplit = _split_along("vsplit", 2, lambda ndim: 0)
dsplit = _split_along("dsplit", 3, lambda ndim: 2)


@binds("block_diag", method=False)
def block_diag(*tensors) -> Tensor:
    """The tensors (numbers and vectors as one-row matrices) along the diagonal of one."""
    for number, tensor in enumerate(tensors):
        if tensor.ndim > 2:
            raise RuntimeError("torch.block_diag: Input tensors must have 2 or fewer dimensions. "
                               f"Input {number} has {tensor.ndim} dimensions")
    if not tensors:  # (torch's: one row of no columns)
        return _make(np.zeros((1, 0), dtypes.get_default_dtype().numpy))
    shapes = [(1,) * (2 - t.ndim) + tuple(t.shape) for t in tensors]
    target = dtypes.get_default_dtype()
    for number, tensor in enumerate(tensors):
        target = tensor.dtype if number == 0 else dtypes.promote_types(target, tensor.dtype)
    ends = np.cumsum([(0, 0)] + shapes, axis=0).tolist()
    rows = tuple((ends[i][0], ends[i + 1][0]) for i in range(len(tensors)))
    cols = tuple((ends[i][1], ends[i + 1][1]) for i in range(len(tensors)))
    result = np.zeros(tuple(ends[-1]), target.numpy)
    for tensor, shape, row, col in zip(tensors, shapes, rows, cols, strict=True):
        result[row[0]:row[1], col[0]:col[1]] = tensor._data.reshape(shape)
    return output("block_diag", result, tuple(tensors), (rows, cols))


def block_piece(k, grad, rows, cols):
    return k.slice(k.slice(grad, 0, rows[0], rows[1], 1), 1, cols[0], cols[1], 1)


# ----- diagonals --------------------------------------------------------------------------------
@binds("diag_embed")
def diag_embed(self: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    """The last dimension put on the (dim1, dim2) diagonals of zeros (offset above it)."""
    ndim = self.ndim + 1
    first, second = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
    if first == second:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    data = self._data
    size = data.shape[-1] + abs(offset)
    leading = iter(data.shape[:-1])
    shape = tuple(size if axis in (first, second) else next(leading) for axis in range(ndim))
    result = np.zeros(shape, data.dtype)
    writable_diagonal(result, offset, first, second)[...] = data
    return output("diag_embed", result, (self,), (offset, first, second))


@binds("diag")
def diag(self: Tensor, diagonal: int = 0) -> Tensor:
    """A vector on a matrix's diagonal (diag_embed), or a matrix's diagonal (a copy)."""
    if self.ndim == 1:
        return diag_embed(self, diagonal, 0, 1)
    if self.ndim != 2:
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.ndim}D")
    values = np.diagonal(self._data, diagonal).copy()
    return output("diag_copy", values, (self,), (self._data.shape, diagonal))


@binds("diagflat")
def diagflat(self: Tensor, offset: int = 0) -> Tensor:
    return diag(view(contiguous(self), (-1,)), offset)


@binds("swapaxes", method=False)
@binds("swapdims")
def swapdims(self: Tensor, dim0: int, dim1: int) -> Tensor:
    return transpose(self, dim0, dim1)


@binds("narrow_copy")
def narrow_copy(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    size = self.shape[dim]
    start = start + size if start < 0 else start
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    data = self._data[(slice(None),) * dim + (slice(start, start + length),)].copy()
    return output("narrow_copy", data, (self,), (self._data.shape, dim, start, start + length))


@binds("vander", method=False)
def vander(x: Tensor, N=None, increasing: bool = False) -> Tensor:
    """Columns of powers of x (highest first unless ``increasing``): ones, x, then a cumprod
    written into the columns, as torch fills them."""
    if x.ndim != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    target = dtypes.promote_types(x.dtype, dtypes.int64)
    result = Tensor._make(np.empty((x.shape[0], n), target.numpy))
    if n > 0:
        result.fill_(1)  # (in place, as torch's: each write counts in its version)
    if n > 1:
        result[:, 1:] = unsqueeze(x, 1)
        result[:, 1:] = cumprod(result[:, 1:], 1)
    return result if increasing else flip(result, 1)


def _register() -> None:
    from ._formula_kit import Kit
    from ._pointwise import clamp_high_grad, clamp_low_grad

    Kit.cumprod_grad, Kit.logcumsumexp_grad = cumprod_grad, logcumsumexp_grad
    Kit.divided, Kit.scaled = divided, scaled
    Kit.rot90, Kit.block_piece = _rot90_of, block_piece
    Kit.clamp_low_grad, Kit.clamp_high_grad = clamp_low_grad, clamp_high_grad  # (_pointwise's)


_register()

# their @binds: products and torch.linalg's; lgamma, digamma, polygamma...
from . import _complex, _everyday_ops, _gamma, _masked, _more_math_linalg  # noqa: E402, F401, I001
from . import _outer_and_renorm, _special_functions, _torch_calls, _view_scatters  # noqa: E402, F401, I001
