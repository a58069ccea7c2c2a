"""Reductions (sum, mean, max, norm, var, ...), sorting, softmax and cumulative sums."""

from __future__ import annotations

import math
import warnings
from collections import namedtuple

import numpy as np

from . import _tie_order
from ._arithmetic import maximum, minimum
from ._autocast import full_precision
from ._bindings import binds
from ._dtype import holds_floats, scalar_type_name
from ._kernel_exp import softmax_exp, softmax_log
from ._numerics import safe_softmax_values
from ._operands import floating, operands
from ._pointwise import UNARY
from ._recording import RESULT, output
from ._softmax_rows import log_softmax_rows
from ._strides import like_input, row_major
from ._summation_order import (
    dim_sums,
    over_nothing,
    row_products,
    running_sums,
    softmax_values,
    trailing_norm_squares,
    variance_values,
    whole_sum,
)
from ._tensor import Tensor, _wrap_dim
from ._user_warnings import warn_at_user_code

_make = Tensor._make


def _return_type(name: str, fields: tuple[str, ...] = ("values", "indices")):
    """torch.return_types.<name>: a named tuple with torch's repr (max/min: values, indices)."""

    def text(self) -> str:
        parts = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self,
                                                                         strict=True))
        return f"torch.return_types.{name}(\n{parts})"

    return type(name, (namedtuple(name, list(fields)),),
                {"__slots__": (), "__repr__": text, "__str__": text,
                 "__module__": "torch.return_types"})


return_max = _return_type("max")
return_min = _return_type("min")
return_sort = _return_type("sort")
return_topk = _return_type("topk")


def _dims(dim, ndim: int) -> tuple[int, ...] | None:
    if dim is None:
        return None
    if isinstance(dim, int):
        dim = (dim,)
    dims = tuple(sorted(_wrap_dim(d, ndim) for d in dim))
    return dims if ndim else ()  # (a 0-d tensor's dim 0 is itself: nothing to reduce)


def _sum_dtype(self: Tensor):
    kind = self._data.dtype.kind
    return np.int64 if kind in "biu" else None


