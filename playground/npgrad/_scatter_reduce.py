"""scatter_reduce: src's values reduced into a copy of self at the positions index names along
``dim`` (sum, prod, mean, amax, amin; with self's own value or without), torch's
ScatterReduceBackward0, and the kit helpers its formulas call: torch's scatter_reduce_backward
(ties of amax/amin share the gradient, prod's zeros handled apart). index_reduce, its
one-index-per-slice form (IndexReduceBackward0), is the same reduction over the index
spread along ``dim``."""

from __future__ import annotations

import numpy as np

from ._bindings import binds
from ._dtype import scalar_type_name
from ._formula_kit import Kit
from ._indexing import _index_data, along_axis, within_bounds
from ._inplace import _inplace
from ._recording import RESULT, output
from ._tensor import Tensor, _wrap_dim
from ._user_warnings import warn_at_user_code

_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
           "amin": np.minimum}
_ALIASES = {"max": "amax", "min": "amin"}  # the forward takes them (the backward does not)


def reduced_values(data: np.ndarray, dim: int, positions: np.ndarray, source: np.ndarray,
                   reduce: str, include_self: bool) -> np.ndarray:
    """The forward on arrays: each source element folded into its position in the order
    torch's CPU loop visits them; a mean divides by the count (floored for integers)."""
    reduce = _ALIASES.get(reduce, reduce)
    result = data.copy()
    where = along_axis(positions, dim)
    if not include_self:
        result[where] = _identity(reduce, result.dtype)
    _UFUNCS[reduce].at(result, where, source)
    if reduce != "mean":
        return result
    counts = np.ones(result.shape, result.dtype) if include_self else \
        np.zeros(result.shape, result.dtype)
    np.add.at(counts, where, 1)
    counts[counts == 0] = 1
    if result.dtype.kind in "iu":
        return np.floor_divide(result, counts)
    return result / counts


def _identity(reduce: str, dtype: np.dtype):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    limits = np.iinfo(dtype)
    return limits.min if reduce == "amax" else limits.max


def _checked(self: Tensor, dim: int, index, src: Tensor, reduce: str):
    if reduce not in _UFUNCS and reduce not in _ALIASES:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, "
                           f"got {reduce}")
    data = index._data if isinstance(index, Tensor) else np.asarray(index)
    if data.dtype.kind not in "iu":
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")
    if src._data.dtype != self._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    dim = _wrap_dim(dim, self.ndim)
    positions = within_bounds(_index_data(index, "scatter"), self, dim)
    source = src._data[tuple(slice(0, n) for n in positions.shape)]
    return dim, positions, source


