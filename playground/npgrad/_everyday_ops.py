"""Tensor calls that pasted code makes and the other families lack: in-place forms (clip_,
floor_, tril_, scatter_, index_fill_, fill_diagonal_...), comparisons and bitwise ops under
their other names, shape helpers (broadcast_to, tile, ravel, fliplr, sum_to_size, take), and
copysign, frexp, ldexp and index_fill/index_copy with torch's nodes."""

from __future__ import annotations

import math

import numpy as np

from ._bindings import FUNCTIONS, METHODS, bind_function, bind_method, binds
from ._formula_kit import Kit
from ._grad_mode import GradMode
from ._indexing import (
    _index_data,
    index_array,
    index_select,
    scatter,
    scatter_add,
    within_bounds,
)
from ._inplace import _inplace, _write_inplace
from ._nested_data import checked_fill
from ._operands import operands
from ._recording import RESULT, output
from ._reductions import _return_type, _scalar_type
from ._shape_inplace import SHAPE_INPLACE
from ._shapes import flip, reshape
from ._tensor import Tensor, _wrap_dim

_SWITCH = "; switch the engine to torch"


# ----- in-place forms ---------------------------------------------------------------------------
def _rounded_inplace(op: str, function):
    def apply(self: Tensor) -> Tensor:
        if self._data.dtype.kind != "f":
            return self  # (integers are whole already)
        return _inplace(op, self, function(self._data), None, ())

    apply.__name__ = f"{op}_"
    return apply


for _name, _op, _function in (("floor_", "floor", np.floor), ("ceil_", "ceil", np.ceil),
                              ("trunc_", "trunc", np.trunc), ("fix_", "trunc", np.trunc),
                              ("frac_", "frac", lambda data: data - np.trunc(data))):
    binds(_name)(_rounded_inplace(_op, _function))


@binds("round_")
def round_(self: Tensor, *, decimals: int = 0) -> Tensor:
    if self._data.dtype.kind != "f":
        return self
    if decimals:
        return _inplace("round_decimals", self, np.round(self._data, decimals), None, ())
    return _inplace("round", self, np.round(self._data), None, ())


@binds("square_", function=False)
def square_(self: Tensor) -> Tensor:
    """torch's square_ is pow_(2): PowBackward0."""
    return self.pow_(2)


# In-place methods no row names: they need matrices (tests/npgrad/test_everyday_ops_vs_torch.py
# calls them against torch), or write comparisons, which record nothing torch differentiates;
# share_memory_ changes no values (tests/npgrad/test_class_paths_vs_torch.py); resize_
# and resize_as_ refuse tensors that require grad, as torch's do
# (tests/npgrad/test_argument_checks_vs_torch.py), as_strided_ records the node of a row of
# its own (AsStridedBackward1), as the shape methods do; addr_, renorm_ and put_ record their
# rows' nodes with arguments of their own (tests/npgrad/test_writes_and_old_names_vs_torch.py);
# apply_ and map_ run Python on tensors autograd does not track, and refuse the others
# (tests/npgrad/test_python_callbacks_vs_torch.py)
TESTED_APART = frozenset({"tril_", "triu_", "fill_diagonal_", "eq_", "ne_", "lt_", "le_", "gt_",
                          "addr_", "renorm_", "put_",
                          "ge_", "logical_and_", "logical_or_", "logical_xor_", "bitwise_and_",
                          "bitwise_or_", "bitwise_xor_", "not_equal_", "greater_",
                          "greater_equal_", "less_", "less_equal_", "square_", "share_memory_",
                          "resize_", "resize_as_", "as_strided_", "apply_", "map_",
                          *SHAPE_INPLACE})


def _triangle_inplace(op: str, function):
    def apply(self: Tensor, diagonal: int = 0) -> Tensor:
        if self.ndim < 2:
            raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")
        return _inplace(op, self, function(self._data, diagonal), None, (diagonal,))

    apply.__name__ = f"{op}_"
    return apply


binds("tril_", function=False)(_triangle_inplace("tril", np.tril))
binds("triu_", function=False)(_triangle_inplace("triu", np.triu))


