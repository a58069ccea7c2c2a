"""Arithmetic, comparisons and other elementwise ops of two or more tensors.

The operators of tutorial code (+, -, *, /) are declared with ``arithmetic``: their general
forward here, and a fast path generated from the same rule and NumPy function
(``_recording.fast_elementwise``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_function, bind_method, binds
from ._nested_data import checked_fill
from ._numerics import (
    addcdiv_values,
    addcmul_values,
    lerp_values,
    plus_scaled,
    power_by_number,
    refuse_negative_integer_power,
    tensor_power,
)
from ._operands import (
    as_tensor_operand,
    binary_arrays,
    compute,
    float_operands,
    operands,
    tensor_or_none,
    typed_scalar,
)
from ._pointwise import reciprocal
from ._recording import RESULT, fast_elementwise, output
from ._rules import RULES
from ._tensor import TENSOR_CLASSES, Tensor

_make = Tensor._make


def arithmetic(op: str, ufunc, general: Callable, *names: str, operators: tuple = (),
               reflected: bool = False) -> Callable:
    """Declare an arithmetic op: ``general`` takes any operands and options; float32/float64
    tensors and Python numbers take the fast path generated from the rule ``op`` and ``ufunc``.

    ``operators`` (``__add__``) are bound to the fast path, ``names`` (method and function) to
    it too, or, when ``general`` has keyword options (``alpha=``), to a function that passes
    calls with options to ``general``.
    """
    fast = fast_elementwise(op, ufunc, general, reflected)
    binds(*operators, function=False)(fast)
    if general.__kwdefaults__ is None:
        return binds(*names)(fast)

    def named(self: Tensor, other, **options) -> Tensor:
        if options:
            return general(self, other, **options)
        return fast(self, other)

    named.__name__ = named.__qualname__ = op
    named.__doc__ = general.__doc__
    named.__signature__ = inspect.signature(general)
    return binds(*names)(named)


def _add(self: Tensor, other, *, alpha=1) -> Tensor:
    """``self + alpha * other``."""
    return _plus(self, other, alpha, "add", np.add)


def _sub(self: Tensor, other, *, alpha=1) -> Tensor:
    """``self - alpha * other``."""
    if self._data.dtype == np.bool_:
        raise RuntimeError(
            "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
            "or `logical_xor()` operator instead."
        )
    return _plus(self, other, alpha, "sub", np.subtract)


def _plus(self: Tensor, other, alpha, op: str, ufunc) -> Tensor:
    cast = binary_arrays(self, other)
    if cast is None:
        return NotImplemented
    a, b, other = cast
    if alpha != 1:
        values = compute(lambda x, y: plus_scaled(x, y, alpha, op == "sub"), a, b, a.shape)
        return output(op, values, (self, other), (alpha,))
    return output(op, compute(ufunc, a, b, a.shape), (self, other), (alpha,))


def _rsub(self: Tensor, other, *, alpha=1) -> Tensor:
    """``other - alpha * self``: RsubBackward1 for a Python scalar ``other``, RsubBackward0
    for a tensor (torch.rsub)."""
    if other.__class__ in TENSOR_CLASSES:
        a, b = operands(self, other)
        values = compute(lambda x, y: plus_scaled(y, x, alpha, subtract=True), a, b, a.shape)
        return output("rsub_tensor", values, (self, other), (alpha,))
    cast = binary_arrays(self, other)
    if cast is None:
        return NotImplemented
    a, b, _ = cast
    return output("rsub", plus_scaled(b, a, alpha, subtract=True) if alpha != 1 else b - a,
                  (self,), (alpha,))


def _mul(self: Tensor, other) -> Tensor:
    """``self * other``."""
    cast = binary_arrays(self, other)
    if cast is None:
        return NotImplemented
    a, b, other_tensor = cast
    data = compute(np.multiply, a, b, a.shape)
    saved_other = other_tensor if other_tensor is not None else b
    return output("mul", data, (self, other_tensor), (self, saved_other))


def _div(self: Tensor, other, *, rounding_mode=None) -> Tensor:
    """``self / other``, rounded towards -inf (``"floor"``) or 0 (``"trunc"``) if asked."""
    if rounding_mode == "floor":
        return floor_divide(self, other)
    if rounding_mode == "trunc" and _integral(self, other):
        a, b = operands(self, other)
        _refuse_zero(b)
        floored = compute(np.floor_divide, a, b, a.shape)
        exact = compute(np.remainder, a, b, a.shape) == 0
        data = np.where(exact | ((a < 0) == (b < 0)), floored, floored + 1).astype(floored.dtype)
        return output("floor_divide", data, (self, tensor_or_none(other)))
    if self._data.dtype.kind == "f" and (other.__class__ not in TENSOR_CLASSES or (
            other._data.dtype.kind == "f")):
        cast = binary_arrays(self, other)
    else:
        cast = float_operands(self, other)
    if cast is None:
        return NotImplemented
    a, b, other_tensor = cast
    data = compute(np.true_divide, a, b, a.shape)
    if rounding_mode == "trunc":
        return output("floor_divide", np.trunc(data), (self, other_tensor))
    saved_other = other_tensor if other_tensor is not None else b
    return output("div", data, (self, other_tensor), (self, saved_other))


add = arithmetic("add", np.add, _add, "add", operators=("__add__", "__radd__"))
sub = arithmetic("sub", np.subtract, _sub, "sub", "subtract", operators=("__sub__",))
rsub = arithmetic("rsub", np.subtract, _rsub, operators=("__rsub__",), reflected=True)
bind_function("rsub", _rsub)  # torch.rsub(input, other, alpha=1), a function only
mul = arithmetic("mul", np.multiply, _mul, "mul", "multiply", operators=("__mul__", "__rmul__"))
div = arithmetic("div", np.true_divide, _div, "div", "divide", "true_divide",
                 operators=("__truediv__",))


def mul_scalar(self: Tensor, number) -> Tensor:
    """torch's ``mul(Tensor, Scalar)``: only derivative formulas reach it (MulBackward1)."""
    a = self._data
    return output("mul_scalar", a * np.asarray(number, a.dtype), (self,), (number,))


