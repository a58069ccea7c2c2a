"""Tensor operations: compute with NumPy, then record a node from the derivative table."""

from __future__ import annotations

import builtins
import math
from collections import namedtuple

import numpy as np

from . import _dtype as dtypes
from ._autograd import Node, new_sequence_number
from ._grad_mode import GradMode
from ._numerics import power_by_number
from ._rules import RULES
from ._tensor import (
    ZERO_VERSION,
    Size,
    Tensor,
    _wrap_dim,
    bump_version,
    new_counter,
    shared_counter,
)

# torch computes inf and nan silently where NumPy warns (overflow, 0/0). An errstate context per
# op costs more than the op itself on small tensors, so the engine silences them once, here.
np.seterr(all="ignore")

_ndarray = np.ndarray
_next_sequence = new_sequence_number
_make = Tensor._make
_new = object.__new__
_NO_EDGE = (None, 0)
_PY_SCALARS = (int, float, bool)
# Marks "this op's own output" in a saved tuple: the output array is saved in its place.
RESULT = object()
_SAVE_RESULT = (RESULT,)

NODE_CLASSES: dict[str, type[Node]] = {
    op: type(rule.node_name, (Node,),
             {"__slots__": (), "rule": rule, "formulas": rule.formulas, "__module__": "torch",
              "arity": -1 if rule.variadic or len(rule.inputs) > 2 else len(rule.inputs)})
    for op, rule in RULES.items()
}

def _return_type(name: str):
    """torch.return_types.max/min: a (values, indices) tuple with torch's repr."""

    def text(self) -> str:
        return (f"torch.return_types.{name}(\nvalues={self.values!r},\n"
                f"indices={self.indices!r})")

    return type(name, (namedtuple(name, ["values", "indices"]),),
                {"__slots__": (), "__repr__": text, "__str__": text,
                 "__module__": "torch.return_types"})


return_max = _return_type("max")
return_min = _return_type("min")
return_sort = _return_type("sort")
return_topk = _return_type("topk")


# ----- recording ------------------------------------------------------------------------------
# The functions in this section run once per op: they are written for speed, not elegance.
def _output(op: str, data, inputs: tuple, saved: tuple = (), counter=None, base=None) -> Tensor:
    """Wrap ``data`` as the op's result; record a node when grad mode is on and inputs need it."""
    if data.__class__ is not _ndarray:
        data = np.asarray(data)
    out = _make(data, None, counter)
    if base is not None:
        out._base = base
    if GradMode.enabled:
        for tensor in inputs:
            if tensor is not None and tensor._rg:
                # as in torch, an integer or bool result (x.long(), x.bool()) is not differentiable
                if data.dtype.kind in "fc":
                    _attach_node(out, NODE_CLASSES[op], inputs, saved)
                break
    return out


def _edge(tensor):
    """The node an op on ``tensor`` points at: its grad_fn, its AccumulateGrad, or None."""
    if tensor is None:
        return None
    fn = tensor.grad_fn
    if fn is not None:
        return fn
    if not tensor._rg:
        return None
    accumulator = tensor._grad_acc
    if accumulator is not None:
        accumulator = accumulator()
        if accumulator is not None:
            return accumulator
    return tensor._grad_edge()[0]


def _attach_node(out: Tensor, node_class, inputs: tuple, saved: tuple) -> None:
    node = _new(node_class)
    if len(inputs) == 1:
        edges = (_edge(inputs[0]),)
    elif len(inputs) == 2:
        edges = (_edge(inputs[0]), _edge(inputs[1]))
    else:
        edges = tuple([_edge(t) for t in inputs])
    node._set_next(edges)
    node._seq = _next_sequence()
    data = out._data
    node._shape = data.shape
    node._np_dtype = data.dtype
    node._hooks = None
    node._deps = None
    node._exact = False
    out._rg = True
    out.grad_fn = node
    if not saved:
        node._saved = ()
        node._versions = ()
    elif saved is _SAVE_RESULT:
        counter = out._vc
        if counter is None:
            counter = out._vc = new_counter()
        node._saved = (data,)
        node._versions = (0, counter, bytes(counter))
    else:
        node._saved, node._versions = _save(node_class.rule.save_gates, edges, saved, out)


def _save(gates: tuple, edges: tuple, saved: tuple, out: Tensor) -> tuple[tuple, tuple]:
    """Arrays for the formulas, and (index, counter, version) triples to check them later.

    Tensors are saved as their arrays, not as tensor objects: a tuple of arrays and numbers is
    invisible to Python's garbage collector, which otherwise spends more time walking a long
    graph than the graph takes to build. torch saves a value only if the formula of an input
    that needs a gradient reads it (the gates).
    """
    items = []
    checks = []
    for index, item in enumerate(saved):
        gate = gates[index]
        if gate is not None:
            for position in gate:
                if edges[position] is not None:
                    break
            else:
                item = None
        if item.__class__ is Tensor or item is RESULT:
            tensor = out if item is RESULT else item
            counter = tensor._vc
            if counter is None:
                counter = tensor._vc = new_counter()
            checks += (index, counter, bytes(counter))
            item = tensor._data
        items.append(item)
    return tuple(items), tuple(checks)


def mul_scalar(self: Tensor, number) -> Tensor:
    """torch's ``mul(Tensor, Scalar)``: only derivative formulas reach it (MulBackward1)."""
    a = self._data
    return _output("mul_scalar", a * np.asarray(number, a.dtype), (self,), (number,))


def copy_for_grad(grad: Tensor) -> Tensor:
    """What a create_graph backward stores as a leaf's first .grad: a recorded copy."""
    return _output("copy", grad._data.copy(), (None, grad))


# ----- dtypes and operands ----------------------------------------------------------------------
def _torch_dtype(array) -> dtypes.dtype:
    return dtypes.from_numpy_dtype(array.dtype)


def as_tensor_operand(value) -> Tensor:
    if isinstance(value, Tensor):
        return value
    from ._factories import tensor

    return tensor(value)


def _operands(a: Tensor, b):
    """The two arrays (or array and scalar) to compute with, cast to torch's result dtype.

    Returns NotImplemented for operand types a tensor does not combine with.
    """
    a_data = a._data
    if isinstance(b, np.ndarray):
        b = _make(b)
    if b.__class__ is Tensor:
        b_data = b._data
        if a_data.dtype == b_data.dtype:
            return a_data, b_data
        target = dtypes.result_type(
            _torch_dtype(a_data), a_data.ndim, _torch_dtype(b_data), b_data.ndim
        ).numpy
        return a_data.astype(target, copy=False), b_data.astype(target, copy=False)
    if isinstance(b, (*_PY_SCALARS, np.generic)):
        target = dtypes.result_type_scalar(_torch_dtype(a_data), b).numpy
        if target != a_data.dtype:
            return a_data.astype(target), np.asarray(b, dtype=target)
        return a_data, np.asarray(b, dtype=target)
    return NotImplemented


def _scalar_operand(a: np.ndarray, value):
    """A Python number as a 0-d array of the tensor's dtype when no promotion is involved.

    Multiplying by a 0-d array is twice as fast in NumPy as by a Python float, and the value is
    what torch computes with (the number cast to the tensor's dtype).
    """
    cls = value.__class__
    kind = a.dtype.kind
    if (cls is float and kind == "f") or (cls is int and kind in "fiu"):
        return np.asarray(value, a.dtype)
    return None


def _binary_arrays(self: Tensor, other):
    """(a, b, other tensor or None) for an arithmetic op; fast paths first."""
    a = self._data
    if other.__class__ is Tensor:
        b = other._data
        if a.dtype is not b.dtype:
            a, b = _operands(self, other)
        return a, b, other
    b = _scalar_operand(a, other)
    if b is not None:
        return a, b, None
    operands = _operands(self, other)
    if operands is NotImplemented:
        return None
    a, b = operands
    return a, b, _tensor_or_none(other)


def _broadcast_error(a_shape: tuple, b_shape: tuple) -> RuntimeError:
    ndim = builtins.max(len(a_shape), len(b_shape))
    for i in range(ndim - 1, -1, -1):
        offset = ndim - 1 - i
        size_a = a_shape[len(a_shape) - 1 - offset] if offset < len(a_shape) else 1
        size_b = b_shape[len(b_shape) - 1 - offset] if offset < len(b_shape) else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            return RuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at "
                f"non-singleton dimension {i}"
            )
    return RuntimeError("shapes cannot be broadcast together")


def _compute(function, a_data, b_data, a_shape):
    try:
        return function(a_data, b_data)
    except ValueError:
        raise _broadcast_error(a_shape, np.shape(b_data)) from None


def _float_operands(a: Tensor, b):
    """(a, b, b tensor) like _binary_arrays, but integers become the default float dtype."""
    operands = _operands(a, b)
    if operands is NotImplemented:
        return None
    a_data, b_data = operands
    if np.result_type(a_data, b_data).kind not in "fc":
        floating = dtypes.get_default_dtype().numpy
        a_data, b_data = a_data.astype(floating), np.asarray(b_data, dtype=floating)
    return a_data, b_data, _tensor_or_none(b)