@binds("sum")
def sum(self: Tensor, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    data = self._data
    target = dtype.numpy if dtype is not None else _sum_dtype(self)
    if dim is None or (isinstance(dim, list | tuple) and len(dim) == 0):
        result = whole_sum(data) if target is None else None  # torch's order of adding
        if result is None:
            result = np.sum(data, dtype=target)
        return output("sum", result, (self,), (data.shape,), typed=dtype is not None)
    dims = _dims(dim, data.ndim)
    total = whole_sum(data) if target is None and len(set(dims)) == data.ndim else None
    rows = dim_sums(data, dims) if target is None and total is None else None
    if total is not None:
        result = np.asarray(total).reshape((1,) * data.ndim if keepdim else ())
    elif rows is not None:  # each row in torch's order of adding
        result = _kept(rows, data.shape, dims, keepdim)
    else:
        # (C order, as torch's results are: NumPy keeps a permuted input's order, and then a
        # later reshape of it would be a view where torch's is not)
        result = np.asarray(np.sum(data, axis=dims, keepdims=keepdim, dtype=target), order="C")
    return output("sum_dim", result, (self,), (data.shape, dims, keepdim), typed=bool(dtype))


@binds("mean")
def mean(self: Tensor, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    data = self._data
    if not holds_floats(data) and dtype is None:  # (bfloat16's: refused as it's read)
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {_scalar_type(data.dtype)}"
        )
    data = data if dtype is None else data.astype(dtype.numpy)
    if dim is None:
        # torch's mean is its sum divided by the count, in the tensor's dtype
        result = _mean_values(data) if data.size else over_nothing(data, None, False)
        return output("mean", result, (self,), (data.shape, data.size), typed=dtype is not None)
    dims = _dims(dim, data.ndim)
    count = int(np.prod([data.shape[d] for d in dims]))
    rows = dim_sums(data, dims)
    result = over_nothing(data, dims, keepdim) if not count else \
        np.mean(data, axis=dims, keepdims=keepdim, dtype=data.dtype) if rows is None else \
        _kept(rows / data.dtype.type(count), data.shape, dims, keepdim)
    return output("mean_dim", row_major(result), (self,), (data.shape, dims, keepdim, count),
                  typed=dtype is not None)


def _kept(values: np.ndarray, shape: tuple, dims: tuple, keepdim: bool) -> np.ndarray:
    """A reduction's values (reduced dims removed) with them back as ones for keepdim."""
    if not keepdim:
        return values
    return values.reshape(tuple(1 if d in dims else side for d, side in enumerate(shape)))


def _mean_values(data: np.ndarray) -> np.ndarray:
    """torch's mean of all of ``data``: its sum (in torch's order) over the count."""
    total = whole_sum(data)
    return np.mean(data, dtype=data.dtype) if total is None else \
        total / data.dtype.type(data.size)


@binds("prod")
@full_precision
def prod(self: Tensor, dim=None, keepdim=False) -> Tensor:
    data = self._data
    target = _sum_dtype(self)
    if dim is None:
        whole = row_products(data.reshape(-1)) if data.flags.c_contiguous else None
        result = np.prod(data, dtype=target) if whole is None else whole  # (torch's order)
        return output("prod", result, (self,), (self, RESULT))
    dim = _wrap_dim(dim, data.ndim)
    last = dim == data.ndim - 1 and data.flags.c_contiguous
    rows = row_products(data) if last else None
    result = np.prod(data, axis=dim, keepdims=keepdim, dtype=target) if rows is None else \
        (np.expand_dims(rows, dim) if keepdim else rows)
    return output("prod_dim", result, (self,), (self, dim, keepdim, RESULT))


def _extreme(op: str, reduce, arg_reduce, named):
    def extreme(self: Tensor, dim=None, keepdim=False):
        data = self._data
        if isinstance(dim, Tensor):
            return (maximum if op == "max" else minimum)(self, dim)
        if dim is None:
            if data.size == 0:
                raise RuntimeError(
                    f"{op}(): Expected reduction dim to be specified for input.numel() == 0. "
                    "Specify the reduction dim with the 'dim' argument."
                )
            return output(op, reduce(data), (self,), (self, RESULT))
        dim = _wrap_dim(dim, data.ndim)
        if not data.ndim:  # a 0-d tensor is its own extreme, at index 0
            return named(output(f"{op}_dim", data.copy(), (self,), ((1,), 0, True, np.zeros(
                (1,), np.int64))), _make(np.zeros((), np.int64)))
        indices = arg_reduce(data, axis=dim, keepdims=keepdim)
        values = np.take_along_axis(
            data, indices if keepdim else np.expand_dims(indices, dim), axis=dim
        )
        if not keepdim:
            values = np.squeeze(values, axis=dim)
        result = output(f"{op}_dim", values, (self,), (data.shape, dim, keepdim, indices))
        return named(result, _make(np.asarray(indices, dtype=np.int64)))

    extreme.__name__ = op
    return binds(op)(extreme)


max = _extreme("max", np.max, np.argmax, return_max)
min = _extreme("min", np.min, np.argmin, return_min)


def _position(function):
    """argmax and argmin: int64 indices, never recorded."""

    def position(self: Tensor, dim=None, keepdim=False) -> Tensor:
        if dim is None:
            return _make(np.asarray(function(self._data), dtype=np.int64))
        return _make(np.asarray(function(self._data, axis=dim, keepdims=keepdim), dtype=np.int64))

    position.__name__ = function.__name__
    return binds(function.__name__)(position)


argmax = _position(np.argmax)
argmin = _position(np.argmin)


@binds("norm")
def norm(self: Tensor, p="fro", dim=None, keepdim=False) -> Tensor:
    """Vector norm over ``dim`` (all elements by default), torch's LinalgVectorNormBackward0."""
    order = 2 if p in ("fro", None) else p
    data = self._data
    if data.dtype.kind not in "fc":
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as "
                           f"input. Got {_scalar_type(data.dtype)}")
    dims = _dims(dim, data.ndim)
    result = _vector_norm(data, order, dims, keepdim)
    return output("norm", result, (self,), (self, order, dims, keepdim, RESULT))


@binds("trace")
@full_precision
def trace(self: Tensor) -> Tensor:
    """The sum of a matrix's diagonal, torch's TraceBackward0: added one by one in float64
    (integers in int64), as torch's CPU kernel does, then rounded once."""
    data = self._data
    if data.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {data.ndim}")
    if data.dtype == np.bool_:
        raise NotImplementedError('"trace" not implemented for \'Bool\'')
    diagonal = np.diagonal(data)
    wide = np.complex128 if data.dtype.kind == "c" else \
        np.float64 if data.dtype.kind == "f" else np.int64
    total = np.cumsum(diagonal, dtype=wide)[-1] if diagonal.size else wide(0)
    result = np.asarray(total, dtype=data.dtype if data.dtype.kind in "fc" else np.int64)
    return output("trace", result, (self,), (data.shape,))