@binds("scatter_", function=False)
def scatter_(self: Tensor, dim: int, index, src=None, *, value=None, reduce=None) -> Tensor:
    """scatter written into self: ScatterBackward0 (a tensor source) or 1 (a number); with
    ``reduce`` a node without a derivative, as torch's."""
    if reduce is not None:
        result = scatter(self.detach(), dim, index, src, value=value, reduce=reduce)._data
        if isinstance(src, Tensor):
            return _inplace("scatter_reducing_", self, result, src, ())
        return _inplace("scatter_value_reducing_", self, result, None, ())
    result = scatter(self.detach(), dim, index, src, value=value)._data
    positions = _index_data(index, "scatter")
    dim = _wrap_dim(dim, self.ndim)
    if isinstance(src, Tensor):
        return _inplace("scatter", self, result, src, (dim, positions))
    return _inplace("scatter_value", self, result, None, (dim, positions))


@binds("scatter_add_", function=False)
def scatter_add_(self: Tensor, dim: int, index, src: Tensor) -> Tensor:
    result = scatter_add(self.detach(), dim, index, src.detach())._data
    return _inplace("scatter_add", self, result, src, (_wrap_dim(dim, self.ndim),
                                                        _index_data(index, "scatter")))


def _positions(index, op: str) -> np.ndarray:
    return _index_data(index, op).reshape(-1)


def _fill_positions(self: Tensor, dim: int, index) -> np.ndarray:
    """index_fill's: a negative index counts from the end (torch wraps it there alone)."""
    return within_bounds(_positions(index, "index_fill"), self, dim, error=IndexError,
                         wraps=True)


def _filled(self: Tensor, dim: int, positions: np.ndarray, value) -> np.ndarray:
    data = self._data.copy()
    data[(slice(None),) * dim + (positions,)] = value._data if isinstance(value, Tensor) \
        else checked_fill(value, data.dtype)
    return data


@binds("index_fill")
def index_fill(self: Tensor, dim: int, index, value) -> Tensor:
    """A copy of self with the slices index names along ``dim`` set to ``value``."""
    dim = _wrap_dim(dim, self.ndim)
    positions = _fill_positions(self, dim, index)
    return output("index_fill", _filled(self, dim, positions, value), (self,), (dim, positions))


@binds("index_fill_", function=False)
def index_fill_(self: Tensor, dim: int, index, value) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    positions = _fill_positions(self, dim, index)
    return _inplace("index_fill", self, _filled(self, dim, positions, value), None,
                    (dim, positions))


def _copy_positions(self: Tensor, dim: int, index) -> np.ndarray:
    return within_bounds(_positions(index, "index_copy"), self, dim, error=IndexError,
                         prefix="index_copy_(): ")


def _copied(self: Tensor, dim: int, positions: np.ndarray, source: Tensor) -> np.ndarray:
    data = self._data.copy()
    data[(slice(None),) * dim + (positions,)] = source._data
    return data


@binds("index_copy")
def index_copy(self: Tensor, dim: int, index, source: Tensor) -> Tensor:
    """A copy of self with source's slices written at the positions index names."""
    dim = _wrap_dim(dim, self.ndim)
    positions = _copy_positions(self, dim, index)
    return output("index_copy", _copied(self, dim, positions, source), (self, source),
                  (dim, positions))


@binds("index_copy_", function=False)
def index_copy_(self: Tensor, dim: int, index, source: Tensor) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    positions = _copy_positions(self, dim, index)
    return _inplace("index_copy", self, _copied(self, dim, positions, source), source,
                    (dim, positions))


def _put_values(self: Tensor, indices, values, accumulate: bool) -> tuple[np.ndarray, tuple]:
    index = tuple(index_array(i) for i in indices)
    data = self._data.copy()
    source = values._data.astype(data.dtype, copy=False)
    if accumulate:
        np.add.at(data, index, np.broadcast_to(source, data[index].shape))
    else:
        data[index] = source
    return data, index