def _tensor_or_none(value):
    return value if value.__class__ is Tensor else None


# ----- arithmetic -------------------------------------------------------------------------------
def add(self: Tensor, other, *, alpha=1) -> Tensor:
    operands = _binary_arrays(self, other)
    if operands is None:
        return NotImplemented
    a, b, other = operands
    if alpha != 1:
        b = b * alpha
    try:
        data = a + b
    except ValueError:
        raise _broadcast_error(a.shape, np.shape(b)) from None
    return _output("add", data, (self, other), (alpha,))


def sub(self: Tensor, other, *, alpha=1) -> Tensor:
    if self._data.dtype == np.bool_:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    operands = _binary_arrays(self, other)
    if operands is None:
        return NotImplemented
    a, b, other = operands
    if alpha != 1:
        b = b * alpha
    try:
        data = a - b
    except ValueError:
        raise _broadcast_error(a.shape, np.shape(b)) from None
    return _output("sub", data, (self, other), (alpha,))


def rsub(self: Tensor, other, *, alpha=1) -> Tensor:
    """``other - self`` for a Python scalar ``other`` (torch's RsubBackward1)."""
    if other.__class__ is Tensor:
        return sub(other, self, alpha=alpha)
    operands = _binary_arrays(self, other)
    if operands is None:
        return NotImplemented
    a, b, _ = operands
    return _output("rsub", b - (a * alpha if alpha != 1 else a), (self,), (alpha,))


def mul(self: Tensor, other) -> Tensor:
    operands = _binary_arrays(self, other)
    if operands is None:
        return NotImplemented
    a, b, other_tensor = operands
    try:
        data = a * b
    except ValueError:
        raise _broadcast_error(a.shape, np.shape(b)) from None
    saved_other = other_tensor if other_tensor is not None else b
    return _output("mul", data, (self, other_tensor), (self, saved_other))


def div(self: Tensor, other, *, rounding_mode=None) -> Tensor:
    if rounding_mode == "floor":
        return floor_divide(self, other)
    if self._data.dtype.kind == "f" and (other.__class__ is not Tensor or (
            other._data.dtype.kind == "f")):
        operands = _binary_arrays(self, other)
    else:
        operands = _float_operands(self, other)
    if operands is None:
        return NotImplemented
    a, b, other_tensor = operands
    try:
        data = a / b
    except ValueError:
        raise _broadcast_error(a.shape, np.shape(b)) from None
    if rounding_mode == "trunc":
        return _output("floor_divide", np.trunc(data), (self, other_tensor))
    saved_other = other_tensor if other_tensor is not None else b
    return _output("div", data, (self, other_tensor), (self, saved_other))


def rdiv(self: Tensor, other) -> Tensor:
    """``scalar / tensor``: torch computes ``reciprocal(tensor) * scalar``."""
    return mul(reciprocal(self), other)


def floor_divide(self: Tensor, other) -> Tensor:
    a, b = _operands(self, other)
    data = _compute(np.floor_divide, a, b, a.shape)
    return _output("floor_divide", data, (self, _tensor_or_none(other)))


def rfloordiv(self: Tensor, other) -> Tensor:
    return floor_divide(as_tensor_operand(other).to(self.dtype), self)


def remainder(self: Tensor, other) -> Tensor:
    """Python's ``%``: the result takes the divisor's sign (torch.remainder)."""
    return _modulo("remainder", _floored_remainder, self, other)


def _floored_remainder(a, b):
    """torch's way: fmod, moved by the divisor when the signs differ. An exact division
    leaves fmod's zero, signed like the dividend (NumPy's remainder signs it like b)."""
    if np.result_type(a, b).kind != "f":
        return np.remainder(a, b)
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((np.asarray(b) < 0) != (mod < 0)), mod + b, mod)


def rremainder(self: Tensor, other) -> Tensor:
    """``number % tensor``: torch records a node whose backward raises."""
    a, b = _operands(self, other)
    return _output("rremainder", np.asarray(_compute(_floored_remainder, b, a, a.shape)),
                   (self,))


def fmod(self: Tensor, other) -> Tensor:
    """C's ``fmod``: the result takes the dividend's sign."""
    return _modulo("fmod", np.fmod, self, other)


def _modulo(op: str, function, self: Tensor, other) -> Tensor:
    a, b = _operands(self, other)
    data = np.asarray(_compute(function, a, b, a.shape))
    if other.__class__ is not Tensor:  # a number: the gradient passes straight through
        return _output(op, data, (self,))
    return _output(f"{op}_tensor", data, (self, other), (self, other))


def neg(self: Tensor) -> Tensor:
    if self._data.dtype == np.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return _output("neg", np.negative(self._data), (self,))


def pow(self, exponent) -> Tensor:
    if not isinstance(self, Tensor):
        return rpow(exponent, self)
    if exponent.__class__ is Tensor:
        a, b = _operands(self, exponent)
        data = _compute(np.power, a, b, a.shape)
        return _output("pow_tensor", data, (self, exponent), (self, exponent, RESULT))
    a, b = _operands(self, exponent)
    if a.dtype.kind in "iu" and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    data = power_by_number(a, b) if np.ndim(b) == 0 else _compute(np.power, a, b, a.shape)
    return _output("pow", data, (self,), (self, exponent))


def rpow(self: Tensor, base) -> Tensor:
    """``scalar ** tensor`` (torch's PowBackward2)."""
    target = dtypes.result_type_scalar(self.dtype, base).numpy
    exponent = self._data.astype(target, copy=False)
    data = np.power(np.asarray(base, dtype=target), exponent)
    return _output("pow_scalar_base", data, (self,), (base, self, RESULT))


def square(self: Tensor) -> Tensor:
    return pow(self, 2)


def _comparison(function):
    def compare(self: Tensor, other) -> Tensor:
        if other is None:
            return _make(np.full(self._data.shape, function is np.not_equal))
        if not isinstance(other, Tensor | int | float | bool | np.generic):
            return NotImplemented
        a, b = _operands(self, other)
        return _make(np.asarray(_compute(function, a, b, a.shape)))

    compare.__name__ = function.__name__
    return compare


eq = _comparison(np.equal)
ne = _comparison(np.not_equal)
lt = _comparison(np.less)
le = _comparison(np.less_equal)
gt = _comparison(np.greater)
ge = _comparison(np.greater_equal)


def _logical(function):
    def combine(self: Tensor, other) -> Tensor:
        a, b = _operands(self, other)
        if a.dtype.kind == "f":
            raise RuntimeError(f'"{function.__name__}_cpu" not implemented for \'Float\'')
        return _make(np.asarray(function(a, b)))

    return combine


bitwise_and = _logical(np.bitwise_and)
bitwise_or = _logical(np.bitwise_or)
bitwise_xor = _logical(np.bitwise_xor)


def bitwise_not(self: Tensor) -> Tensor:
    if self._data.dtype.kind == "f":
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return _make(np.invert(self._data))


def logical_not(self: Tensor) -> Tensor:
    return _make(np.logical_not(self._data))


def equal(self: Tensor, other: Tensor) -> bool:
    return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))