def add_scalar(self: Tensor, number) -> Tensor:
    """torch's ``add(Tensor, Scalar)`` as its formulas and C++ composites call it (AddBackward1;
    Python's ``x + 1`` is an AddBackward0), in the tensor's dtype."""
    return output("add_scalar", self._data + self._data.dtype.type(number), (self,))


def sub_scalar(self: Tensor, number) -> Tensor:
    """torch's ``sub(Tensor, Scalar)`` of its C++ composites (SubBackward1)."""
    return output("sub_scalar", self._data - self._data.dtype.type(number), (self,))


def _foreign_is_not_implemented(function: Callable) -> Callable:
    """Operators return NotImplemented for operand types they don't know, as Python expects."""

    def operator(self: Tensor, other):
        if not isinstance(other, Tensor | int | float | bool | complex | np.generic):
            return NotImplemented
        return function(self, other)

    return operator


def rdiv(self: Tensor, other) -> Tensor:
    """``scalar / tensor``: torch computes ``reciprocal(tensor) * scalar``."""
    return mul(reciprocal(self), other)


bind_method("__rtruediv__", _foreign_is_not_implemented(rdiv))


def _integral(self: Tensor, other) -> bool:
    """Both operands integers (or bools): a rounded division stays in integers."""
    kind = other._data.dtype.kind if other.__class__ in TENSOR_CLASSES else \
        "i" if isinstance(other, int) else "f"
    return self._data.dtype.kind in "iub" and kind in "iub"


def _refuse_zero(divisor) -> None:
    if np.any(np.asarray(divisor) == 0):
        raise RuntimeError("ZeroDivisionError")


@binds("floor_divide")
@binds("__floordiv__", function=False)
def floor_divide(self: Tensor, other) -> Tensor:
    a, b = operands(self, other)
    _check_integer_division("div_floor", a, b)
    data = compute(np.floor_divide, a, b, a.shape)
    return output("floor_divide", data, (self, tensor_or_none(other)))


@binds("__rfloordiv__", function=False)
def rfloordiv(self: Tensor, other) -> Tensor:
    return floor_divide(as_tensor_operand(other).to(self.dtype), self)


@binds("remainder")
@binds("__mod__", function=False)
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
    a, b = operands(self, other)
    _check_integer_division("remainder", a, a)  # (the tensor is the divisor)
    return output("rremainder", np.asarray(compute(_floored_remainder, b, a, a.shape)),
                  (self,))


@binds("fmod")
def fmod(self: Tensor, other) -> Tensor:
    """C's ``fmod``: the result takes the dividend's sign."""
    return _modulo("fmod", np.fmod, self, other)


def _modulo(op: str, function, self: Tensor, other) -> Tensor:
    a, b = operands(self, other)
    _check_integer_division(op, a, b)
    data = np.asarray(compute(function, a, b, a.shape))
    if other.__class__ not in TENSOR_CLASSES:  # a number: the gradient passes straight through
        return output(op, data, (self,))
    return output(f"{op}_tensor", data, (self, other), (self, other))