@binds("dist")
def dist(self: Tensor, other: Tensor, p=2) -> Tensor:
    """The p-norm of ``self - other`` over all their elements, torch's DistBackward0 (its
    forward is linalg_vector_norm of the difference)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"dist(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    a, b = operands(self, other)
    if a.dtype.kind not in "fc":
        raise RuntimeError("norm(): input dtype should be either floating point or complex. "
                           f"Got {_scalar_type(a.dtype)} instead.")
    result = _vector_norm(a - b, p, None, False)
    return output("dist", result, (self, other), (self, other, p, RESULT))


_scalar_type = scalar_type_name  # (the name its callers import it by)


def _vector_norm(data: np.ndarray, order, axis, keepdim: bool) -> np.ndarray:
    """linalg_vector_norm's values: inf/-inf the largest/smallest magnitude, 0 the count of
    non-zeros, else (Σ|x|^p)^(1/p)."""
    magnitude = np.abs(data)
    if order == math.inf:
        result = np.max(magnitude, axis=axis, keepdims=keepdim)
    elif order == -math.inf:
        result = np.min(magnitude, axis=axis, keepdims=keepdim)
    elif order == 0:
        result = np.sum(magnitude != 0, axis=axis, keepdims=keepdim)
    elif order == 1:
        result = _sum_of_powers(data, magnitude, order, axis, keepdim)
    elif order == 2:
        result = np.sqrt(_sum_of_powers(data, magnitude, order, axis, keepdim))
    elif data.dtype in (np.float32, np.float64):
        result = _powered(_sum_of_powers(data, magnitude, order, axis, keepdim),
                          data.dtype.type(1.0 / order))
    else:
        result = np.sum(magnitude**order, axis=axis, keepdims=keepdim) ** (1.0 / order)
    return np.asarray(result, dtype=magnitude.dtype)


def power_sum(data: np.ndarray, order) -> np.ndarray:
    """Σ|x|^p over every element of a float tensor, added as torch's norm kernels add it
    before their root (torch._foreach_powsum's values: |0|^0 counts 1, a negative or infinite
    p no extreme)."""
    magnitude = np.abs(data)
    with np.errstate(divide="ignore", over="ignore"):
        total = _sum_of_powers(data, magnitude, order, None, False)
    return np.asarray(total, dtype=magnitude.dtype)


def _sum_of_powers(data: np.ndarray, magnitude: np.ndarray, order, axis,
                   keepdim: bool) -> np.ndarray:
    """Σ|x|^p over ``axis`` (None: all) of a float32 or float64 ``data`` (``magnitude`` its
    |x|) in torch's norm kernels' order: p = 2 as its sums of squares, else added one by one."""
    if order == 1:
        return _running_total(magnitude, axis, keepdim)
    if order == 2:
        squares = trailing_norm_squares(magnitude if data.dtype.kind == "c" else data, axis)
        if squares is None:
            squares = np.sum(magnitude * magnitude, axis=axis)
        if keepdim:
            squares = np.expand_dims(squares, tuple(range(data.ndim)) if axis is None else axis)
        return squares
    return _running_total(_powered(magnitude, magnitude.dtype.type(order)), axis, keepdim)


def _running_total(values: np.ndarray, axis, keepdim: bool) -> np.ndarray:
    """The sum over ``axis`` (None: all) added one element after another in memory order,
    as torch's serial reduction kernels add (norm's for p other than 2)."""
    dims = tuple(range(values.ndim)) if axis is None else tuple(axis)
    if not values.size or not dims:
        return np.sum(values, axis=dims, keepdims=keepdim)
    moved = np.moveaxis(values, dims, tuple(range(-len(dims), 0)))
    rows = moved.reshape(moved.shape[:values.ndim - len(dims)] + (-1,))
    total = np.cumsum(rows, axis=-1)[..., -1].copy()  # (C order, as a result of torch's)
    return np.expand_dims(total, dims) if keepdim else total


def _powered(values: np.ndarray, exponent) -> np.ndarray:
    """values ** exponent, a float32's in float64 rounded once (as C's powf rounds)."""
    if values.dtype == np.float32:
        return np.power(values.astype(np.float64), float(exponent)).astype(np.float32)
    return np.power(values, exponent)


def _correction(unbiased, correction) -> float:
    return correction if correction is not None else 1 if unbiased in (None, True) else 0


@binds("var")
def var(self: Tensor, dim=None, unbiased=None, keepdim=False, *, correction=None) -> Tensor:
    return _spread("var", np.var, self, dim, unbiased, keepdim, correction)


@binds("std")
def std(self: Tensor, dim=None, unbiased=None, keepdim=False, *, correction=None) -> Tensor:
    return _spread("std", np.std, self, dim, unbiased, keepdim, correction)


def _warn_no_degrees_of_freedom(op: str) -> None:
    warn_at_user_code(f"{op}(): degrees of freedom is <= 0. Correction should be strictly less "
                      "than the reduction factor (input numel divided by output numel). "
                      "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                      "ReduceOps.cpp:1861.)")


def _spread(op: str, function, self: Tensor, dim, unbiased, keepdim, correction) -> Tensor:
    """var and std: ``x.var(True)`` is ``unbiased``, not a dimension."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    data = self._data
    if not holds_floats(data):
        raise RuntimeError("std and var only support floating point and complex dtypes")
    dims = _dims(dim, data.ndim)
    correction = _correction(unbiased, correction)
    count = data.size if not dims else math.prod(data.shape[d] for d in dims)
    real = np.zeros((), data.dtype).real.dtype  # (a complex tensor's spread is real)
    if count - correction <= 0:
        _warn_no_degrees_of_freedom(op)
        result = over_nothing(data, dims, keepdim, count, correction).real.astype(real)
        result = np.sqrt(result) if op == "std" else result
    elif data.dtype in (np.float32, np.float64) and dims != ():  # torch's ways, in float64
        result = variance_values(data, dims, correction, keepdim, op == "std",
                                 lambda: _mean_values(data))
    else:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)  # (NumPy's own, said above)
            result = np.asarray(function(data, axis=dims, ddof=correction, keepdims=keepdim),
                                dtype=real)
    saved = (self, dims, correction, keepdim)
    return output(op, result, (self,), saved + (RESULT,) if op == "std" else saved)


