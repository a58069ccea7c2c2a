"""Elementwise functions of one tensor (exp, sin, relu, clamp, round, ...) and dtype conversions.

Most are one line: ``unary(op, NumPy function)`` declares the op's forward, its fast path, its
names (Tensor method and ``torch.*`` function) and its kit function for derivative formulas.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import _bindings
from . import _dtype as dtypes
from ._bfloat16 import as_bfloat16
from ._bindings import bind_method, binds
from ._deprecations import warn_once
from ._kernel_exp import kernel_exp
from ._memory_formats import is_laid_out, laid_out
from ._nested_data import checked_fill
from ._numerics import erf_values, sign_values
from ._operands import floating
from ._parallel import split
from ._recording import SAVE_RESULT, fast_elementwise, output
from ._rules import RULES
from ._tensor import Tensor
from ._type_info import contiguous_format, preserve_format
from ._vml import torch_kernel

_make = Tensor._make


@dataclass(frozen=True)
class Unary:
    """A declared elementwise function, on arrays (its NumPy function) and on tensors (the op).

    Derivative formulas call it as ``k.<op>``: the NumPy kit gets ``on_arrays``, the tensor kit
    (create_graph) ``on_tensors`` (``_formula_kit.py``).
    """

    on_arrays: Callable
    on_tensors: Callable
    floats: bool = True  # integer and bool tensors are computed as the default float dtype
    names: tuple[str, ...] = ()  # its names as a method and a function (the op's and aliases)


UNARY: dict[str, Unary] = {}


def unary(op: str, on_arrays: Callable, *aliases: str, floats: bool = True) -> Callable:
    """Declare ``op``: ``on_arrays`` applied to the tensor's values, recorded by the rule ``op``.

    The rule says what is saved (nothing, the input or the result). With ``floats``, integer
    and bool tensors are computed as the default float dtype, as torch's ``exp(int)``; without,
    they keep theirs. Bound as ``Tensor.<name>`` and ``torch.<name>`` for ``op`` and aliases.
    """
    saves = RULES[op].saves
    if saves not in ((), ("self",), ("result",)):
        raise ValueError(f"unary {op!r} saves {saves}: write its forward out instead")
    saves_self = saves == ("self",)
    saved = SAVE_RESULT if saves == ("result",) else ()
    if isinstance(on_arrays, np.ufunc):
        on_arrays = split(on_arrays)

    def general(self: Tensor) -> Tensor:
        data = self._data
        if floats and data.dtype.kind != "f":
            data = floating(self)
        return output(op, on_arrays(data), (self,), (self,) if saves_self else saved)

    general.__name__ = general.__qualname__ = op
    function = fast_elementwise(op, on_arrays, general)
    UNARY[op] = Unary(on_arrays, function, floats, (op, *aliases))
    _bindings.TENSOR_FIRST.update((op, *aliases))
    return binds(op, *aliases)(function)


# Up to this many elements a float32 transcendental is computed in float64: a tutorial's
# printed tensors. Larger ones keep NumPy's SIMD float32 (float64 is several times slower,
# benchmarks/engine_vs_torch.py).
ROUNDED_ONCE_UP_TO = 1 << 16


def rounded_once(function: Callable) -> Callable:
    """A float32 transcendental computed in float64 and rounded once: NumPy's own float32
    sin, exp, tanh... agree with torch's in 60-87% of elements, this in 93-100% (measured on
    10^5 normal samples; sigmoid rounds only its exp so, _sigmoid)."""

    whole = split(function)

    def on_arrays(data: np.ndarray) -> np.ndarray:
        if data.dtype == np.float32 and data.size <= ROUNDED_ONCE_UP_TO:
            return function(data, dtype=np.float64).astype(np.float32)
        return whole(data)

    on_arrays.__name__ = getattr(function, "__name__", "function")
    return on_arrays


def _math_function(function):
    """A math-module function over an array (NumPy has no erf), keeping its dtype."""
    each = np.frompyfunc(function, 1, 1)
    return lambda data: np.asarray(each(data), dtype=data.dtype)


# e^x and log x as torch's fused kernels (softmax's, log_softmax's) compute them for
# themselves, where the plain ops take MKL's (_vml)
exp_rounded_once = rounded_once(np.exp)
log_rounded_once = rounded_once(np.log)


def _sigmoid(data: np.ndarray) -> np.ndarray:
    """1 / (1 + e^-x) in the data's dtype as torch's kernel: in float32 its e^-x is Sleef's
    on the elements its vector loop takes and rounded once on the rest (_kernel_exp)."""
    exps = kernel_exp(-data, data) if data.dtype == np.float32 else np.exp(-data)
    return (1 / (1 + exps)).astype(data.dtype, copy=False)


exp = unary("exp", torch_kernel("exp", exp_rounded_once))
log = unary("log", torch_kernel("log", log_rounded_once))
log1p = unary("log1p", rounded_once(np.log1p))
sqrt = unary("sqrt", torch_kernel("sqrt", split(np.sqrt)))
rsqrt = unary("rsqrt", lambda data: 1 / np.sqrt(data))
reciprocal = unary("reciprocal", np.reciprocal)
sin = unary("sin", torch_kernel("sin", rounded_once(np.sin)))
cos = unary("cos", torch_kernel("cos", rounded_once(np.cos)))
tanh = unary("tanh", torch_kernel("tanh", rounded_once(np.tanh)))
sigmoid = unary("sigmoid", _sigmoid)
tan = unary("tan", torch_kernel("tan", rounded_once(np.tan)))
asin = unary("asin", torch_kernel("asin", rounded_once(np.arcsin)), "arcsin")
acos = unary("acos", torch_kernel("acos", rounded_once(np.arccos)), "arccos")
atan = unary("atan", torch_kernel("atan", rounded_once(np.arctan)), "arctan")
asinh = unary("asinh", np.arcsinh, "arcsinh")
acosh = unary("acosh", np.arccosh, "arccosh")
atanh = unary("atanh", np.arctanh, "arctanh")
sinh = unary("sinh", rounded_once(np.sinh))
cosh = unary("cosh", rounded_once(np.cosh))
log2 = unary("log2", torch_kernel("log2", rounded_once(np.log2)))
log10 = unary("log10", torch_kernel("log10", rounded_once(np.log10)))
exp2 = unary("exp2", rounded_once(np.exp2))
expm1 = unary("expm1", rounded_once(np.expm1))
erf = unary("erf", torch_kernel("erf", erf_values))
erfc = unary("erfc", torch_kernel("erfc", _math_function(math.erfc)))
relu = unary("relu", lambda data: np.maximum(data, 0).astype(data.dtype), floats=False)
abs = unary("abs", np.abs, "absolute", floats=False)
sign = unary("sign", sign_values, floats=False)
bind_method("__abs__", abs)


@binds("isnan")
def isnan(self: Tensor) -> Tensor:
    return _make(np.isnan(self._data))


@binds("isinf")
def isinf(self: Tensor) -> Tensor:
    return _make(np.isinf(self._data))


@binds("isfinite")
def isfinite(self: Tensor) -> Tensor:
    return _make(np.isfinite(self._data))


def _rounding(op: str, function, *aliases: str):
    """floor, ceil, trunc, frac: integer tensors come back as they are, as in torch."""

    def apply(self: Tensor) -> Tensor:
        if self._data.dtype.kind != "f":
            return _make(self._data.copy())
        return output(op, function(self._data), (self,))

    apply.__name__ = op
    return binds(op, *aliases)(apply)


floor = _rounding("floor", np.floor)
ceil = _rounding("ceil", np.ceil)
trunc = _rounding("trunc", np.trunc, "fix")
frac = _rounding("frac", lambda data: data - np.trunc(data))


@binds("round")
def round(self: Tensor, *, decimals: int = 0) -> Tensor:
    """Halves to even, as NumPy and torch both round."""
    if self._data.dtype.kind != "f":
        return _make(self._data.copy())
    if decimals == 0:
        return output("round", np.round(self._data), (self,))
    return output("round_decimals", np.round(self._data, decimals), (self,))


@binds("clamp", "clip")
def clamp(self: Tensor, min=None, max=None) -> Tensor:
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if min is not None and max is not None and \
            isinstance(min, Tensor) != isinstance(max, Tensor):
        _refuse_mixed_bounds(min, max)
    values = _clamped(self._data, min, max)
    if isinstance(min, Tensor) or isinstance(max, Tensor):  # (torch's clamp.Tensor)
        return output("clamp_tensor", values, (self, min, max), (self, min, max))
    return output("clamp", values, (self,), (self, min, max))


def _refuse_mixed_bounds(low, high) -> None:
    """torch's argument parser: both bounds tensors, or both numbers (its words for the
    keyword call, ``torch.clamp(x, min=t, max=1.0)``)."""
    def kind(bound) -> str:
        return "Tensor" if isinstance(bound, Tensor) else type(bound).__name__

    raise TypeError("clamp() received an invalid combination of arguments - got (Tensor, "
                    f"max={kind(high)}, min={kind(low)}), but expected one of:\n"
                    " * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = "
                    "None)\n * (Tensor input, Number min = None, Number max = None, *, Tensor "
                    "out = None)\n")


@binds("clamp_min")
def clamp_min(self: Tensor, min) -> Tensor:
    values = _clamped(self._data, min, None)
    if isinstance(min, Tensor):  # (ClampMinBackward1, which gives min its gradient too)
        return output("clamp_min_tensor", values, (self, min), (self, min))
    return output("clamp_min", values, (self,), (self, min))


@binds("clamp_max")
def clamp_max(self: Tensor, max) -> Tensor:
    values = _clamped(self._data, None, max)
    if isinstance(max, Tensor):
        return output("clamp_max_tensor", values, (self, max), (self, max))
    return output("clamp_max", values, (self,), (self, max))


def clamp_low_grad(k, grad, self, low, high):
    """A tensor min's gradient: where it bound self (and was below max, when there is one)."""
    bound = self < low if high is None else (self < low) & (low < high)
    return k.where(bound, grad, 0)


