"""Arithmetic that keeps a sparse tensor sparse, as torch's sparse kernels do: times or divided
by a number or a dense tensor, negated, plus or minus another sparse tensor of its size. The
op is recorded as on a dense tensor (MulBackward0, NegBackward0...: the same node names and
dense values); the result gets its COO parts, and its gradient stays sparse
(_sparse_grads.SparseGradient). What else is done with a sparse tensor gives a dense one of
the same values (_sparse.py). Its class is a subclass of Tensor's, named as Tensor is, so
``type(s) is torch.Tensor`` is False where torch says True."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._sparse import COO, dense_of, parts, with_parts
from ._sparse_grads import sparse_sum_of
from ._tensor import SparseTensor, Tensor

_NUMBERS = (int, float, bool)

# op names (methods, and torch functions where torch has them) → what the COO values get
_SCALED = {"mul": np.multiply, "multiply": np.multiply, "__mul__": np.multiply,
           "__rmul__": np.multiply, "div": np.true_divide, "divide": np.true_divide,
           "true_divide": np.true_divide, "__truediv__": np.true_divide}
_NEGATED = ("neg", "negative", "__neg__")
_SUMMED = {"add": 1, "__add__": 1, "__radd__": 1, "sub": -1, "subtract": -1, "__sub__": -1}
# Python calls a subclass's reflected operator before the dense tensor's own (``dense * s``):
# the dense tensor's forward op is then what runs (its operand first, as torch records it)
_FORWARD_OF = {"__rmul__": "__mul__", "__radd__": "__add__"}


def _made_sparse(result: Tensor, coo: COO) -> Tensor:
    """``result`` (the op's dense values, recorded) as the sparse tensor of ``coo``: its dense
    values made from the rows again (where the op gave -0 or NaN between them, 0)."""
    result._data[...] = dense_of(coo, result._data.shape)
    return with_parts(result, coo)


def _refuse_dense_divisor(other) -> None:
    """torch's refusal: only a number or a 0-d tensor divides a sparse tensor."""
    if other._data.ndim:
        raise RuntimeError(f"Sparse division requires a scalar or zero-dim dense tensor divisor "
                           f"(got shape {list(other._data.shape)} for divisor)")


def _factor(other, shape: tuple, indices: np.ndarray):
    """What each stored row is multiplied or divided by: a number, or a dense tensor's
    elements at the row's coordinates."""
    if other.__class__ in _NUMBERS:
        return other
    data = other._data
    return data if not data.ndim else np.broadcast_to(data, shape)[tuple(indices)]


def _keeps_scaled(name: str, dense_op: Callable) -> Callable:
    ufunc, forward = _SCALED[name], _FORWARD_OF.get(name)

    def op(self, other, *rest, **options):
        coo = parts(self)
        dense_other = isinstance(other, Tensor) and parts(other) is None
        if coo is not None and dense_other and ufunc is np.true_divide:
            _refuse_dense_divisor(other)
        if forward is not None and isinstance(other, Tensor):
            result = getattr(Tensor, forward)(other, self)
        else:
            result = dense_op(self, other, *rest, **options)
        if (coo is None or not (other.__class__ in _NUMBERS or dense_other) or rest
                or options.get("rounding_mode") is not None
                or not isinstance(result, Tensor) or parts(result) is not None
                or result._data.shape != self._data.shape):
            return result
        kind = result._data.dtype
        factor = np.asarray(_factor(other, self._data.shape, coo.indices), kind)
        values = ufunc(coo.values.astype(kind, copy=False), factor)
        return _made_sparse(result, COO(coo.indices, values, coo.coalesced))
    return op


def _keeps_negated(dense_op: Callable) -> Callable:
    def op(self, *rest, **options):
        result = dense_op(self, *rest, **options)
        coo = parts(self)
        if coo is None or rest or options or parts(result) is not None:
            return result
        return _made_sparse(result, COO(coo.indices, np.negative(coo.values), coo.coalesced))
    return op


def _keeps_summed(name: str, dense_op: Callable) -> Callable:
    sign, forward = _SUMMED[name], _FORWARD_OF.get(name)

    def op(self, other, *rest, alpha=1, **options):
        if forward is not None and isinstance(other, Tensor):
            result = getattr(Tensor, forward)(other, self)
        elif alpha != 1:
            result = dense_op(self, other, *rest, alpha=alpha, **options)
        else:
            result = dense_op(self, other, *rest, **options)
        first, second = parts(self), None if not isinstance(other, Tensor) else parts(other)
        if (first is None or second is None or rest or options
                or self._data.shape != other._data.shape
                or first.values.dtype != second.values.dtype
                or not isinstance(result, Tensor) or parts(result) is not None):
            return result
        if forward is not None:  # (other + self: other's rows first)
            first, second = second, first
        return _made_sparse(result, sparse_sum_of(first, second, sign * alpha,
                                                  self._data.shape))
    return op


def _keeping_sparse(name: str, dense_op: Callable) -> Callable:
    if name in _SCALED:
        kept = _keeps_scaled(name, dense_op)
    elif name in _NEGATED:
        kept = _keeps_negated(dense_op)
    else:
        kept = _keeps_summed(name, dense_op)
    kept.__doc__ = dense_op.__doc__
    kept.__wrapped__ = dense_op  # (what inspect.signature and the binding table's test read)
    return _keeping(name, kept)


def _same_rows(coo: COO, kind=None, coalesced=None) -> COO:
    """The rows of ``coo`` (copied: a new tensor's), cast to ``kind``."""
    values = coo.values.copy() if kind is None else coo.values.astype(kind)
    return COO(coo.indices.copy(), values, coo.coalesced if coalesced is None else coalesced)


def _keeps_rows(dense_op: Callable) -> Callable:
    """clone, detach, a cast (``double()``, ``to(float64)``): the same rows, the layout kept
    (the tensor itself where the op returns it: a cast to its own dtype)."""
    def op(self, *args, **options):
        result = dense_op(self, *args, **options)
        coo = parts(self)
        if result is self or coo is None or not isinstance(result, Tensor) \
                or result._data.shape != self._data.shape:
            return result
        return _made_sparse(result, _same_rows(coo, result._data.dtype))
    return op


def _keeps_transposed(dense_op: Callable, swapped: Callable[[Tensor, tuple], tuple]) -> Callable:
    """t, transpose, .T: the rows' coordinates swapped (no longer coalesced, as in torch)."""
    def op(self, *args, **options):
        coo = parts(self)
        if coo is not None and dense_op is _TRANSPOSING["t"] \
                and (len(coo.indices) > 2 or coo.values.ndim > 1):
            raise RuntimeError(f"t() expects a tensor with <= 2 sparse and 0 dense dimensions, "
                               f"but got {len(coo.indices)} sparse and {coo.values.ndim - 1} "
                               f"dense dimensions")
        result = dense_op(self, *args, **options)
        dims = None if coo is None else swapped(self, args)
        if dims is None or not isinstance(result, Tensor) or max(dims) >= len(coo.indices):
            return result
        order = list(range(len(coo.indices)))
        order[dims[0]], order[dims[1]] = order[dims[1]], order[dims[0]]
        return _made_sparse(result, COO(coo.indices[order], coo.values.copy(), False))
    return op


def _swapped_by_transpose(self: Tensor, args: tuple) -> tuple | None:
    if len(args) != 2:
        return None
    rank = max(self._data.ndim, 1)
    return tuple(int(dim) % rank for dim in args)


def _swapped_by_t(self: Tensor, args: tuple) -> tuple | None:
    return (0, 1) if self._data.ndim == 2 and not args else None


_TRANSPOSING: dict[str, Callable] = {}


def _deep_copy(self, memo):
    copied = Tensor.__deepcopy__(self, memo)
    coo = parts(self)
    if coo is None or copied.__class__ is not Tensor:
        return copied
    return with_parts(copied, _same_rows(coo))


def _install_layout_keepers() -> None:
    for name in ("clone", "detach", "double", "float", "half", "to"):
        setattr(SparseTensor, name, _keeping(name, _keeps_rows(getattr(Tensor, name))))
    _TRANSPOSING.update(t=Tensor.t, transpose=Tensor.transpose)
    SparseTensor.t = _keeping("t", _keeps_transposed(Tensor.t, _swapped_by_t))
    SparseTensor.transpose = _keeping("transpose", _keeps_transposed(Tensor.transpose,
                                                                     _swapped_by_transpose))
    dense_t = Tensor.T.fget
    SparseTensor.T = property(_keeps_transposed(dense_t, _swapped_by_t))
    SparseTensor.__deepcopy__ = _deep_copy


def _keeping(name: str, kept: Callable) -> Callable:
    kept.__name__ = kept.__qualname__ = name
    return kept


def install(exported: dict) -> None:
    """The sparse class's own methods, and torch's functions of the same names (``exported``:
    torch's namespace) checking for a sparse first operand; dense tensors' methods are
    untouched (no check on their ops)."""
    SparseTensor.__module__ = Tensor.__module__
    for name in (*_SCALED, *_NEGATED, *_SUMMED):
        setattr(SparseTensor, name, _keeping_sparse(name, getattr(Tensor, name)))
        if not name.startswith("__") and name in exported:
            exported[name] = _function_keeping_sparse(name, exported[name])
    _install_layout_keepers()


def _function_keeping_sparse(name: str, dense_function: Callable) -> Callable:
    """``torch.<name>``: the sparse class's method for a sparse first operand (given as
    ``input=`` too), else the function as it was."""
    def function(*args, **options):
        first = args[0] if args else options.get("input")
        if first.__class__ is not SparseTensor:
            return dense_function(*args, **options)
        if not args:
            args = (options.pop("input"),)
        if len(args) == 1 and "other" in options:
            args = (*args, options.pop("other"))
        return getattr(SparseTensor, name)(*args, **options)

    function.__name__ = function.__qualname__ = name
    function.__doc__ = dense_function.__doc__
    function.__wrapped__ = dense_function
    return function