@binds("index_put")
def index_put(self: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of self with values written (or added) at the tensors-of-indices positions."""
    data, index = _put_values(self, indices, values, accumulate)
    return output("index_put_accumulate" if accumulate else "index_put", data, (self, values),
                  (index,))


@binds("index_put_")
def index_put_(self: Tensor, indices, values: Tensor, accumulate: bool = False) -> Tensor:
    data, index = _put_values(self, indices, values, accumulate)
    return _inplace("index_put_accumulate" if accumulate else "index_put", self, data, values,
                    (index,))


@binds("fill_diagonal_", function=False)
def fill_diagonal_(self: Tensor, fill_value, wrap: bool = False) -> Tensor:
    """The main diagonal set to ``fill_value`` through a view (torch's CopySlices)."""
    if self.ndim < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.ndim > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    if wrap and self.ndim == 2 and self.shape[0] > self.shape[1] + 1:
        raise NotImplementedError(f"fill_diagonal_(wrap=True) of a tall matrix is not in the "
                                  f"built-in NumPy engine{_SWITCH}")
    count = min(self.shape)
    step = sum(stride for stride in self._data.strides) // self._data.itemsize
    if self.ndim == 2:
        self.diagonal().fill_(fill_value)
    else:
        flat = self.view(-1)
        flat[0:count * step:step] = fill_value
    return self


# ----- comparisons and bits by their other names ------------------------------------------------
def _compared_inplace(name: str, ufunc):
    def apply(self: Tensor, other) -> Tensor:
        if GradMode.enabled and self.requires_grad:
            raise NotImplementedError(f"{name} of a tensor that requires grad is not in the "
                                      f"built-in NumPy engine{_SWITCH}")
        a, b = operands(self, other)
        _write_inplace(self, ufunc(a, b).astype(self._data.dtype))
        return self

    apply.__name__ = name
    return apply


for _name, _ufunc in (("eq_", np.equal), ("ne_", np.not_equal), ("lt_", np.less),
                      ("le_", np.less_equal), ("gt_", np.greater),
                      ("ge_", np.greater_equal), ("logical_and_", np.logical_and),
                      ("logical_or_", np.logical_or), ("logical_xor_", np.logical_xor),
                      ("bitwise_and_", np.bitwise_and), ("bitwise_or_", np.bitwise_or),
                      ("bitwise_xor_", np.bitwise_xor)):
    binds(_name, function=False)(_compared_inplace(_name, _ufunc))
for _name, _alias in (("not_equal_", "ne_"), ("greater_", "gt_"), ("greater_equal_", "ge_"),
                      ("less_", "lt_"), ("less_equal_", "le_")):
    bind_method(_name, _compared_inplace(_name, {"ne_": np.not_equal, "gt_": np.greater,
                                                 "ge_": np.greater_equal, "lt_": np.less,
                                                 "le_": np.less_equal}[_alias]))


def _alias(name: str, target: str):
    """``name`` as a method and a torch function where the comparisons lack it."""
    def call(self: Tensor, other) -> Tensor:
        return getattr(self, target)(other)

    call.__name__ = name
    if name not in METHODS:
        bind_method(name, call)
    if name not in FUNCTIONS:
        bind_function(name, call)


for _name, _target in (("not_equal", "ne"), ("greater", "gt"), ("greater_equal", "ge"),
                       ("less", "lt"), ("less_equal", "le")):
    _alias(_name, _target)


def _of_integers(name: str, ufunc, kinds: str = "biu"):
    """bitwise_* (of bools too), gcd and lcm (``kinds`` "iu"): torch refuses other dtypes
    as unimplemented, naming the operands' common type."""
    def apply(self: Tensor, other) -> Tensor:
        a, b = operands(self, other)
        if a.dtype.kind not in kinds:
            raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                      f"'{_scalar_type(a.dtype)}'")
        return Tensor._make(np.asarray(ufunc(a, b)))

    apply.__name__ = name
    return binds(name)(apply)


for _name, _ufunc in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or),
                      ("bitwise_xor", np.bitwise_xor), ("bitwise_left_shift", np.left_shift),
                      ("bitwise_right_shift", np.right_shift)):
    _of_integers(_name, _ufunc)