def _check_integer_division(op: str, a: np.ndarray, divisor) -> None:
    """torch's integer kernels (floor division, remainder, fmod) refuse a zero divisor
    (NumPy's give 0), and it has none for bools; ``a`` and ``divisor`` share a dtype."""
    if a.dtype == np.bool_:
        raise NotImplementedError(f'"{op}_cpu" not implemented for \'Bool\'')
    if a.dtype.kind in "iu":
        _refuse_zero(divisor)


@binds("neg", "negative")
@binds("__neg__", function=False)
def neg(self: Tensor) -> Tensor:
    if self._data.dtype == np.bool_:
        raise RuntimeError(
            "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
            "invert a mask, use the `~` or `logical_not()` operator instead."
        )
    return output("neg", np.negative(self._data), (self,))


@binds("pow")
def pow(self, exponent) -> Tensor:
    if not isinstance(self, Tensor):
        return rpow(exponent, self)
    if exponent.__class__ in TENSOR_CLASSES:
        a, b = operands(self, exponent)
        data = compute(tensor_power, a, b, a.shape)
        return output("pow_tensor", data, (self, exponent), (self, exponent, RESULT))
    a, b = operands(self, exponent)
    refuse_negative_integer_power(a, exponent)
    data = power_by_number(a, b, exponent) if np.ndim(b) == 0 else \
        compute(np.power, a, b, a.shape)
    return output("pow", data, (self,), (self, exponent))


@binds("__rpow__", function=False)
def rpow(self: Tensor, base) -> Tensor:
    """``scalar ** tensor`` (torch's PowBackward2)."""
    target = dtypes.result_type_scalar(self.dtype, base).numpy
    exponent = self._data.astype(target, copy=False)
    data = tensor_power(typed_scalar(base, np.dtype(target)), exponent)
    return output("pow_scalar_base", data, (self,), (base, self, RESULT))


@binds("square")
def square(self: Tensor) -> Tensor:
    return pow(self, 2)


def _comparison(function, name: str, *methods: str):
    def compare(self: Tensor, other) -> Tensor:
        if other is None:
            return _make(np.full(self._data.shape, function is np.not_equal))
        if not isinstance(other, Tensor | int | float | bool | complex | np.generic):
            return NotImplemented
        a, b = operands(self, other)
        return _make(np.asarray(compute(function, a, b, a.shape)))

    compare.__name__ = name
    binds(*methods, function=False)(compare)
    return binds(name)(compare)


eq = _comparison(np.equal, "eq", "__eq__")
ne = _comparison(np.not_equal, "ne", "__ne__")
lt = _comparison(np.less, "lt", "__lt__", "less")
le = _comparison(np.less_equal, "le", "__le__")
gt = _comparison(np.greater, "gt", "__gt__", "greater")
ge = _comparison(np.greater_equal, "ge", "__ge__")


def _logical(function, *methods: str):
    def combine(self: Tensor, other) -> Tensor:
        a, b = operands(self, other)
        if a.dtype.kind in "fc":  # (torch names the type the op met)
            raise NotImplementedError(f'"{function.__name__}_cpu" not implemented for '
                                      f"'{dtypes.from_numpy_dtype(a.dtype).legacy_name[:-6]}'")
        return _make(np.asarray(function(a, b)))

    return binds(*methods, function=False)(combine)


bitwise_and = _logical(np.bitwise_and, "__and__", "__rand__")
bitwise_or = _logical(np.bitwise_or, "__or__", "__ror__")
bitwise_xor = _logical(np.bitwise_xor, "__xor__", "__rxor__")


@binds("__invert__", function=False)
def bitwise_not(self: Tensor) -> Tensor:
    if self._data.dtype.kind == "f":
        raise TypeError(
            "~ (operator.invert) is only implemented on integer and Boolean-type tensors"
        )
    return _make(np.invert(self._data))


@binds("logical_not")
def logical_not(self: Tensor) -> Tensor:
    return _make(np.logical_not(self._data))


def _truth_of_both(name: str, ufunc):
    """torch.logical_and and the like: elementwise truth of nonzero values, as bools."""

    def forward(self: Tensor, other) -> Tensor:
        if not isinstance(other, Tensor):
            raise TypeError(f"{name}(): argument 'other' (position 2) must be Tensor, not "
                            f"{type(other).__name__}")
        return _make(ufunc(self._data != 0, other._data != 0))

    forward.__name__ = name
    return binds(name)(forward)


logical_and = _truth_of_both("logical_and", np.logical_and)
logical_or = _truth_of_both("logical_or", np.logical_or)
logical_xor = _truth_of_both("logical_xor", np.logical_xor)