def allclose(self: Tensor, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isclose(self: Tensor, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    return _make(np.isclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def maximum(self: Tensor, other: Tensor) -> Tensor:
    a, b = _operands(self, other)
    data = _compute(np.maximum, a, b, a.shape)
    return _output("maximum", data, (self, other), (self, other))


def minimum(self: Tensor, other: Tensor) -> Tensor:
    a, b = _operands(self, other)
    data = _compute(np.minimum, a, b, a.shape)
    return _output("minimum", data, (self, other), (self, other))


def atan2(self: Tensor, other: Tensor) -> Tensor:
    """The angle of the point (other, self): atan(self / other) in the right quadrant."""
    a, b, _ = _float_operands(self, other)
    data = _compute(np.arctan2, a, b, a.shape)
    return _output("atan2", data, (self, other), (self, other))


def hypot(self: Tensor, other: Tensor) -> Tensor:
    a, b, _ = _float_operands(self, other)
    data = _compute(np.hypot, a, b, a.shape)
    return _output("hypot", data, (self, other), (self, other, RESULT))


def lerp(self: Tensor, end: Tensor, weight) -> Tensor:
    """self + weight * (end - self), computed from the nearer end as torch does."""
    a, b = _operands(self, end)
    w = weight._data if isinstance(weight, Tensor) else weight
    data = np.asarray(np.where(np.abs(w) < 0.5, a + w * (b - a), b - (b - a) * (1 - w)),
                      dtype=a.dtype)
    if isinstance(weight, Tensor):
        return _output("lerp_tensor", data, (self, end, weight), (self, end, weight))
    return _output("lerp", data, (self, end), (weight,))


def _pointwise_with(op: str, combine):
    """addcmul and addcdiv: self + value * combine(tensor1, tensor2)."""

    def apply(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        a, b = _operands(self, tensor1)
        a, c = _operands(_make(a), tensor2)
        b = b.astype(a.dtype, copy=False)
        data = np.asarray(a + combine(value * b, c), dtype=a.dtype)
        return _output(op, data, (self, tensor1, tensor2), (tensor1, tensor2, value))

    apply.__name__ = op
    return apply


addcmul = _pointwise_with("addcmul", np.multiply)
addcdiv = _pointwise_with("addcdiv", np.divide)


def where(condition: Tensor, input, other) -> Tensor:
    """Elements of ``input`` where ``condition`` holds, else of ``other``."""
    mask = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        return _make(np.asarray(np.where(mask, input, other)))
    if not isinstance(input, Tensor):
        input = _scalar_like(input, other)
    if not isinstance(other, Tensor):
        other = _scalar_like(other, input)
    a, b = _operands(input, other)
    data = np.where(mask, a, b)
    return _output("where", data, (input, other), (condition,))


def _scalar_like(value, like: Tensor) -> Tensor:
    target = dtypes.result_type_scalar(like.dtype, value)
    return _make(np.asarray(value, dtype=target.numpy))


# ----- elementwise functions --------------------------------------------------------------------
def _floating(self: Tensor) -> np.ndarray:
    data = self._data
    if data.dtype.kind not in "fc":
        return data.astype(dtypes.get_default_dtype().numpy)
    return data


def _unary(op: str, function, saves_result: bool):
    def apply(self: Tensor) -> Tensor:
        data = self._data
        if data.dtype.kind != "f":
            data = _floating(self)
        return _output(op, function(data), (self,), _SAVE_RESULT if saves_result else (self,))

    apply.__name__ = op
    return apply


exp = _unary("exp", np.exp, True)
log = _unary("log", np.log, False)
log1p = _unary("log1p", np.log1p, False)
sqrt = _unary("sqrt", np.sqrt, True)
reciprocal = _unary("reciprocal", np.reciprocal, True)
sin = _unary("sin", np.sin, False)
cos = _unary("cos", np.cos, False)
tanh = _unary("tanh", np.tanh, True)


tan = _unary("tan", np.tan, True)
asin = _unary("asin", np.arcsin, False)
acos = _unary("acos", np.arccos, False)
atan = _unary("atan", np.arctan, False)


def _elementwise(function):
    """A math-module function over an array (NumPy has no erf), keeping its dtype."""
    each = np.frompyfunc(function, 1, 1)
    return lambda data: np.asarray(each(data), dtype=data.dtype)


erf = _unary("erf", _elementwise(math.erf), False)
erfc = _unary("erfc", _elementwise(math.erfc), False)


def isnan(self: Tensor) -> Tensor:
    return _make(np.isnan(self._data))


def isinf(self: Tensor) -> Tensor:
    return _make(np.isinf(self._data))


def isfinite(self: Tensor) -> Tensor:
    return _make(np.isfinite(self._data))
sinh = _unary("sinh", np.sinh, False)
cosh = _unary("cosh", np.cosh, False)
log2 = _unary("log2", np.log2, False)
log10 = _unary("log10", np.log10, False)
exp2 = _unary("exp2", np.exp2, True)
expm1 = _unary("expm1", np.expm1, True)


def _rounding(op: str, function):
    """floor, ceil, trunc, frac: integer tensors come back as they are, as in torch."""

    def apply(self: Tensor) -> Tensor:
        if self._data.dtype.kind != "f":
            return _make(self._data.copy())
        return _output(op, function(self._data), (self,))

    apply.__name__ = op
    return apply


floor = _rounding("floor", np.floor)
ceil = _rounding("ceil", np.ceil)
trunc = _rounding("trunc", np.trunc)
frac = _rounding("frac", lambda data: data - np.trunc(data))


def round(self: Tensor, *, decimals: int = 0) -> Tensor:
    """Halves to even, as NumPy and torch both round."""
    if self._data.dtype.kind != "f":
        return _make(self._data.copy())
    if decimals == 0:
        return _output("round", np.round(self._data), (self,))
    return _output("round_decimals", np.round(self._data, decimals), (self,))


def clamp_min(self: Tensor, min) -> Tensor:
    return _output("clamp_min", _clamped(self._data, min, None), (self,), (self, min))


def clamp_max(self: Tensor, max) -> Tensor:
    return _output("clamp_max", _clamped(self._data, None, max), (self,), (self, max))


def masked_fill(self: Tensor, mask: Tensor, value) -> Tensor:
    value = value.item() if isinstance(value, Tensor) else value
    mask_data = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if mask_data.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype if isinstance(mask, Tensor) else mask_data.dtype}")
    data = np.where(mask_data, np.asarray(value, dtype=self._data.dtype), self._data)
    return _output("masked_fill", data, (self,), (mask_data,))


def rsqrt(self: Tensor) -> Tensor:
    data = 1 / np.sqrt(_floating(self))
    return _output("rsqrt", data, (self,), (RESULT,))


def sigmoid(self: Tensor) -> Tensor:
    data = _floating(self)
    result = 1 / (1 + np.exp(-data))
    return _output("sigmoid", result.astype(data.dtype, copy=False), (self,), (RESULT,))


def relu(self: Tensor) -> Tensor:
    return _output("relu", np.maximum(self._data, 0).astype(self._data.dtype), (self,), (RESULT,))


def abs(self: Tensor) -> Tensor:
    return _output("abs", np.abs(self._data), (self,), (self,))


def sign(self: Tensor) -> Tensor:
    return _output("sign", np.sign(self._data), (self,))


def clamp(self: Tensor, min=None, max=None) -> Tensor:
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    return _output("clamp", _clamped(self._data, min, max), (self,), (self, min, max))


def _clamped(data: np.ndarray, low, high) -> np.ndarray:
    """``data`` within [low, high] (either may be None), in its own dtype."""
    result = data
    if low is not None:
        result = np.maximum(result, low)
    if high is not None:
        result = np.minimum(result, high)
    return np.asarray(result).astype(data.dtype, copy=False)


def clone(self: Tensor) -> Tensor:
    return _output("clone", self._data.copy(), (self,))


def to(self: Tensor, *args, **kwargs) -> Tensor:
    """Convert the dtype (devices other than the CPU need the torch engine)."""
    from ._tensor import device

    target = kwargs.get("dtype")
    for arg in args:
        if isinstance(arg, dtypes.dtype):
            target = arg
        elif isinstance(arg, Tensor):
            target = arg.dtype
        elif isinstance(arg, str | device):
            device(arg)
    if "device" in kwargs and kwargs["device"] is not None:
        device(kwargs["device"])
    if target is None or target.numpy == self._data.dtype:
        return self
    return _output("to", self._data.astype(target.numpy), (self,))


# ----- reductions -------------------------------------------------------------------------------
def _dims(dim, ndim: int) -> tuple[int, ...] | None:
    if dim is None:
        return None
    if isinstance(dim, int):
        dim = (dim,)
    return tuple(sorted(_wrap_dim(d, ndim) for d in dim))


def _sum_dtype(self: Tensor):
    kind = self._data.dtype.kind
    return np.int64 if kind in "biu" else None


def sum(self: Tensor, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    data = self._data
    target = dtype.numpy if dtype is not None else _sum_dtype(self)
    if dim is None or (isinstance(dim, list | tuple) and len(dim) == 0):
        result = np.sum(data, dtype=target)
        return _output("sum", result, (self,), (data.shape,))
    dims = _dims(dim, data.ndim)
    result = np.sum(data, axis=dims, keepdims=keepdim, dtype=target)
    return _output("sum_dim", result, (self,), (data.shape, dims, keepdim))


def mean(self: Tensor, dim=None, keepdim=False, *, dtype=None) -> Tensor:
    data = self._data
    if data.dtype.kind not in "fc" and dtype is None:
        name = {"i": "Long", "b": "Bool", "u": "Byte"}[data.dtype.kind]
        if data.dtype == np.int32:
            name = "Int"
        raise RuntimeError(
            "mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {name}"
        )
    if dtype is not None:
        data = data.astype(dtype.numpy)
    if dim is None:
        result = np.mean(data, dtype=data.dtype)
        return _output("mean", result, (self,), (data.shape, data.size))
    dims = _dims(dim, data.ndim)
    result = np.mean(data, axis=dims, keepdims=keepdim, dtype=data.dtype)
    count = int(np.prod([data.shape[d] for d in dims]))
    return _output("mean_dim", result, (self,), (data.shape, dims, keepdim, count))


def prod(self: Tensor, dim=None, keepdim=False) -> Tensor:
    data = self._data
    target = _sum_dtype(self)
    if dim is None:
        return _output("prod", np.prod(data, dtype=target), (self,), (self, RESULT))
    dim = _wrap_dim(dim, data.ndim)
    result = np.prod(data, axis=dim, keepdims=keepdim, dtype=target)
    return _output("prod_dim", result, (self,), (self, dim, keepdim, RESULT))


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
            return _output(op, reduce(data), (self,), (self, RESULT))
        dim = _wrap_dim(dim, data.ndim)
        indices = arg_reduce(data, axis=dim, keepdims=keepdim)
        values = np.take_along_axis(
            data, indices if keepdim else np.expand_dims(indices, dim), axis=dim
        )
        if not keepdim:
            values = np.squeeze(values, axis=dim)
        result = _output(f"{op}_dim", values, (self,), (data.shape, dim, keepdim, indices))
        return named(result, _make(np.asarray(indices, dtype=np.int64)))

    extreme.__name__ = op
    return extreme


max = _extreme("max", np.max, np.argmax, return_max)
min = _extreme("min", np.min, np.argmin, return_min)


def argmax(self: Tensor, dim=None, keepdim=False) -> Tensor:
    if dim is None:
        return _make(np.asarray(np.argmax(self._data), dtype=np.int64))
    return _make(np.asarray(np.argmax(self._data, axis=dim, keepdims=keepdim), dtype=np.int64))


def argmin(self: Tensor, dim=None, keepdim=False) -> Tensor:
    if dim is None:
        return _make(np.asarray(np.argmin(self._data), dtype=np.int64))
    return _make(np.asarray(np.argmin(self._data, axis=dim, keepdims=keepdim), dtype=np.int64))


def norm(self: Tensor, p="fro", dim=None, keepdim=False) -> Tensor:
    """Vector norm over ``dim`` (all elements by default), torch's LinalgVectorNormBackward0."""
    order = 2 if p in ("fro", None) else p
    data = _floating(self)
    dims = _dims(dim, data.ndim)
    axis = dims if dims is not None else None
    magnitude = np.abs(data)
    if order == math.inf:
        result = np.max(magnitude, axis=axis, keepdims=keepdim)
    elif order == 1:
        result = np.sum(magnitude, axis=axis, keepdims=keepdim)
    elif order == 2:
        result = np.sqrt(np.sum(magnitude * magnitude, axis=axis, keepdims=keepdim))
    else:
        result = np.sum(magnitude**order, axis=axis, keepdims=keepdim) ** (1.0 / order)
    result = np.asarray(result, dtype=data.dtype)
    return _output("norm", result, (self,), (self, order, dims, keepdim, RESULT))


def _correction(unbiased, correction) -> float:
    if correction is not None:
        return correction
    return 1 if unbiased in (None, True) else 0


def var(self: Tensor, dim=None, unbiased=None, keepdim=False, *, correction=None) -> Tensor:
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    data = self._data
    dims = _dims(dim, data.ndim)
    correction = _correction(unbiased, correction)
    result = np.var(data, axis=dims, ddof=correction, keepdims=keepdim)
    return _output("var", np.asarray(result, dtype=data.dtype), (self,),
                   (self, dims, correction, keepdim))


def std(self: Tensor, dim=None, unbiased=None, keepdim=False, *, correction=None) -> Tensor:
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    data = self._data
    dims = _dims(dim, data.ndim)
    correction = _correction(unbiased, correction)
    result = np.std(data, axis=dims, ddof=correction, keepdims=keepdim)
    return _output("std", np.asarray(result, dtype=data.dtype), (self,),
                   (self, dims, correction, keepdim, RESULT))


def _extremes(op: str, function):
    """amax and amin: the gradient is shared evenly by the elements that reach the extreme."""

    def apply(self: Tensor, dim=(), keepdim=False) -> Tensor:
        dims = _dims(dim, self._data.ndim) or None  # () means every dimension, as None does
        if self._data.size == 0:
            raise IndexError(f"{op}(): Expected reduction dim to be specified for input.numel() "
                             "== 0. Specify the reduction dim with the 'dim' argument.")
        result = np.asarray(function(self._data, axis=dims, keepdims=keepdim))
        return _output(op, result, (self,), (self, dims, keepdim, RESULT))

    apply.__name__ = op
    return apply


amax = _extremes("amax", np.max)
amin = _extremes("amin", np.min)


def logsumexp(self: Tensor, dim, keepdim=False) -> Tensor:
    data = _floating(self)
    dims = _dims(dim, data.ndim)
    peak = np.max(data, axis=dims, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0)  # all -inf (or an inf) stays exact
    result = np.log(np.sum(np.exp(data - peak), axis=dims, keepdims=True)) + peak
    if not keepdim:
        result = np.squeeze(result, axis=dims)
    return _output("logsumexp", np.asarray(result, dtype=data.dtype), (self,),
                   (self, dims, keepdim, RESULT))


def cumsum(self: Tensor, dim: int, *, dtype=None) -> Tensor:
    data = self._data
    dim = _wrap_dim(dim, data.ndim)
    target = dtype.numpy if dtype is not None else _sum_dtype(self)
    result = np.cumsum(data, axis=dim, dtype=target) if data.ndim else data.astype(
        target or data.dtype)
    return _output("cumsum", np.asarray(result), (self,), (dim,))


def _sorting_order(data: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Indices that sort ``data`` along ``dim``, ties in their order; NaN counts as largest."""
    if data.ndim == 0:
        return np.zeros((), np.int64)
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
    return _output(op, values, (self,), (data.shape, dim, order))


def sort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    dim = _wrap_dim(dim, self.ndim)
    order = _sorting_order(self._data, dim, descending)
    return return_sort(_picked(self, "sort", order, dim), _make(order))


def argsort(self: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    return _make(_sorting_order(self._data, _wrap_dim(dim, self.ndim), descending))


def topk(self: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    dim = _wrap_dim(dim, self.ndim)
    size = self._data.shape[dim] if self.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    order = _sorting_order(self._data, dim, largest)
    order = np.take(order, np.arange(k), axis=dim) if self.ndim else order
    return return_topk(_picked(self, "topk", order, dim), _make(order))


def roll(self: Tensor, shifts, dims=None) -> Tensor:
    """Elements shifted along ``dims`` (the flattened tensor without), wrapping round."""
    if dims is not None:
        dims = tuple(_wrap_dim(d, self.ndim) for d in (dims if isinstance(dims, list | tuple)
                                                        else (dims,)))
    shifts = tuple(shifts) if isinstance(shifts, list | tuple) else shifts
    data = np.roll(self._data, shifts, axis=dims)
    return _output("roll", np.asarray(data), (self,), (shifts, dims))


def softmax(self: Tensor, dim: int, dtype=None) -> Tensor:
    data = _floating(self) if dtype is None else self._data.astype(dtype.numpy)
    dim = _wrap_dim(dim, data.ndim)
    shifted = np.exp(data - np.max(data, axis=dim, keepdims=True))
    result = shifted / np.sum(shifted, axis=dim, keepdims=True)
    return _output("softmax", result, (self,), (RESULT, dim))


def log_softmax(self: Tensor, dim: int, dtype=None) -> Tensor:
    data = _floating(self) if dtype is None else self._data.astype(dtype.numpy)
    dim = _wrap_dim(dim, data.ndim)
    shifted = data - np.max(data, axis=dim, keepdims=True)
    result = shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))
    return _output("log_softmax", result, (self,), (RESULT, dim))


def all(self: Tensor, dim=None, keepdim=False) -> Tensor:
    return _make(np.asarray(np.all(self._data, axis=dim, keepdims=keepdim)))


def any(self: Tensor, dim=None, keepdim=False) -> Tensor:
    return _make(np.asarray(np.any(self._data, axis=dim, keepdims=keepdim)))


# ----- linear algebra ---------------------------------------------------------------------------
def _shape_text(shape) -> str:
    return "x".join(str(s) for s in shape)


def mm(self: Tensor, mat2: Tensor) -> Tensor:
    if self.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if self.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_shape_text(self.shape)} and "
            f"{_shape_text(mat2.shape)})"
        )
    a, b = _operands(self, mat2)
    return _output("mm", np.matmul(a, b), (self, mat2), (self, mat2))


def mv(self: Tensor, vec: Tensor) -> Tensor:
    if self.ndim != 2 or vec.ndim != 1 or self.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({self.shape[0]}), mat ({_shape_text(self.shape)}), "
            f"vec ({vec.shape[0]})"
        )
    a, b = _operands(self, vec)
    return _output("mv", np.matmul(a, b), (self, vec), (self, vec))


def dot(self: Tensor, other: Tensor) -> Tensor:
    if self.ndim != 1 or other.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {self.ndim}D and {other.ndim}D tensors"
        )
    if self.shape[0] != other.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{self.shape[0]}] and src "
            f"[{other.shape[0]}] to have the same number of elements, but got {self.shape[0]} "
            f"and {other.shape[0]} elements respectively"
        )
    a, b = _operands(self, other)
    return _output("dot", np.asarray(np.dot(a, b)), (self, other), (self, other))


def bmm(self: Tensor, mat2: Tensor) -> Tensor:
    expected = [self.shape[0], self.shape[2]]
    if list(mat2.shape[:2]) != expected:
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{expected[0]}, {expected[1]}] but got: [{mat2.shape[0]}, {mat2.shape[1]}]."
        )
    a, b = _operands(self, mat2)
    return _output("bmm", np.matmul(a, b), (self, mat2), (self, mat2))


def matmul(self: Tensor, other: Tensor) -> Tensor:
    """Dispatch like torch: dot, mv, mm, or folded/batched mm with torch's graph shape."""
    if self.ndim == 0 or other.ndim == 0:
        raise RuntimeError(
            "both arguments to matmul need to be at least 1D, but they are "
            f"{self.ndim}D and {other.ndim}D"
        )
    if self.ndim == 1 and other.ndim == 1:
        return dot(self, other)
    if self.ndim == 2 and other.ndim == 1:
        return mv(self, other)
    if self.ndim == 2 and other.ndim == 2:
        return mm(self, other)
    if self.ndim == 1 and other.ndim == 2:
        product = mm(unsqueeze(self, 0), other)
        return _squeeze_to(product, product.shape[1:], "squeeze_dims")
    if other.ndim <= 2 and self.ndim >= 3:
        folded = reshape(self, (-1, self.shape[-1]))
        right = other if other.ndim == 2 else unsqueeze(other, 1)
        product = mm(folded, right)
        shape = tuple(self.shape[:-1]) + ((right.shape[1],) if other.ndim == 2 else ())
        return _unsafe_view(product, shape)
    return _batched_matmul(self, other)


def _batched_matmul(self: Tensor, other: Tensor) -> Tensor:
    left = self if self.ndim > 1 else unsqueeze(self, 0)
    right = other if other.ndim > 1 else unsqueeze(other, 1)
    batch = np.broadcast_shapes(tuple(left.shape[:-2]), tuple(right.shape[:-2]))
    count = int(np.prod(batch)) if batch else 1
    left3 = view(expand(left, (*batch, *left.shape[-2:])), (count, *left.shape[-2:]))
    right3 = view(expand(right, (*batch, *right.shape[-2:])), (count, *right.shape[-2:]))
    product = bmm(left3, right3)
    shape = (*batch, left.shape[-2], right.shape[-1])
    if self.ndim == 1:
        shape = (*batch, right.shape[-1])
    elif other.ndim == 1:
        shape = (*batch, left.shape[-2])
    return _unsafe_view(product, shape)


def rmatmul(self: Tensor, other) -> Tensor:
    return matmul(as_tensor_operand(other), self)


def outer(self: Tensor, other: Tensor) -> Tensor:
    return mul(unsqueeze(self, 1), other)


# ----- shapes and views ---------------------------------------------------------------------
def _shape_arg(shape) -> tuple:
    if len(shape) == 1 and isinstance(shape[0], tuple | list | Size):
        shape = shape[0]
    return tuple(int(s) for s in shape)


def _infer_shape(shape: tuple, numel: int) -> tuple:
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = int(np.prod([s for s in shape if s != -1])) if shape else 1
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '[{', '.join(map(str, shape))}]' is invalid for input of "
                               f"size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    if int(np.prod(shape)) != numel:
        raise RuntimeError(
            f"shape '[{', '.join(map(str, shape))}]' is invalid for input of size {numel}"
        )
    return shape


def _view_data(data: np.ndarray, shape: tuple):
    """A reshape that never copies, or None when the strides don't allow one."""
    result = data.view()
    try:
        result.shape = shape
    except AttributeError:
        return None
    return result


def view(self: Tensor, *shape) -> Tensor:
    if len(shape) == 1 and isinstance(shape[0], dtypes.dtype):
        return _make(self._data.view(shape[0].numpy))
    shape = _infer_shape(_shape_arg(shape), self._data.size)
    data = _view_data(self._data, shape)
    if data is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return _output("view", data, (self,), (self._data.shape,), shared_counter(self), self)


def reshape(self: Tensor, *shape) -> Tensor:
    shape = _infer_shape(_shape_arg(shape), self._data.size)
    data = _view_data(self._data, shape)
    if data is not None:
        return _output("view", data, (self,), (self._data.shape,), shared_counter(self), self)
    return _unsafe_view(clone(self), shape)


def _unsafe_view(self: Tensor, shape: tuple) -> Tensor:
    data = self._data.reshape(shape)
    return _output("unsafe_view", data, (self,), (self._data.shape,))


def view_as(self: Tensor, other: Tensor) -> Tensor:
    return view(self, tuple(other.shape))


def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return reshape(self, tuple(other.shape))


def flatten(self: Tensor, start_dim=0, end_dim=-1) -> Tensor:
    ndim = self.ndim
    if ndim == 0:
        return reshape(self, (1,))
    start, end = _wrap_dim(start_dim, ndim), _wrap_dim(end_dim, ndim)
    if start == end:
        return self
    shape = self._data.shape
    middle = int(np.prod(shape[start : end + 1]))
    return reshape(self, shape[:start] + (middle,) + shape[end + 1 :])


def t(self: Tensor) -> Tensor:
    if self.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self.ndim}D")
    return _output("t", self._data.T, (self,), (), shared_counter(self), self)


def transpose(self: Tensor, dim0: int, dim1: int) -> Tensor:
    ndim = self.ndim
    dim0, dim1 = _wrap_dim(dim0, ndim), _wrap_dim(dim1, ndim)
    data = np.swapaxes(self._data, dim0, dim1)
    return _output("transpose", data, (self,), (dim0, dim1), shared_counter(self), self)


def permute(self: Tensor, *dims) -> Tensor:
    dims = _shape_arg(dims)
    if len(dims) != self.ndim:
        raise RuntimeError(
            "permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {self.ndim} is not "
            f"equal to len(dims) = {len(dims)}"
        )
    dims = tuple(_wrap_dim(d, self.ndim) for d in dims)
    data = np.transpose(self._data, dims)
    return _output("permute", data, (self,), (dims,), shared_counter(self), self)


def T(self: Tensor) -> Tensor:
    if self.ndim < 2:
        return self
    return permute(self, *reversed(range(self.ndim)))


def mT(self: Tensor) -> Tensor:
    return transpose(self, -2, -1)


def _squeeze_to(self: Tensor, shape: tuple, op: str) -> Tensor:
    data = self._data.reshape(tuple(shape))
    return _output(op, data, (self,), (self._data.shape,), shared_counter(self), self)


def squeeze(self: Tensor, dim=None) -> Tensor:
    shape = self._data.shape
    if dim is None:
        return _squeeze_to(self, tuple(s for s in shape if s != 1), "squeeze")
    if isinstance(dim, tuple | list):
        dims = {_wrap_dim(d, self.ndim) for d in dim}
        kept = tuple(s for i, s in enumerate(shape) if not (i in dims and s == 1))
        return _squeeze_to(self, kept, "squeeze_dims")
    dim = _wrap_dim(dim, self.ndim)
    kept = tuple(s for i, s in enumerate(shape) if not (i == dim and s == 1))
    return _squeeze_to(self, kept, "squeeze_dim")


def unsqueeze(self: Tensor, dim: int) -> Tensor:
    dim = _wrap_dim(dim, self.ndim + 1)
    data = np.expand_dims(self._data, dim)
    return _output("unsqueeze", data, (self,), (dim,), shared_counter(self), self)


def expand(self: Tensor, *sizes) -> Tensor:
    sizes = _shape_arg(sizes)
    shape = self._data.shape
    if len(sizes) < len(shape):
        raise RuntimeError(
            f"expand(torch.FloatTensor{{[{', '.join(map(str, shape))}]}}, "
            f"size=[{', '.join(map(str, sizes))}]): the number of sizes provided "
            f"({len(sizes)}) must be greater or equal to the number of dimensions in the tensor "
            f"({len(shape)})"
        )
    offset = len(sizes) - len(shape)
    target = []
    for i, size in enumerate(sizes):
        existing = shape[i - offset] if i >= offset else 1
        if size == -1:
            size = existing
        elif existing != 1 and existing != size:
            raise RuntimeError(
                f"The expanded size of the tensor ({size}) must match the existing size "
                f"({existing}) at non-singleton dimension {i}.  Target sizes: "
                f"[{', '.join(map(str, sizes))}].  Tensor sizes: [{', '.join(map(str, shape))}]"
            )
        target.append(size)
    data = np.broadcast_to(self._data, tuple(target))
    return _output("expand", data, (self,), (shape,), shared_counter(self), self)


def expand_as(self: Tensor, other: Tensor) -> Tensor:
    return expand(self, tuple(other.shape))


def contiguous(self: Tensor) -> Tensor:
    if self._data.flags.c_contiguous:
        return self
    return clone(self)


def is_contiguous(self: Tensor) -> bool:
    return bool(self._data.flags.c_contiguous)


def select(self: Tensor, dim: int, index: int) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    size = self._data.shape[dim]
    if not -size <= index < size:
        raise IndexError(
            f"index {index} is out of bounds for dimension {dim} with size {size}"
        )
    index = index % size
    data = self._data[(slice(None),) * dim + (index,)]
    saved = (self._data.shape, dim, index)
    return _output("select", data, (self,), saved, shared_counter(self), self)


def _slice(self: Tensor, dim: int, start: int, end: int, step: int) -> Tensor:
    data = self._data[(slice(None),) * dim + (slice(start, end, step),)]
    return _output("slice", data, (self,), (self._data.shape, dim, start, end, step),
                   shared_counter(self), self)


def narrow(self: Tensor, dim: int, start: int, length: int) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    return _slice(self, dim, start, start + length, 1)


def flip(self: Tensor, *dims) -> Tensor:
    """``x.flip(0, 1)``, ``x.flip([0, 1])`` and ``torch.flip(x, dims)``: a copy, as in torch."""
    if len(dims) == 1 and isinstance(dims[0], list | tuple):
        dims = tuple(dims[0])
    axes = tuple(_wrap_dim(d, self.ndim) for d in dims)
    return _output("flip", np.flip(self._data, axes).copy(), (self,), (axes,))


def _triangle(op: str, function):
    def apply(self: Tensor, diagonal: int = 0) -> Tensor:
        if self.ndim < 2:
            raise RuntimeError(f"{op}: input tensor must have at least 2 dimensions")
        return _output(op, function(self._data, diagonal), (self,), (diagonal,))

    apply.__name__ = op
    return apply


tril = _triangle("tril", np.tril)
triu = _triangle("triu", np.triu)


def addmm(self: Tensor, mat1: Tensor, mat2: Tensor) -> Tensor:
    """``self + mat1 @ mat2`` as one node: what nn.Linear records for a batch of rows."""
    if mat1.ndim != 2 or mat2.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.ndim}-D tensor" if mat1.ndim != 2
                           else f"mat2 must be a matrix, got {mat2.ndim}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x"
                           f"{mat1.shape[1]} and {mat2.shape[0]}x{mat2.shape[1]})")
    data = np.asarray(self._data + mat1._data @ mat2._data)
    return _output("addmm", data, (self, mat1, mat2), (mat1, mat2))


def _index_data(index) -> np.ndarray:
    data = index._data if isinstance(index, Tensor) else np.asarray(index)
    if data.dtype.kind not in "iu":
        raise RuntimeError(f"gather(): Expected dtype int64 for index, got {data.dtype}")
    return data.astype(np.int64, copy=False)


def _along_axis(index: np.ndarray, dim: int) -> tuple:
    """Index arrays that address element (..., index[i], ...) of each position i, on ``dim``."""
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim] = index
    return tuple(grid)


def gather(self: Tensor, dim: int, index) -> Tensor:
    """out[i][j] = self[i][index[i][j]] (for dim 1): values picked along one dimension."""
    dim = _wrap_dim(dim, self.ndim)
    positions = _index_data(index)
    data = self._data[_along_axis(positions, dim)]
    return _output("gather", np.asarray(data), (self,), (self.shape, dim, positions))


def scatter(self: Tensor, dim: int, index, src=None, *, value=None) -> Tensor:
    """A copy of self with src's values (or one number) written where index points."""
    dim = _wrap_dim(dim, self.ndim)
    positions = _index_data(index)
    data = self._data.copy()
    where = _along_axis(positions, dim)
    if isinstance(src, Tensor):
        source = src._data[tuple(slice(0, n) for n in positions.shape)]
        data[where] = source.astype(data.dtype, copy=False)
        return _output("scatter", data, (self, src), (dim, positions))
    data[where] = src if value is None else value
    return _output("scatter_value", data, (self,), (dim, positions))


def scatter_add(self: Tensor, dim: int, index, src: Tensor) -> Tensor:
    """A copy of self with src added at the positions index names along ``dim``."""
    dim = _wrap_dim(dim, self.ndim)
    positions = _index_data(index)
    data = self._data.copy()
    source = src._data[tuple(slice(0, n) for n in positions.shape)]
    np.add.at(data, _along_axis(positions, dim), source.astype(data.dtype, copy=False))
    return _output("scatter_add", data, (self, src), (dim, positions))


def index_select(self: Tensor, dim: int, index) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    positions = _index_data(index).reshape(-1)
    data = np.take(self._data, positions, axis=dim)
    return _output("index_select", data, (self,), (self.shape, dim, positions))


def index_add(self: Tensor, dim: int, index, source: Tensor, *, alpha=1) -> Tensor:
    dim = _wrap_dim(dim, self.ndim)
    positions = _index_data(index).reshape(-1)
    data = self._data.copy()
    added = source._data if alpha == 1 else source._data * alpha
    np.add.at(data, (slice(None),) * dim + (positions,), added.astype(data.dtype, copy=False))
    return _output("index_add", data, (self, source), (dim, positions, alpha))


def repeat(self: Tensor, *sizes) -> Tensor:
    if len(sizes) == 1 and isinstance(sizes[0], list | tuple):
        sizes = tuple(sizes[0])
    if len(sizes) < self.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number "
                           "of dimensions of tensor")
    return _output("repeat", np.tile(self._data, sizes), (self,), (self.shape, tuple(sizes)))