def clamp_high_grad(k, grad, self, low, high):
    """A tensor max's gradient: where it bound self, or everywhere it was below min."""
    bound = self > high if low is None else (self > high) | (high < low)
    return k.where(bound, grad, 0)


def _clamped(data: np.ndarray, low, high) -> np.ndarray:
    """``data`` within [low, high] (either may be None), in the dtype torch's promotion gives
    them (an int64 tensor clamped to 0.5 is float32)."""
    target = dtypes.from_numpy_dtype(data.dtype)
    for bound in (low, high):
        if isinstance(bound, Tensor):
            target = dtypes.result_type(target, data.ndim, bound.dtype, bound.ndim)
        elif bound is not None:
            target = dtypes.result_type_scalar(target, bound)
    # a number is converted as a fill value is (torch's error past an integer type's range)
    low, high = (bound if bound is None or isinstance(bound, Tensor) else
                 checked_fill(bound, dtypes.storage_of(target)) for bound in (low, high))
    result = dtypes.values_as(data, target, copy=False)
    if low is not None:
        result = np.maximum(result, getattr(low, "_data", low))
    if high is not None:
        result = np.minimum(result, getattr(high, "_data", high))
    return dtypes.values_as(np.asanyarray(result), target, copy=False)


@binds("masked_fill")
def masked_fill(self: Tensor, mask: Tensor, value) -> Tensor:
    data, saved = masked_values(self, mask, value)
    return output("masked_fill", data, (self,), saved)