@binds("equal")
def equal(self: Tensor, other: Tensor) -> bool:
    # (np.array_equal says False for what it cannot read as an array, where torch compares)
    return self._data.shape == other._data.shape and bool(np.array_equal(
        np.asarray(self._data), np.asarray(other._data)))


@binds("allclose")
def allclose(self: Tensor, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:
    return bool(np.allclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


@binds("isclose")
def isclose(self: Tensor, other: Tensor, rtol=1e-05, atol=1e-08, equal_nan=False) -> Tensor:
    return _make(np.isclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def _of_two(op: str, ufunc, *aliases: str, floats: bool = False) -> Callable:
    """An elementwise function of two tensors that saves both (and its result if the rule
    says so); with ``floats``, integer operands are computed as the default float dtype."""
    saves_result = RULES[op].saves[-1] == "result"

    def apply(self: Tensor, other: Tensor) -> Tensor:
        a, b = float_operands(self, other)[:2] if floats else operands(self, other)
        saved = (self, other, RESULT) if saves_result else (self, other)
        return output(op, compute(ufunc, a, b, a.shape), (self, other), saved)

    apply.__name__ = op
    return binds(op, *aliases)(apply)


maximum = _of_two("maximum", np.maximum)
minimum = _of_two("minimum", np.minimum)
# The angle of the point (other, self): atan(self / other) in the right quadrant.
atan2 = _of_two("atan2", np.arctan2, "arctan2", floats=True)
hypot = _of_two("hypot", np.hypot, floats=True)


@binds("lerp")
def lerp(self: Tensor, end: Tensor, weight) -> Tensor:
    """self + weight * (end - self), computed from the nearer end as torch does."""
    a, b = operands(self, end)
    w = weight._data if isinstance(weight, Tensor) else weight
    data = np.asarray(lerp_values(a, b, w), dtype=a.dtype)
    if isinstance(weight, Tensor):
        return output("lerp_tensor", data, (self, end, weight), (self, end, weight))
    return output("lerp", data, (self, end), (weight,))


def _pointwise_with(op: str, combine):
    """addcmul and addcdiv: self + value * combine(tensor1, tensor2), rounded as torch's."""

    def apply(self: Tensor, tensor1: Tensor, tensor2: Tensor, *, value=1) -> Tensor:
        a, b = operands(self, tensor1)
        a, c = operands(_make(a), tensor2)
        b = b.astype(a.dtype, copy=False)
        data = np.asarray(combine(a, b, c, value), dtype=a.dtype)
        return output(op, data, (self, tensor1, tensor2), (tensor1, tensor2, value))

    apply.__name__ = op
    return binds(op)(apply)


addcmul = _pointwise_with("addcmul", addcmul_values)
addcdiv = _pointwise_with("addcdiv", addcdiv_values)


@binds("where", method=False)
def where(condition: Tensor, input, other) -> Tensor:
    """Elements of ``input`` where ``condition`` holds, else of ``other``."""
    mask = condition._data if isinstance(condition, Tensor) else np.asarray(condition)
    if not isinstance(input, Tensor) and not isinstance(other, Tensor):
        target = _numbers_dtype(input, other)
        return _make(np.where(mask, np.asarray(input, target), np.asarray(other, target)))
    if not isinstance(input, Tensor):
        input = _scalar_like(input, other)
    if not isinstance(other, Tensor):
        other = _scalar_like(other, input)
    a, b = operands(input, other)
    data = np.where(mask, a, b)
    return output("where", data, (input, other), (condition,))


def _numbers_dtype(*numbers) -> np.dtype:
    """What torch makes of Python numbers alone: the default dtype for floats (its complex
    twin for complex numbers), int64 for ints, bool for bools."""
    if any(isinstance(n, complex) for n in numbers):
        return dtypes.get_default_dtype().to_complex().numpy
    if any(isinstance(n, float) for n in numbers):
        return dtypes.get_default_dtype().numpy
    if all(isinstance(n, bool) for n in numbers):
        return np.dtype(np.bool_)
    return np.dtype(np.int64)


def _scalar_like(value, like: Tensor) -> Tensor:
    target = dtypes.result_type_scalar(like.dtype, value)
    storage = dtypes.storage_of(target)
    return _make(dtypes.values_as(np.asarray(checked_fill(value, storage), dtype=storage), target))


bind_method("where", lambda self, condition, other: where(condition, self, other))
bind_method("__pow__", _foreign_is_not_implemented(pow))
bind_method("__rmod__", _foreign_is_not_implemented(rremainder))
bind_method("__pos__", lambda self: self)