def _is_basic(item) -> bool:
    if item is None or item is Ellipsis or isinstance(item, slice):
        return True
    if isinstance(item, bool):
        return False
    if isinstance(item, int | np.integer):
        return True
    return isinstance(item, Tensor) and item.ndim == 0 and item._data.dtype.kind in "iu"


def _index_array(item):
    if isinstance(item, Tensor):
        return item._data
    if isinstance(item, list | tuple):
        return np.asarray([_index_array(i) if isinstance(i, Tensor) else i for i in item])
    return item


def getitem(self: Tensor, index) -> Tensor:
    """Indexing as a chain of select/slice/unsqueeze nodes, or one IndexBackward0."""
    items = index if isinstance(index, tuple) else (index,)
    if not builtins.all(_is_basic(item) for item in items):
        indices = tuple(_index_array(item) for item in items)
        indices = indices[0] if len(indices) == 1 and not isinstance(index, tuple) else indices
        try:
            data = self._data[indices]
        except IndexError as error:
            raise IndexError(str(error)) from None
        return _output("index", np.array(data), (self,), (self._data.shape, indices))
    consumed = builtins.sum(1 for item in items if item is not None and item is not Ellipsis)
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
            stop = builtins.max(stop, start)
            if lone_slice or not (start == 0 and stop == size and step == 1):
                result = _slice(result, dim, start, stop, step)
            dim += 1
        else:
            result = select(result, dim, int(item))
    return _alias(self) if result is self else result