@binds("scatter_reduce")
def scatter_reduce(self: Tensor, dim: int, index, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """A copy of self with src reduced in where index points along ``dim``."""
    dim, positions, source = _checked(self, dim, index, src, reduce)
    data = reduced_values(self._data, dim, positions, source, reduce, include_self)
    return output("scatter_reduce", data, (self, src),
                  (self, src, dim, positions, reduce, include_self, RESULT))


@binds("scatter_reduce_", function=False)
def scatter_reduce_(self: Tensor, dim: int, index, src: Tensor, reduce: str, *,
                    include_self: bool = True) -> Tensor:
    """In place; the node keeps a copy of self as it was (torch saves a clone)."""
    dim, positions, source = _checked(self, dim, index, src, reduce)
    before = Tensor._make(self._data.copy())
    data = reduced_values(self._data, dim, positions, source, reduce, include_self)
    return _inplace("scatter_reduce", self, data, src,
                    (before, src, dim, positions, reduce, include_self, RESULT))


_INDEX_REDUCE_BETA = ("index_reduce() is in beta and the API may change at any time. (Triggered "
                      "internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                      "TensorAdvancedIndexing.cpp:1523.)")
_beta_said: list = []


def _spread_index(self: Tensor, dim: int, index, source: Tensor, reduce: str):
    """index_reduce's checks in torch's order, and its index as scatter_reduce's: each
    index entry repeated over its whole slice of ``source``."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError("index_reduce(): Expected reduce to be one of prod, mean, amax or "
                           f"amin but got {reduce}.")
    data = index._data if isinstance(index, Tensor) else np.asarray(index)
    if data.dtype.kind not in "iu":
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index but got: "
                           f"{scalar_type_name(data.dtype)}")
    dim = _wrap_dim(dim, self.ndim)
    positions = data.astype(np.int64).reshape(-1)
    if positions.size != source.shape[dim]:
        raise RuntimeError(f"index_reduce_(): Number of indices ({positions.size}) should be "
                           f"equal to source.size(dim): ({source.shape[dim]}), for dim: {dim}")
    if source._data.dtype != self._data.dtype:
        raise RuntimeError(f"index_reduce_(): self ({scalar_type_name(self._data.dtype)}) and "
                           f"source ({scalar_type_name(source._data.dtype)}) must have the same "
                           "scalar type")
    if not _beta_said:  # once a process, as torch's
        _beta_said.append(True)
        warn_at_user_code(_INDEX_REDUCE_BETA)
    if positions.size and (positions.min() < 0 or positions.max() >= self.shape[dim]):
        raise IndexError("index out of range in self")
    shape = [-1 if d == dim else 1 for d in range(source.ndim)]
    return dim, np.broadcast_to(positions.reshape(shape), source.shape).copy()


@binds("index_reduce")
def index_reduce(self: Tensor, dim: int, index, source: Tensor, reduce: str, *,
                 include_self: bool = True) -> Tensor:
    """A copy of self with each slice of source reduced into the slice index names."""
    dim, positions = _spread_index(self, dim, index, source, reduce)
    data = reduced_values(self._data, dim, positions, source._data, reduce, include_self)
    return output("index_reduce", data, (self, source),
                  (self, source, dim, positions, reduce, include_self, RESULT))


@binds("index_reduce_", function=False)
def index_reduce_(self: Tensor, dim: int, index, source: Tensor, reduce: str, *,
                  include_self: bool = True) -> Tensor:
    dim, positions = _spread_index(self, dim, index, source, reduce)
    before = Tensor._make(self._data.copy())
    data = reduced_values(self._data, dim, positions, source._data, reduce, include_self)
    return _inplace("index_reduce", self, data, source,
                    (before, source, dim, positions, reduce, include_self, RESULT))


# ----- the backward (torch's scatter_reduce_backward), in the kit's primitives ---------------
def _arrays(value) -> np.ndarray:
    return value._data if isinstance(value, Tensor) else np.asarray(value)


def _constant(k, grad, values: np.ndarray):
    """Numbers worked out on arrays (counts, masks): no gradient flows through them."""
    return k._like(grad, values.astype(_arrays(grad).dtype, copy=False))


def _mask(k, grad, values: np.ndarray):
    return k._like(grad, values)


def _counts(self, dim: int, index: np.ndarray, include_self: bool) -> np.ndarray:
    """How many values each position of the result reduced (mean's N, at least 1)."""
    counts = np.ones(_arrays(self).shape) if include_self else np.zeros(_arrays(self).shape)
    np.add.at(counts, along_axis(index, dim), 1)
    counts[counts == 0] = 1
    return counts


def scatter_reduce_self_grad(k, grad, self, src, dim, index, reduce, include_self, result):
    """The gradient for self (zero where src's values replaced it, without include_self)."""
    reduce = _known(reduce)
    if reduce == "sum":
        grad_self = grad
    elif reduce == "mean":
        grad_self = grad / _constant(k, grad, _counts(self, dim, index, include_self))
    elif reduce == "prod":
        masked_self = k.masked_fill(self, _mask(k, grad, _arrays(self) == 0), 1)
        grad_self = grad * k.scatter_reduce(masked_self, dim, index, src, reduce, include_self) \
            / masked_self
    else:
        grad_self = _constant(k, grad, _arrays(self) == _arrays(result)) * \
            _shared(k, grad, self, src, dim, index, result)
    return grad_self if include_self else k.scatter_fill(grad_self, dim, index, 0)


def scatter_reduce_src_grad(k, grad, self, src, dim, index, reduce, include_self, result):
    """The gradient for src: the result's gradient picked at each src element's position."""
    reduce = _known(reduce)
    if reduce == "sum":
        return k.gather(grad, dim, index)
    if reduce == "mean":
        counts = _counts(self, dim, index, include_self)[along_axis(index, dim)]
        return k.gather(grad, dim, index) / _constant(k, grad, counts)
    if reduce == "prod":
        return _prod_src_grad(k, grad, self, src, dim, index, include_self, result)
    value = _arrays(result)[along_axis(index, dim)]
    return _constant(k, grad, _arrays(src)[_within(index)] == value) * \
        k.gather(_shared(k, grad, self, src, dim, index, result), dim, index)


def _known(reduce: str) -> str:
    if reduce not in _UFUNCS:
        raise RuntimeError("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                           f"'amin' but got {reduce}.")
    return reduce


def _within(index: np.ndarray) -> tuple:
    return tuple(slice(0, n) for n in index.shape)


def _shared(k, grad, self, src, dim, index, result):
    """amax/amin: the gradient over the number of values equal to the extreme (self's own
    counted even without include_self, as torch counts it)."""
    value = _arrays(result)[along_axis(index, dim)]
    count = (_arrays(self) == _arrays(result)).astype(np.float64)
    np.add.at(count, along_axis(index, dim), _arrays(src)[_within(index)] == value)
    return grad / _constant(k, grad, count)


def _prod_src_grad(k, grad, self, src, dim, index, include_self, result):
    """prod's: grad·result/src, but where src holds the one zero of its position, grad times
    the product of the others (torch's exclusive product)."""
    own = _arrays(src)[_within(index)]
    zero = own == 0
    zeros_there = np.zeros(_arrays(self).shape)
    np.add.at(zeros_there, along_axis(index, dim), zero)
    single_zero = zero & (zeros_there[along_axis(index, dim)] == 1)
    masked_src = k.masked_fill(src, _mask(k, grad, single_zero), 1)
    others = k.scatter_reduce(self, dim, index, masked_src, "prod", include_self)
    divided = k.gather(grad * result, dim, index) / k.masked_fill(src, _mask(k, grad, zero), 1)
    return k.where(_mask(k, grad, single_zero), k.gather(grad * others, dim, index), divided)


def scatter_reduce_on_kit(k, value, dim, index, src, reduce, include_self):
    """The forward inside a formula: on arrays, or recorded on tensors (create_graph)."""
    if isinstance(value, Tensor) or isinstance(src, Tensor):
        return scatter_reduce(value, dim, Tensor._make(index), src, reduce,
                              include_self=include_self)
    return reduced_values(value, dim, index, src[_within(index)], reduce, include_self)


KIT_HELPERS = {"scatter_reduce_self_grad": scatter_reduce_self_grad,
               "scatter_reduce_src_grad": scatter_reduce_src_grad,
               "scatter_reduce": scatter_reduce_on_kit}


for _name, _helper in KIT_HELPERS.items():
    setattr(Kit, _name, _helper)