def _extremes(op: str, function):
    """amax and amin: the gradient is shared evenly by the elements that reach the extreme."""

    def apply(self: Tensor, dim=(), keepdim=False) -> Tensor:
        dims = _dims(dim, self._data.ndim) or None  # () means every dimension, as None does
        if self._data.size == 0 and dims is None:
            raise IndexError(f"{op}(): Expected reduction dim to be specified for input.numel() "
                             "== 0. Specify the reduction dim with the 'dim' argument.")
        for empty in (d for d in dims or () if self._data.shape[d] == 0):
            raise IndexError(f"{op}(): Expected reduction dim {empty} to have non-zero size.")
        result = np.asarray(function(self._data, axis=dims, keepdims=keepdim))
        return output(op, result, (self,), (self, dims, keepdim, RESULT))

    apply.__name__ = op
    return binds(op)(apply)


amax = _extremes("amax", np.max)
amin = _extremes("amin", np.min)


@binds("logsumexp")
def logsumexp(self: Tensor, dim, keepdim=False) -> Tensor:
    data = floating(self)
    dims = _dims(dim, data.ndim)
    peak = np.max(data, axis=dims, keepdims=True, initial=-np.inf)  # (-inf over no elements)
    peak = np.where(np.isfinite(peak), peak, 0)  # all -inf (or an inf) stays exact
    exps = UNARY["exp"].on_arrays(data - peak)
    total = dim_sums(exps, dims)
    total = np.sum(exps, axis=dims) if total is None else total  # (torch's order of adding)
    result = UNARY["log"].on_arrays(np.asarray(total)) + np.squeeze(peak, axis=dims)
    if keepdim:
        result = np.expand_dims(result, dims)
    return output("logsumexp", np.asarray(result, dtype=data.dtype), (self,),
                  (self, dims, keepdim, RESULT))


@binds("cumsum")
def cumsum(self: Tensor, dim: int, *, dtype=None) -> Tensor:
    data = self._data
    dim = _wrap_dim(dim, data.ndim)
    target = dtype.numpy if dtype is not None else _sum_dtype(self)
    result = running_sums(data, dim, target) if data.ndim else data.astype(
        target or data.dtype)
    return output("cumsum", np.asarray(result), (self,), (dim,), typed=dtype is not None)