def _alias(self: Tensor) -> Tensor:
    """``x[...]``/``x[:, :]``: a new view of the same values (torch's AliasBackward0)."""
    return _output("alias", self._data[...], (self,), (), shared_counter(self), self)


def cat(tensors, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("torch.cat(): expected a non-empty list of Tensors")
    reference = next((t for t in tensors if t.ndim > 0), tensors[0])
    dim = _wrap_dim(dim, reference.ndim)
    for number, tensor in enumerate(tensors):
        if tensor.ndim == 1 and tensor.shape[0] == 0 and reference.ndim > 1:
            continue
        for d in range(reference.ndim):
            if d != dim and tensor.shape[d] != reference.shape[d]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {dim}. Expected size "
                    f"{reference.shape[d]} but got size {tensor.shape[d]} for tensor number "
                    f"{number} in the list."
                )
    target = tensors[0].dtype
    for tensor in tensors[1:]:
        target = dtypes.promote_types(target, tensor.dtype)
    data = np.concatenate([t._data.astype(target.numpy, copy=False) for t in tensors], axis=dim)
    sizes = tuple(t.shape[dim] if t.ndim > dim else 0 for t in tensors)
    offsets = tuple(int(o) for o in np.cumsum((0,) + sizes[:-1]))
    return _output("cat", data, tuple(tensors), (dim, offsets, sizes))