for _name, _ufunc in (("gcd", np.gcd), ("lcm", np.lcm)):
    _of_integers(_name, _ufunc, "iu")
binds("bitwise_not")(lambda self: ~self)
bind_method("__lshift__", lambda self, other: Tensor._make(np.left_shift(*operands(self, other))))
bind_method("__rshift__", lambda self, other: Tensor._make(np.right_shift(*operands(self,
                                                                                   other))))


@binds("isposinf")
def isposinf(self: Tensor) -> Tensor:
    return Tensor._make(np.isposinf(self._data) if self._data.dtype.kind == "f" else
                        np.zeros(self._data.shape, bool))


@binds("isneginf")
def isneginf(self: Tensor) -> Tensor:
    return Tensor._make(np.isneginf(self._data) if self._data.dtype.kind == "f" else
                        np.zeros(self._data.shape, bool))


# ----- shapes -----------------------------------------------------------------------------------
@binds("broadcast_to")
def broadcast_to(self: Tensor, size) -> Tensor:
    return self.expand(*size)


@binds("tile")
def tile(self: Tensor, dims) -> Tensor:
    """repeat, the shorter of dims and shape padded with ones in front, as torch's."""
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if len(dims) < self.ndim:
        dims = (1,) * (self.ndim - len(dims)) + dims
    return self.repeat(*dims)


@binds("ravel")
def ravel(self: Tensor) -> Tensor:
    return reshape(self, (-1,))


@binds("fliplr")
def fliplr(self: Tensor) -> Tensor:
    if self.ndim < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return flip(self, (1,))


@binds("flipud")
def flipud(self: Tensor) -> Tensor:
    if self.ndim < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return flip(self, (0,))


@binds("positive")
def positive(self: Tensor) -> Tensor:
    if self._data.dtype == np.bool_:
        raise TypeError("The `+` operator, on a bool tensor is not supported.")
    return self


@binds("sum_to_size", function=False)
def sum_to_size(self: Tensor, *size) -> Tensor:
    """Summed down to ``size`` (which it must expand to), as torch's sum_to: the leading
    dimensions and those of size 1 summed, kept, then viewed without the leading ones."""
    size = tuple(size[0]) if len(size) == 1 and not isinstance(size[0], int) else size
    try:
        np.broadcast_shapes(size, tuple(self.shape))
    except ValueError:
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size "
                           f"{{{list(self.shape)}}}.") from None
    leading = self.ndim - len(size)
    dims = tuple(range(leading)) + tuple(
        leading + i for i, n in enumerate(size) if n == 1 and self.shape[leading + i] != 1)
    if not dims:
        return self
    result = self.sum(dims, keepdim=True)
    return result.view(size) if leading else result


@binds("take")
def take(self: Tensor, index) -> Tensor:
    """The elements of self read as one flat row, at ``index`` (any shape): TakeBackward0."""
    positions = _index_data(index, "take")
    size = self.numel()
    if positions.size and (positions.max() >= size or positions.min() < -size):
        raise IndexError(f"out of range: tried to access index {int(positions.max())} on a "
                         f"tensor of {size} elements.")
    data = self._data.reshape(-1)[positions % max(size, 1)]
    return output("take", data, (self,), (tuple(self.shape), positions % max(size, 1)))


@binds("copysign")
def copysign(self: Tensor, other) -> Tensor:
    """|self| with other's signs: CopysignBackward0 (a tensor) or 1 (a number)."""
    a, b = operands(self, other)
    if a.dtype.kind not in "f":
        target = np.result_type(a.dtype, np.float32)
        a, b = a.astype(target), np.asarray(b, target)
    data = np.copysign(a, b)
    if isinstance(other, Tensor):
        return output("copysign", data, (self, other), (self, RESULT))
    return output("copysign_scalar", data, (self,), (self, RESULT))