# torch names an element type by its C++ type in some messages
_C_TYPE_NAMES = {"i8": "long int", "i4": "int", "i2": "short int", "i1": "signed char",
                 "u1": "unsigned char", "f4": "float", "f8": "double", "f2": "c10::Half"}


def masked_values(self: Tensor, mask: Tensor, value) -> tuple[np.ndarray, tuple]:
    """self's values with ``value`` where ``mask`` is True, and what the node saves."""
    value = value.item() if isinstance(value, Tensor) else value
    mask_data = mask._data if isinstance(mask, Tensor) else np.asarray(mask)
    if mask_data.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_C_TYPE_NAMES.get(mask_data.dtype.str[1:], mask_data.dtype)}")
    value = checked_fill(value, self._data.dtype)
    data = np.where(mask_data, np.asarray(value, dtype=self._data.dtype), self._data)
    return data, (mask_data,)


@binds("nan_to_num")
def nan_to_num(self: Tensor, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Tensor:
    """NaN, +inf and -inf replaced (by 0 and the dtype's largest and smallest numbers)."""
    data = self._data
    if data.dtype.kind not in "fc":
        return output("nan_to_num", data.copy(), (self,), (self,))
    result = np.nan_to_num(data, nan=nan, posinf=posinf, neginf=neginf)
    return output("nan_to_num", result.astype(data.dtype, copy=False), (self,), (self,))


@binds("type_as", function=False)
def type_as(self: Tensor, other: Tensor) -> Tensor:
    """self in other's dtype (self itself when it already is)."""
    return to(self, other.dtype)


@binds("clone")
def clone(self: Tensor, *, memory_format=None) -> Tensor:
    """A copy, laid out as torch lays it out (by default: as ``self`` is)."""
    return output("clone", laid_out(self._data, memory_format), (self,))


# ----- conversions --------------------------------------------------------------------------
@binds("to", function=False)
def to(self: Tensor, *args, **kwargs) -> Tensor:
    """Convert the dtype, or move to the meta device (other devices need the torch engine)."""
    from ._device import device, is_meta
    from ._meta import to_meta

    target = kwargs.get("dtype")
    moved = is_meta(kwargs.get("device"))
    for arg in args:
        if isinstance(arg, dtypes.dtype):
            target = arg
        elif isinstance(arg, Tensor):
            target, moved = arg.dtype, moved or arg.is_meta
        elif isinstance(arg, str | device):
            moved = moved or is_meta(arg)
    layout = kwargs.get("memory_format")
    if target is not None and target is not self.dtype:
        if self.is_meta:
            return to_meta(self, dtypes.storage_of(target), target is dtypes.bfloat16)
        if self._data.dtype.kind == "c" and not target.is_complex and target is not dtypes.bool:
            warn_once("complex to real")
        converted = output("to", _converted_data(self, layout, target), (self,), typed=True)
    elif layout is not None and not _already(self._data, layout):
        converted = output("to", laid_out(self._data, layout), (self,))
    else:
        converted = self
    return to_meta(converted) if moved and not converted.is_meta else converted


def _converted_data(self: Tensor, memory_format, target: dtypes.dtype):
    """``self``'s values in ``target`` dtype (into bfloat16: to float32, then rounded, as
    torch converts; out of it, by value)."""
    if target is dtypes.bfloat16:
        return as_bfloat16(_converted(self._data, memory_format, np.float32))
    return _converted(self._data, memory_format, target.numpy)


def _converted(data: np.ndarray, memory_format, dtype: np.dtype) -> np.ndarray:
    """``data`` as ``dtype`` in the layout asked for, copied once where it can be."""
    if memory_format is contiguous_format:
        return data.astype(dtype, order="C")
    if (memory_format is None or memory_format is preserve_format) and data.flags.c_contiguous:
        return data.astype(dtype)
    return laid_out(data, memory_format).astype(dtype)  # (order "K" keeps that layout)


def _already(data: np.ndarray, memory_format) -> bool:
    """Whether ``to(memory_format=...)`` has nothing to copy (torch returns self then)."""
    return memory_format is preserve_format or is_laid_out(data, memory_format)


@binds("type", function=False)
def type_(self: Tensor, dtype=None, non_blocking=False):
    """``x.type()`` names the legacy type ('torch.FloatTensor'); ``x.type(d)`` converts."""
    if dtype is None:
        return f"torch.{self.dtype.legacy_name}"
    name = dtype if isinstance(dtype, str) else getattr(dtype, "__name__", None)
    if name is not None:  # 'torch.DoubleTensor', or the legacy constructor torch.DoubleTensor
        name = name.rsplit(".", 1)[-1]
        dtype = dtypes.by_legacy_name(name)
    return to(self, dtype)


def _conversion(target: dtypes.dtype):
    def convert(self: Tensor) -> Tensor:
        return to(self, target)

    return convert


for _name, _target in (("float", dtypes.float32), ("double", dtypes.float64),
                       ("half", dtypes.float16), ("bfloat16", dtypes.bfloat16),
                       ("long", dtypes.int64), ("int", dtypes.int32),
                       ("bool", dtypes.bool), ("short", dtypes.int16), ("byte", dtypes.uint8),
                       ("char", dtypes.int8)):
    bind_method(_name, _conversion(_target))


@binds("cpu", function=False)
def cpu(self: Tensor) -> Tensor:
    return self


@binds("cuda", function=False)
def cuda(self: Tensor, device=None) -> Tensor:
    raise RuntimeError("Tensor.cuda() is not in the built-in NumPy engine (it runs on the CPU "
                       "only); switch the engine to torch")