def stack(tensors, dim: int = 0) -> Tensor:
    tensors = list(tensors)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    first = tensors[0].shape
    for number, tensor in enumerate(tensors):
        if tensor.shape != first:
            raise RuntimeError(
                "stack expects each tensor to be equal size, but got "
                f"[{', '.join(map(str, first))}] at entry 0 and "
                f"[{', '.join(map(str, tensor.shape))}] at entry {number}"
            )
    dim = _wrap_dim(dim, len(first) + 1)
    target = tensors[0].dtype
    for tensor in tensors[1:]:
        target = dtypes.promote_types(target, tensor.dtype)
    data = np.stack([t._data.astype(target.numpy, copy=False) for t in tensors], axis=dim)
    return _output("stack", data, tuple(tensors), (dim,))


def scatter_into_zeros(op: str, grad: Tensor, shape: tuple, index, saved: tuple) -> Tensor:
    """The backward of select/slice/index as a recorded op, for double backward."""
    data = np.zeros(shape, dtype=grad._data.dtype)
    if op == "index_backward":
        np.add.at(data, index, grad._data)
    else:
        data[index] = grad._data
    return _output(op, data, (grad,), saved)


def tensor_from_array(array: np.ndarray) -> Tensor:
    return _make(np.asarray(array))


def zeros_like(self: Tensor) -> Tensor:
    return _make(np.zeros_like(self._data))


# ----- in-place operations ----------------------------------------------------------------------
def _torch_kind_name(numpy_dtype) -> str:
    return dtypes.from_numpy_dtype(numpy_dtype).legacy_name.replace("Tensor", "")


def _write_inplace(self: Tensor, result: np.ndarray) -> None:
    """Store ``result`` into self's own memory (views see it) and bump the version counter."""
    result = np.asarray(result)
    target = self._data.dtype
    if result.dtype != target and np.can_cast(result.dtype, target, "same_kind") is False:
        raise RuntimeError(
            f"result type {_torch_kind_name(result.dtype)} can't be cast to the desired output "
            f"type {_torch_kind_name(target)}"
        )
    if self._data.flags.writeable:
        np.copyto(self._data, result, casting="unsafe")
    else:
        self._data = result.astype(target)
    bump_version(self)