@binds("nextafter")
def nextafter(self: Tensor, other: Tensor) -> Tensor:
    """The next float after self towards other: NextafterBackward0."""
    if not isinstance(other, Tensor):
        raise TypeError(f"nextafter(): argument 'other' (position 2) must be Tensor, not "
                        f"{type(other).__name__}")
    a, b = operands(self, other)
    if a.dtype.kind != "f" or a.dtype == np.float16:
        raise NotImplementedError(f'"nextafter_cpu" not implemented for '
                                  f"'{_scalar_type(a.dtype)}'")
    return output("nextafter", np.nextafter(a, b), (self, other), (self, other))


def copysign_grad(k, grad, self, result):
    """torch's copysign_tensor_self_backward: grad · result / self, 0 where self is 0."""
    return grad * k.where(self == 0, 0, result / k.where(self == 0, 1, self))


_frexp_result = _return_type("frexp", ("mantissa", "exponent"))


@binds("frexp")
def frexp(self: Tensor):
    """Mantissa in [0.5, 1) (signed) and int32 exponent: FrexpBackward0 for the mantissa."""
    if self._data.dtype.kind != "f":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    mantissa, exponent = np.frexp(self._data)
    exponent = Tensor._make(exponent.astype(np.int32))
    return _frexp_result(output("frexp", mantissa, (self,), (exponent,)), exponent)


def frexp_grad(k, grad, exponent):
    """torch's grad / exponent.exp2(), the powers in float32 (exp2 of an int32 tensor)."""
    powers = np.exp2(np.asarray(getattr(exponent, "_data", exponent), np.float32))
    return grad / (Tensor._make(powers) if isinstance(grad, Tensor) else powers)


@binds("ldexp")
def ldexp(self: Tensor, other) -> Tensor:
    """self · 2^other (floating, as torch's self * pow(2., other)): LdexpBackward0."""
    a, b = operands(self, other)
    floats = [d for d in (a.dtype, b.dtype) if d.kind == "f"]  # (integers: the default float)
    kind = np.result_type(*floats) if floats else np.dtype(np.float32)
    powers = np.power(kind.type(2), b.astype(kind))
    return output("ldexp", (a.astype(kind) * powers).astype(kind), (self, other),
                  (self, other))


def ldexp_grad(k, grad, self, other, for_self: bool):
    """torch's: grad · pow(2, other) for self, and that times self · ln 2 for other. An
    integer ``other`` makes it an integer power, 0 for a negative exponent (as torch's)."""
    data = np.asarray(getattr(other, "_data", other))
    if data.dtype.kind in "biu":
        powers = np.where(data < 0, 0, np.left_shift(1, np.maximum(data, 0).astype(np.int64)))
        powers = powers.astype(np.asarray(getattr(grad, "_data", grad)).dtype)
    else:
        powers = np.exp2(data)
    powers = Tensor._make(powers) if isinstance(grad, Tensor) else powers
    return grad * powers if for_self else grad * self * powers * math.log(2)


def take_grad(k, grad, shape, positions):
    """The gradient put back at the positions read, summed where one was read twice."""
    if isinstance(grad, np.ndarray):
        flat = np.zeros(int(np.prod(shape)), grad.dtype)
        np.add.at(flat, positions.reshape(-1), grad.reshape(-1))
        return flat.reshape(shape)
    raise NotImplementedError(f"the second derivative of torch.take is not in the built-in "
                              f"NumPy engine{_SWITCH}")


Kit.copysign_grad, Kit.frexp_grad, Kit.ldexp_grad = copysign_grad, frexp_grad, ldexp_grad
Kit.take_grad = take_grad
Kit.index_select_of = lambda k, grad, dim, index: index_select(grad, dim, Tensor._make(index)) \
    if isinstance(grad, Tensor) else np.take(grad, index, axis=dim)
Kit.index_filled = lambda k, grad, dim, index: index_fill(grad, dim, Tensor._make(index), 0) \
    if isinstance(grad, Tensor) else _zeros_at(grad, dim, index)


def _zeros_at(grad: np.ndarray, dim: int, index: np.ndarray) -> np.ndarray:
    result = grad.copy()
    result[(slice(None),) * dim + (index,)] = 0
    return result