def _sorting_order(data: np.ndarray, dim: int, descending: bool,
                   stable: bool = True) -> np.ndarray:
    """Indices that sort ``data`` along ``dim``, NaN counting as largest; ties in their order
    (stable), or where torch's std::sort leaves them (_tie_order.py)."""
    if data.ndim == 0:
        return np.zeros((), np.int64)
    if not stable:
        return _tie_order.by_rows(data, dim, lambda row: _tie_order.sort_order(row, descending),
                                  lambda: _sorting_order(data, dim, descending))
    keys = np.moveaxis(data, dim, -1)
    if keys.dtype.kind in "bu":
        keys = keys.astype(np.int64)
    if descending:
        numbers = ~np.isnan(keys) if keys.dtype.kind == "f" else np.ones(keys.shape, bool)
        order = np.lexsort((-keys, numbers), axis=-1)  # NaN first, then largest first
    else:
        order = np.argsort(keys, axis=-1, kind="stable")
    return np.moveaxis(order, -1, dim).astype(np.int64)


def _picked(self: Tensor, op: str, order: np.ndarray, dim: int) -> Tensor:
    """The values at ``order`` along ``dim``, recorded so that gradients go back there."""
    data = self._data
    values = np.take_along_axis(data, order, axis=dim) if data.ndim else data.copy()
    return output(op, values, (self,), (data.shape, dim, order))


@binds("sort")
def sort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    dim = _wrap_dim(dim, self.ndim)
    order = _sorting_order(self._data, dim, descending, stable)
    return return_sort(_picked(self, "sort", order, dim), _make(like_input(order, self._data)))


@binds("argsort")
def argsort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    return _make(like_input(_sorting_order(self._data, _wrap_dim(dim, self.ndim), descending,
                                           stable), self._data))


@binds("topk")
def topk(self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    dim = _wrap_dim(dim, self.ndim)
    size = self._data.shape[dim] if self.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    data = self._data
    order = _sorting_order(data, dim, largest)
    order = np.take(order, np.arange(k), axis=dim) if self.ndim else order
    if k and self.ndim:  # rows with equal values: where torch's selection leaves them
        order = _tie_order.by_rows(
            data, dim, lambda row: _tie_order.topk_order(row, k, largest, sorted), lambda: order)
    return return_topk(_picked(self, "topk", order, dim), _make(order))


@binds("softmax")
def softmax(self: Tensor, dim: int, dtype=None) -> Tensor:
    data, dim = _over_classes(self, dim, dtype)
    result = softmax_values(data, dim, softmax_exp(data, dim))  # torch's order of adding
    return output("softmax", result, (self,), (RESULT, dim), typed=dtype is not None)


def safe_softmax(self: Tensor, dim: int) -> Tensor:
    """torch's ``_safe_softmax`` (attention's): a row that is all -inf gives 0s, not NaNs."""
    data, dim = _over_classes(self, dim, None)
    return output("safe_softmax", safe_softmax_values(data, dim), (self,), (RESULT, dim))


@binds("log_softmax")
def log_softmax(self: Tensor, dim: int, dtype=None) -> Tensor:
    data, dim = _over_classes(self, dim, dtype)
    result = log_softmax_rows(data, dim)  # (in C where it can be: the same bits)
    if result is None:
        result = softmax_values(data, dim, softmax_exp(data, dim), softmax_log)
    return output("log_softmax", result, (self,), (RESULT, dim), typed=dtype is not None)


def _over_classes(self: Tensor, dim: int, dtype) -> tuple[np.ndarray, int]:
    """softmax's values (in ``dtype`` if given, else floating) and its dimension."""
    data = floating(self) if dtype is None else self._data.astype(dtype.numpy)
    return data, _wrap_dim(dim, data.ndim)


@binds("all")
def all(self: Tensor, dim=None, keepdim=False) -> Tensor:
    return _make(np.asarray(np.all(self._data, axis=dim, keepdims=keepdim), order="C"))


@binds("any")
def any(self: Tensor, dim=None, keepdim=False) -> Tensor:
    return _make(np.asarray(np.any(self._data, axis=dim, keepdims=keepdim), order="C"))