def _inplace(op: str, self: Tensor, result: np.ndarray, other, saved: tuple) -> Tensor:
    self._check_inplace()
    other_tensor = _tensor_or_none(other)
    record = GradMode.enabled and (self._rg or (other_tensor is not None and other_tensor._rg))
    if record:
        inputs = (self,) if op in ("zero_", "fill_") else (self, other_tensor)
        history = _make(self._data, self.grad_fn, shared_counter(self))
        history._rg = self._rg
        history._grad_acc = self._grad_acc
        # The old self is an input: point the new node at self's previous history.
        edge_source = (history if self.grad_fn is not None else self,) + inputs[1:]
    _write_inplace(self, result)
    if record:
        holder = _make(self._data, None, shared_counter(self))
        _attach_node(holder, NODE_CLASSES[op], edge_source, saved)
        self.grad_fn = holder.grad_fn
        self._rg = True
    return self


def _original(self: Tensor) -> Tensor:
    """A saved copy of self before an in-place op overwrites it."""
    return _make(self._data.copy())


def add_(self: Tensor, other, *, alpha=1) -> Tensor:
    a, b = _operands(self, other)
    if alpha != 1:
        b = b * alpha
    return _inplace("add", self, _compute(np.add, a, b, a.shape), other, (alpha,))


def sub_(self: Tensor, other, *, alpha=1) -> Tensor:
    a, b = _operands(self, other)
    if alpha != 1:
        b = b * alpha
    return _inplace("sub", self, _compute(np.subtract, a, b, a.shape), other, (alpha,))


def mul_(self: Tensor, other) -> Tensor:
    a, b = _operands(self, other)
    saved = (_original(self), other)
    return _inplace("mul", self, _compute(np.multiply, a, b, a.shape), other, saved)


def div_(self: Tensor, other) -> Tensor:
    a, b, _ = _float_operands(self, other)
    saved = (_original(self), other)
    return _inplace("div", self, _compute(np.true_divide, a, b, a.shape), other, saved)


def pow_(self: Tensor, exponent) -> Tensor:
    a, b = _operands(self, exponent)
    return _inplace("pow", self, _compute(np.power, a, b, a.shape), None,
                    (_original(self), exponent))


def clamp_(self: Tensor, min=None, max=None) -> Tensor:
    result = clamp(self.detach(), min, max)._data
    return _inplace("clamp", self, result, None, (_original(self), min, max))


def zero_(self: Tensor) -> Tensor:
    return _inplace("zero_", self, np.zeros_like(self._data), None, ())


def fill_(self: Tensor, value) -> Tensor:
    value = value.item() if isinstance(value, Tensor) else value
    return _inplace("fill_", self, np.full_like(self._data, value), None, ())


def copy_(self: Tensor, source: Tensor) -> Tensor:
    self._check_inplace()
    _write_inplace(self, np.broadcast_to(as_tensor_operand(source)._data, self._data.shape))
    return self


def setitem(self: Tensor, index, value) -> None:
    """``x[index] = value``: torch's CopySlices when the write is recorded."""
    if isinstance(index, Tensor) or (
        isinstance(index, tuple) and builtins.any(isinstance(i, Tensor | list) for i in index)
    ):
        index = tuple(_index_array(i) for i in index) if isinstance(index, tuple) else (
            _index_array(index))
    elif isinstance(index, list):
        index = _index_array(index)
    self._check_inplace_view_message()
    value_tensor = value if isinstance(value, Tensor) else None
    record = GradMode.enabled and (self._rg or (value_tensor is not None and value_tensor._rg))
    if record:
        previous = _make(self._data, self.grad_fn, shared_counter(self))
        previous._rg = self._rg
        previous._grad_acc = self._grad_acc
        edge_source = (previous if self.grad_fn is not None else self, value_tensor)
    source = value._data if value_tensor is not None else value
    if self._data.flags.writeable:
        self._data[index] = source
    else:
        self._data = self._data.copy()
        self._data[index] = source
    bump_version(self)
    if record:
        holder = _make(self._data, None, shared_counter(self))
        _attach_node(holder, NODE_CLASSES["copy_slices"], edge_source, (index,))
        self.grad_fn = holder.grad_fn
        self._rg = True


def _check_inplace_view_message(self: Tensor) -> None:
    """Item assignment writes through a view in torch, hence its 'view of a leaf' message."""
    if GradMode.enabled and self.grad_fn is None and self._rg:
        raise RuntimeError(
            "a view of a leaf Variable that requires grad is being used in an in-place operation."
        )
    self._check_inplace()



# ----- fast paths ------------------------------------------------------------------------------
# The arithmetic and elementwise functions of tutorial code, with the general machinery above
# inlined: same results and same nodes, in half the time. Anything unusual (mixed dtypes,
# integer tensors, odd operand types) falls back to the general function.


# Per fast dtype, Python numbers already turned into read-only 0-d arrays of that dtype.
_FAST_DTYPES: dict = {np.dtype(np.float32): {}, np.dtype(np.float64): {}}


def _scalar_array(value: float | int, dtype) -> np.ndarray:
    """A read-only 0-d array for a Python number: NumPy multiplies by it twice as fast."""
    cache = _FAST_DTYPES[dtype]
    if len(cache) > 256:
        cache.clear()
    array = np.asarray(value, dtype)
    array.flags.writeable = False
    cache[value] = array
    return array


def _fast_binary(op: str, ufunc, general, reflected: bool = False):
    """The fast ``self op other``; ``reflected`` is ``number op self`` (rsub: one edge)."""
    node_class = NODE_CLASSES[op]
    gates = node_class.rule.save_gates
    saves_operands = node_class.rule.saves == ("self", "other")
    self_gate = saves_operands and gates[0] is not None
    other_gate = saves_operands and gates[1] is not None
    alpha_only = (1,)

    def operator(self, other):
        a = self._data
        dtype = a.dtype
        scalars = _FAST_DTYPES.get(dtype)
        if scalars is None:
            return general(self, other)
        if other.__class__ is Tensor and not reflected:
            b = other._data
            if dtype is not b.dtype:
                return general(self, other)
            other_tensor = other
        elif other.__class__ is float or other.__class__ is int:
            b = scalars.get(other)
            if b is None:
                b = _scalar_array(other, dtype)
            other_tensor = None
        else:
            return general(self, other)
        try:
            data = ufunc(b, a) if reflected else ufunc(a, b)
        except ValueError:
            raise _broadcast_error(a.shape, b.shape) from None
        if data.__class__ is not _ndarray:
            data = np.asarray(data)
        out = _make(data)
        if not (GradMode.enabled and (self._rg or (other_tensor is not None and other_tensor._rg))):
            return out
        node = _new(node_class)
        first = self.grad_fn
        if first is None:
            first = _edge(self)
        second = None
        if other_tensor is not None:
            second = other_tensor.grad_fn
            if second is None and other_tensor._rg:
                # A leaf (a weight, usually): its AccumulateGrad, alive while any node uses it.
                accumulator = other_tensor._grad_acc
                second = accumulator() if accumulator is not None else None
                if second is None:
                    second = _edge(other_tensor)
        node._n0 = first
        if not reflected:
            node._n1 = second
        node._seq = _next_sequence()
        shape = data.shape
        node._shape = shape
        node._np_dtype = dtype
        node._hooks = None
        node._deps = None
        # Same dtypes by construction; same shapes unless the operands broadcast.
        node._exact = other_tensor is None or a.shape == b.shape
        out._rg = True
        out.grad_fn = node
        if not saves_operands:
            node._saved = alpha_only
            node._versions = ()
            return out
        saved_self = None
        if not self_gate or second is not None:
            self_counter = self._vc
            if self_counter is None:
                self_counter = self._vc = new_counter()
                self_version = ZERO_VERSION
            else:
                self_version = bytes(self_counter)
            saved_self = a
        saved_other = None
        other_counter = None
        if not other_gate or first is not None:
            saved_other = b
            if other_tensor is not None:
                other_counter = other_tensor._vc
                if other_counter is None:
                    other_counter = other_tensor._vc = new_counter()
                    other_version = ZERO_VERSION
                else:
                    other_version = bytes(other_counter)
        node._saved = (saved_self, saved_other)
        if saved_self is None:
            node._versions = () if other_counter is None else (1, other_counter, other_version)
        elif other_counter is None:
            node._versions = (0, self_counter, self_version)
        else:
            node._versions = (0, self_counter, self_version, 1, other_counter, other_version)
        return out

    operator.__name__ = op
    operator.__doc__ = general.__doc__
    return operator


def _fast_unary(op: str, ufunc, general):
    node_class = NODE_CLASSES[op]
    saves_result = node_class.rule.saves == ("result",)

    def function(self):
        a = self._data
        if a.dtype not in _FAST_DTYPES:
            return general(self)
        data = ufunc(a)
        if data.__class__ is not _ndarray:
            data = np.asarray(data)
        out = _make(data)
        if not (GradMode.enabled and self._rg):
            return out
        node = _new(node_class)
        first = self.grad_fn
        node._n0 = first if first is not None else _edge(self)
        node._seq = _next_sequence()
        node._shape = data.shape
        node._np_dtype = data.dtype
        node._hooks = None
        node._deps = None
        node._exact = True
        out._rg = True
        out.grad_fn = node
        if saves_result:
            counter = out._vc = new_counter()
            node._saved = (data,)
            node._versions = (0, counter, ZERO_VERSION)
        else:
            counter = self._vc
            if counter is None:
                counter = self._vc = new_counter()
                version = ZERO_VERSION
            else:
                version = bytes(counter)
            node._saved = (a,)
            node._versions = (0, counter, version)
        return out

    function.__name__ = op
    function.__doc__ = general.__doc__
    return function


_general_add, _general_sub, _general_mul, _general_div = add, sub, mul, div


def add(self: Tensor, other, *, alpha=1) -> Tensor:
    if alpha != 1:
        return _general_add(self, other, alpha=alpha)
    return _fast_add(self, other)


def sub(self: Tensor, other, *, alpha=1) -> Tensor:
    if alpha != 1:
        return _general_sub(self, other, alpha=alpha)
    return _fast_sub(self, other)


def div(self: Tensor, other, *, rounding_mode=None) -> Tensor:
    if rounding_mode is not None:
        return _general_div(self, other, rounding_mode=rounding_mode)
    return _fast_div(self, other)


_fast_rsub = _fast_binary("rsub", np.subtract, rsub, reflected=True)
_fast_add = _fast_binary("add", np.add, _general_add)
_fast_sub = _fast_binary("sub", np.subtract, _general_sub)
_fast_div = _fast_binary("div", np.true_divide, _general_div)
mul = _fast_binary("mul", np.multiply, _general_mul)
exp = _fast_unary("exp", np.exp, exp)
log = _fast_unary("log", np.log, log)
sqrt = _fast_unary("sqrt", np.sqrt, sqrt)
sin = _fast_unary("sin", np.sin, sin)
cos = _fast_unary("cos", np.cos, cos)
tanh = _fast_unary("tanh", np.tanh, tanh)


def _not_implemented_for_foreign(function):
    """Operators return NotImplemented for operand types they don't know, as Python expects."""

    def operator(self: Tensor, other):
        if not isinstance(other, Tensor | int | float | bool | np.generic):
            return NotImplemented
        return function(self, other)

    return operator


def _inplace_operator(function):
    def operator(self: Tensor, other):
        return function(self, other)

    return operator


def type_(self: Tensor, dtype=None, non_blocking=False):
    """``x.type()`` names the legacy type ('torch.FloatTensor'); ``x.type(d)`` converts."""
    if dtype is None:
        return f"torch.{self.dtype.legacy_name}"
    if isinstance(dtype, str):
        name = dtype.rsplit(".", 1)[-1]
        dtype = next(d for d in dtypes.ALL_DTYPES if d.legacy_name == name)
    return to(self, dtype)


def cpu(self: Tensor) -> Tensor:
    return self


def cuda(self: Tensor, device=None) -> Tensor:
    raise RuntimeError(
        "The NumPy engine runs on the CPU only; switch to the torch engine to use CUDA."
    )


def _new_factory(name: str):
    def new(self: Tensor, *args, dtype=None, device=None, requires_grad=False):
        from . import _factories

        return getattr(_factories, name)(*args, dtype=dtype or self.dtype, device=device,
                                         requires_grad=requires_grad)

    new.__name__ = f"new_{name}"
    return new


def new_tensor(self: Tensor, data, dtype=None, device=None, requires_grad=False) -> Tensor:
    from ._factories import tensor

    return tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)


_METHODS = {
    # operators
    "__add__": _fast_add, "__radd__": _fast_add, "__sub__": _fast_sub, "__rsub__": _fast_rsub,
    "__mul__": mul, "__rmul__": mul, "__truediv__": _fast_div,
    "__rtruediv__": _not_implemented_for_foreign(rdiv),
    "__floordiv__": floor_divide, "__rfloordiv__": rfloordiv, "__mod__": remainder,
    "__pow__": _not_implemented_for_foreign(pow), "__rpow__": rpow,
    "__matmul__": matmul, "__rmatmul__": rmatmul, "__neg__": neg, "__pos__": lambda self: self,
    "__abs__": abs, "__invert__": bitwise_not,
    "__and__": bitwise_and, "__or__": bitwise_or, "__xor__": bitwise_xor,
    "__rand__": bitwise_and, "__ror__": bitwise_or, "__rxor__": bitwise_xor,
    "__eq__": eq, "__ne__": ne, "__lt__": lt, "__le__": le, "__gt__": gt, "__ge__": ge,
    "__iadd__": _inplace_operator(add_), "__isub__": _inplace_operator(sub_),
    "__imul__": _inplace_operator(mul_), "__itruediv__": _inplace_operator(div_),
    "__getitem__": getitem, "__setitem__": setitem,
    # arithmetic
    "add": add, "sub": sub, "subtract": sub, "mul": mul, "multiply": mul, "div": div,
    "divide": div, "true_divide": div, "floor_divide": floor_divide, "remainder": remainder,
    "neg": neg, "negative": neg, "pow": pow, "square": square,
    "eq": eq, "ne": ne, "lt": lt, "le": le, "gt": gt, "ge": ge, "greater": gt, "less": lt,
    "equal": equal, "allclose": allclose, "isclose": isclose,
    "fmod": fmod, "__rmod__": _not_implemented_for_foreign(rremainder),
    "maximum": maximum, "minimum": minimum, "logical_not": logical_not,
    "where": lambda self, condition, other: where(condition, self, other),
    # elementwise
    "exp": exp, "log": log, "log1p": log1p, "sqrt": sqrt, "rsqrt": rsqrt,
    "reciprocal": reciprocal, "sin": sin, "cos": cos, "tanh": tanh, "sigmoid": sigmoid,
    "relu": relu, "abs": abs, "absolute": abs, "sign": sign, "clamp": clamp, "clip": clamp,
    "tan": tan, "asin": asin, "arcsin": asin, "acos": acos, "arccos": acos, "atan": atan,
    "arctan": atan, "sinh": sinh, "cosh": cosh, "log2": log2, "log10": log10, "exp2": exp2,
    "expm1": expm1, "floor": floor, "ceil": ceil, "trunc": trunc, "fix": trunc, "frac": frac,
    "round": round, "clamp_min": clamp_min, "clamp_max": clamp_max,
    "masked_fill": masked_fill, "erf": erf, "erfc": erfc, "isnan": isnan, "isinf": isinf,
    "isfinite": isfinite, "atan2": atan2, "arctan2": atan2, "hypot": hypot, "lerp": lerp,
    "addcmul": addcmul, "addcdiv": addcdiv,
    "clone": clone, "to": to,
    # reductions
    "sum": sum, "mean": mean, "prod": prod, "max": max, "min": min, "argmax": argmax,
    "argmin": argmin, "norm": norm, "var": var, "std": std, "softmax": softmax,
    "log_softmax": log_softmax, "all": all, "any": any, "amax": amax, "amin": amin,
    "logsumexp": logsumexp, "cumsum": cumsum, "sort": sort, "argsort": argsort, "topk": topk,
    # linear algebra
    "mm": mm, "mv": mv, "dot": dot, "bmm": bmm, "matmul": matmul, "outer": outer,
    "addmm": addmm,
    # shapes
    "view": view, "reshape": reshape, "view_as": view_as, "reshape_as": reshape_as,
    "flatten": flatten, "t": t, "transpose": transpose, "swapaxes": transpose,
    "permute": permute, "squeeze": squeeze, "unsqueeze": unsqueeze, "expand": expand,
    "expand_as": expand_as, "contiguous": contiguous, "is_contiguous": is_contiguous,
    "select": select, "narrow": narrow, "flip": flip, "tril": tril, "triu": triu,
    "gather": gather, "scatter": scatter, "scatter_add": scatter_add, "index_select": index_select,
    "index_add": index_add, "repeat": repeat, "roll": roll,
    # in place
    "add_": add_, "sub_": sub_, "mul_": mul_, "div_": div_, "pow_": pow_, "clamp_": clamp_,
    "zero_": zero_, "fill_": fill_, "copy_": copy_,
    "_check_inplace_view_message": _check_inplace_view_message,
    # conversions and factories
    "type": type_, "cpu": cpu, "cuda": cuda, "new_tensor": new_tensor,
    "new_zeros": _new_factory("zeros"), "new_ones": _new_factory("ones"),
    "new_empty": _new_factory("empty"), "new_full": _new_factory("full"),
}


def _conversion(target):
    def convert(self: Tensor) -> Tensor:
        return to(self, target())

    return convert


def _bind_methods() -> None:
    for name, function in _METHODS.items():
        setattr(Tensor, name, function)
    Tensor.T = property(T)
    Tensor.mT = property(mT)
    Tensor.__hash__ = lambda self: id(self)
    for name, target in (("float", "float32"), ("double", "float64"), ("half", "float16"),
                         ("long", "int64"), ("int", "int32"), ("bool", "bool"),
                         ("short", "int16"), ("byte", "uint8")):
        setattr(Tensor, name, _conversion(lambda target=target: getattr(dtypes, target)))


_bind_methods()
