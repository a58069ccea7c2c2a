"""Pointwise arithmetic as torch's CPU kernels do it, where NumPy's results or speed differ."""

from __future__ import annotations

import math
import struct

import numpy as np

from . import _compiled
from ._bfloat16 import rounded_to_bfloat16
from ._vml import torch_kernel

# Past this, a whole exponent goes to np.power: multiplying in float64 stays exact enough only
# for a few dozen products.
WHOLE_EXPONENT_LIMIT = 64


_square_root = torch_kernel("sqrt", np.sqrt)


def power_by_number(base: np.ndarray, exponent, number=None) -> np.ndarray:
    """``base ** exponent`` for a real number ``exponent`` (``number``: the user's, where
    ``exponent`` is it in the tensor's dtype), as torch computes it on the CPU.

    torch multiplies for 2, 3, -1 and -2 (``x*x*x``, bit for bit) and takes square roots for
    ±0.5. NumPy's float32 ``power`` for any other exponent takes ~90 µs per 2,000 elements
    (torch 6 µs); whole exponents are multiplied out in float64 instead and rounded once, which
    is the correctly rounded result NumPy's pow gives, 20 times faster."""
    if base.dtype.kind != "f" or base.dtype.itemsize < 4 or isinstance(exponent, complex):
        return np.power(base, exponent)
    value = float(exponent)
    if value == 1:  # (x ** 2's gradient: 2 * x ** 1)
        return base.copy()
    if value == 2:
        return base * base
    if value == 3:
        return base * base * base
    if value == -1:
        return 1 / base
    if value == -2:
        return 1 / (base * base)
    if value == 0.5:  # (torch's sqrt kernel: MKL's where torch's library is here, _vml)
        return _square_root(base)
    if value == -0.5:
        return 1 / np.sqrt(base)
    return with_vector_powers(base, np.asarray(exponent, base.dtype),
                              lambda part, _: _power_rounded_once(part, value, exponent),
                              widened=value if number is None else float(number))


def _power_rounded_once(base: np.ndarray, value: float, exponent) -> np.ndarray:
    """``base ** exponent`` rounded once (the C library's pow, torch's loop's scalar tail):
    whole exponents of float32 multiplied out in float64."""
    if base.dtype == np.float32 and value.is_integer() and abs(value) <= WHOLE_EXPONENT_LIMIT:
        result = _whole_power(base.astype(np.float64), int(abs(value)))
        return (1 / result if value < 0 else result).astype(np.float32)
    return np.power(base, exponent)


# Past this many elements torch splits the loop between threads (each piece with its own
# scalar tail): every element is then left rounded once.
VECTOR_POWERS_UP_TO = 32768


def with_vector_powers(base, exponent, rounded_once, widened: float | None = None):
    """``base ** exponent`` as torch's CPU loop computes it: Sleef's pow (from torch's
    library: _vml.sleef_binary) on the elements its AVX2/AVX-512 vector body takes, and the
    C library's on its scalar tail (libm_pow: torch's std::pow; ``widened``, torch's
    ``x ** number``, raises float32 to that float64 number in double); under torch's scalar
    build (ATEN_CPU_CAPABILITY=default) the body is the C library's pow in the dtype, lane by
    lane. ``rounded_once(base, exponent)`` computes all of it where the C module is not
    here, past VECTOR_POWERS_UP_TO elements, or where an operand is neither a single number
    nor contiguous in the result's shape."""
    from ._kernel_exp import vector_body_length
    from ._vml import sleef_binary, sleef_function

    operands = [np.asarray(base), np.asarray(exponent)]
    dtype = np.result_type(*operands)
    shapes = {operand.shape for operand in operands if operand.ndim}
    if _compiled.kernels is None or len(shapes) != 1 or dtype.kind != "f" or \
            dtype.itemsize not in (4, 8) or \
            not all(operand.flags.c_contiguous for operand in operands):
        return rounded_once(*operands)
    shape = shapes.pop()
    size = math.prod(shape)
    if size > VECTOR_POWERS_UP_TO:
        return rounded_once(*operands)
    vectors = sleef_function("pow", dtype) is not None  # (None under the scalar build)
    body = vector_body_length(size, dtype, scalar_build_too=True)
    bases, exponents = (_each(operand.reshape(-1), size, dtype) for operand in operands)
    if vectors and body:  # (Sleef over the whole length: what it gives past the body is
        result = sleef_binary("pow", bases, exponents)  # replaced by the tail's)
    else:  # (the DEFAULT build's plain vectors: std::pow in the dtype, lane by lane)
        result = np.empty(size, dtype)
        result[:body] = _scalar_powers(bases[:body], exponents[:body], None)
    if body < size:
        result[body:] = _scalar_powers(bases[body:], exponents[body:], widened)
    return result.reshape(shape)


def _scalar_powers(bases: np.ndarray, exponents: np.ndarray, widened: float | None
                   ) -> np.ndarray:
    """The C library's pow of each pair of two contiguous arrays of one length and dtype, as
    torch's scalar loop: powf or pow, or float32 raised to ``widened`` in double."""
    in_double = widened is not None and bases.dtype == np.float32
    if in_double:
        exponents = np.full(bases.size, widened, np.float64)
    result = np.empty_like(bases)
    _compiled.kernels.libm_pow(bases.itemsize, bases, exponents, result, in_double)
    return result


def _each(values: np.ndarray, count: int, dtype: np.dtype) -> np.ndarray:
    """``count`` contiguous values of ``dtype`` from a flat array: its own, or its one value
    repeated."""
    if values.size == count:
        return np.ascontiguousarray(values, dtype)
    return np.full(count, values[0], dtype)


def sign_values(data: np.ndarray) -> np.ndarray:
    """torch's sign, (0 < x) - (x < 0): 0 for NaN (NumPy's sign keeps NaN) and for -0.; a
    bool its own (NumPy has no bool sign)."""
    if data.dtype.kind == "b":
        return data.copy()
    if data.dtype.kind != "f":
        return np.sign(data)
    return (data > 0).astype(data.dtype) - (data < 0).astype(data.dtype)


def refuse_negative_integer_power(base: np.ndarray, exponent) -> None:
    """torch's refusal of an integer tensor to a negative Python int power (a tensor of
    exponents is taken element by element: tensor_power)."""
    if base.dtype.kind in "iu" and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")


def tensor_power(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """``base ** exponent`` elementwise, as torch's pow kernel: integers to negative integer
    powers give what integer division would (1 for a base of 1, ±1 for -1, 0 else), where
    NumPy refuses the whole array."""
    kind = np.result_type(base, exponent).kind
    if kind == "f":
        return with_vector_powers(base, exponent, np.power)
    if kind not in "iu" or not np.any(np.asarray(exponent) < 0):
        return np.power(base, exponent)
    negative = exponent < 0
    powers = np.power(base, np.where(negative, 0, exponent))
    reciprocals = np.where(base == 1, 1, np.where(base == -1, 1 - 2 * (exponent % 2), 0))
    return np.where(negative, reciprocals, powers).astype(powers.dtype)


def _whole_power(base: np.ndarray, count: int) -> np.ndarray:
    """``base ** count`` by repeated squaring (``count`` ≥ 0)."""
    result, square = np.ones_like(base), base
    while count:
        if count & 1:
            result = result * square
        count >>= 1
        if count:
            square = square * square
    return result


def linspace(start, end, steps: int, dtype: np.dtype) -> np.ndarray:
    """torch.linspace as its CPU kernel computes it: the first half up from ``start``, the
    second half down from ``end`` (``end - step * (steps - 1 - i)``), each a fused
    multiply-add (torch's kernels are built with FMA contraction) in the result's dtype;
    integer results step in float64 and truncate."""
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = np.dtype(dtype)
    if steps <= 1:
        return np.full(steps, start, dtype=dtype)
    scalar = dtype.type if dtype.kind == "f" else np.float64
    first, last = scalar(start), scalar(end)
    if dtype.kind != "f":
        first, last = np.float64(dtype.type(start)), np.float64(dtype.type(end))
    step = np.float64((last - first) / scalar(steps - 1))
    index = np.arange(steps, dtype=np.float64)
    up = fused_multiply_add(np.full(steps, step), index, np.full(steps, np.float64(first)))
    down = fused_multiply_add(np.full(steps, -step), steps - 1 - index,
                              np.full(steps, np.float64(last)))
    values = np.where(index < steps // 2, up, down)
    return values.astype(dtype)


def bfloat16_linspace(start, end, steps: int) -> np.ndarray:
    """linspace's kernel in bfloat16: the ends and the step bfloat16 numbers, each value the
    step times its index rounded, then added to an end and rounded (no fused multiply-add)."""
    def rounded(values):
        return rounded_to_bfloat16(np.asarray(values, dtype=np.float32))

    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps <= 1:
        return rounded(np.full(steps, start))
    first, last = rounded(start), rounded(end)
    step = rounded((last - first) / np.float32(steps - 1))
    index = np.arange(steps, dtype=np.float32)
    up, down = first + rounded(step * index), last - rounded(step * (steps - 1 - index))
    return np.where(index < steps // 2, up, down)


def fused_multiply_add(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c rounded once (float64), as an FMA instruction gives it: the product's
    rounding error found exactly by splitting (Dekker), the sum's by TwoSum. For float32
    inputs the float64 result is rounded again by the caller; a product of two float32 is
    exact in float64, so that is the float32 FMA but for ties."""
    product = a * b
    a_high, a_low = _halves(a)
    b_high, b_low = _halves(b)
    product_error = ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + \
        a_low * b_low
    total = product + c
    c_part = total - product
    sum_error = (product - (total - c_part)) + (c - c_part)
    errors = sum_error + product_error
    result = total + errors
    zero = result == 0
    if np.any(zero):  # an exact zero keeps the sum's sign (-0 · x + -0 is -0, as an FMA's)
        result = np.where(zero & (errors == 0), total, result)
    if not np.isfinite(np.sum(result)):  # (one pass, no temporary: rarely true)
        # (an infinity stays: scaled it is still one, and the caller takes it as two ops)
        a_down, b_down = _too_large_to_split(a), _too_large_to_split(b)
        if np.any(a_down) or np.any(b_down):  # their split overflowed (uniform_ over float64)
            result = _scaled_fused_multiply_add(np.asarray(a), np.asarray(b), np.asarray(c),
                                                a_down, b_down)
        result = _where_the_split_failed(a, b, c, result)
    return result


def _where_the_split_failed(a, b, c, result: np.ndarray) -> np.ndarray:
    """``result`` with the NaNs the splits give for an infinite operand or a product past
    float64's range replaced by what an FMA gives there: the plain ops' value (an overflow's
    infinity), but ``c`` itself where only ``c`` is infinite (the exact product is finite)."""
    with np.errstate(all="ignore"):
        plain = a * b + c
    value = np.where(np.isfinite(a) & np.isfinite(b) & np.isinf(c), c, plain)
    return np.where(np.isnan(result) & ~np.isnan(value), value, result)


# Above this a number's Dekker split (times 2**27 + 1) overflows
_SPLIT_LIMIT = 2.0 ** 990
_SCALE_BITS = 128


def _too_large_to_split(value) -> np.ndarray:
    magnitude = np.abs(value)
    return (magnitude > _SPLIT_LIMIT) & (magnitude < np.inf)


def _scaled_fused_multiply_add(a: np.ndarray, b: np.ndarray, c: np.ndarray,
                               a_down: np.ndarray, b_down: np.ndarray) -> np.ndarray:
    """fused_multiply_add where some operands (``a_down``, ``b_down``) are too large to split:
    those scaled down by a power of two (exact), the result scaled back up (exact, or the
    overflow an FMA has; a shift of 0 leaves the others as they are)."""
    shift = (a_down.astype(np.int64) + b_down) * _SCALE_BITS
    scaled = fused_multiply_add(np.where(a_down, np.ldexp(a, -_SCALE_BITS), a),
                                np.where(b_down, np.ldexp(b, -_SCALE_BITS), b),
                                np.ldexp(c, -shift))
    with np.errstate(over="ignore"):
        return np.ldexp(scaled, shift)


_FLOAT32_TINY = float(np.finfo(np.float32).tiny)


def plus_scaled(a, b, alpha, subtract: bool = False):
    """``a + alpha * b`` (``a - alpha * b``) as torch's CPU add and sub kernels compute it:
    for floats one fused multiply-add, alpha rounded to the result's dtype first (the product
    rounded apart differs from torch's in the last bit for ~20% of elements)."""
    kind = np.result_type(a, b)
    if kind not in (np.float32, np.float64):
        return a - b * alpha if subtract else a + b * alpha
    scale = kind.type(-alpha if subtract else alpha)
    if np.ndim(a) == 0 and np.ndim(b) == 0:  # a scalar parameter's step: Python floats
        value = _scalar_fma(float(b), float(scale), float(a), kind == np.float32)
        if value is not None:
            return np.asarray(value, dtype=kind)
    return fused(b, scale, a, kind)


def fused(a, b, c, kind: np.dtype):
    """``a * b + c`` rounded once in ``kind`` (float32 or float64), as an FMA gives it."""
    if kind == np.float32:
        return fused_multiply_add_float32(a, b, c)
    return fused_multiply_add(np.asarray(a, np.float64), np.asarray(b, np.float64),
                              np.asarray(c, np.float64))


def fused_values(a, b, c) -> np.ndarray:
    """``a * b + c`` rounded once in the arrays' dtype (``c`` may be a number); other dtypes
    than float32 and float64 are computed as two operations."""
    kind = np.result_type(a, b)
    if kind not in (np.float32, np.float64):
        return np.asarray(a * b + c)
    return np.asarray(fused(a, b, c, kind), dtype=kind)


def lerp_values(start, end, weight):
    """torch.lerp's CPU kernel: from the nearer end, one FMA each way:
    start + w·(end - start) for |w| < 0.5, else end - (end - start)·(1 - w)."""
    kind = np.result_type(start, end)
    if kind not in (np.float32, np.float64):
        return start + weight * (end - start)
    weight = np.asarray(weight, dtype=kind)
    difference = end - start
    near_start = fused(weight, difference, start, kind)
    near_end = fused(-difference, kind.type(1) - weight, end, kind)
    return np.where(np.abs(weight) < 0.5, near_start, near_end).astype(kind, copy=False)


def addcmul_values(start, first, second, value):
    """start + value·first·second as torch's CPU kernel rounds it: (value·first)·second
    fused with the addition."""
    kind = np.result_type(start, first, second)
    if kind not in (np.float32, np.float64):
        return start + value * first * second
    return fused(kind.type(value) * first, second, start, kind)


def addcdiv_values(start, first, second, value):
    """start + (value·first)/second, each step rounded (a division is never fused)."""
    kind = np.result_type(start, first, second)
    if kind.kind != "f":
        return start + value * first / second
    return start + (kind.type(value) * first) / second


def _scalar_fma(a: float, b: float, c: float, single: bool) -> float | None:
    """``a * b + c`` rounded once, on Python floats (ten times faster than on 0-d arrays);
    None in the rare float32 case that needs the array path's exact correction."""
    if single:  # float32 inputs: the float64 product is exact, the sum rounded once or twice
        total = a * b + c
        bits = struct.unpack("<Q", struct.pack("<d", total))[0]
        halfway = (bits & 0x1FFFFFFF) == 0x10000000
        return None if halfway or 0 < abs(total) < _FLOAT32_TINY else total
    return fused_multiply_add(a, b, c)  # its splits and sums work on Python floats as well


def fused_multiply_add_float32(a, b, c, out=None) -> np.ndarray:
    """float32 ``a * b + c`` rounded once, as a float32 FMA instruction gives it: in C
    (_kernels.c) where it was built and the operands are whole arrays of one shape or single
    numbers, else by its NumPy twin (``fused_multiply_add_float32_twin``); written into
    ``out`` (a float32 array of the result's shape) where given."""
    kernels = _compiled.kernels
    if kernels is not None:
        # (written out: an optimiser's step on small parameters spent 4.5 µs a call here)
        a, b, c = _contiguous_float32(a), _contiguous_float32(b), _contiguous_float32(c)
        shape = a.shape if a.ndim >= b.ndim and a.ndim >= c.ndim else \
            b.shape if b.ndim >= c.ndim else c.shape
        if not ((a.shape == shape or a.size == 1) and (b.shape == shape or b.size == 1) and (
                c.shape == shape or c.size == 1)):  # (a softmax's row totals): spread out
            a, b, c = (np.ascontiguousarray(value) for value in np.broadcast_arrays(a, b, c))
            shape = a.shape
        if out is None or out.flags.c_contiguous:
            result = np.empty(shape, np.float32) if out is None else out
            if result.size:
                kernels.fma_f32(a, b, c, result)
            return result
    if out is None:
        return fused_multiply_add_float32_twin(a, b, c)
    out[...] = fused_multiply_add_float32_twin(a, b, c)
    return out


def _contiguous_float32(value) -> np.ndarray:
    if value.__class__ is np.ndarray:
        if value.dtype == _F32_DTYPE and value.flags.c_contiguous:
            return value
    elif value.__class__ is np.float32:  # an optimiser's scale (0-d: contiguous)
        return np.asarray(value)
    return np.ascontiguousarray(np.asarray(value, np.float32)).reshape(np.shape(value))


_F32_DTYPE = np.dtype(np.float32)


def fused_multiply_add_float32_twin(a, b, c) -> np.ndarray:
    """float32 ``a * b + c`` rounded once, ties included, in NumPy: the float64 product is
    exact, the float64 sum is rounded to odd (its last bit set when it was inexact), and a
    float64 rounded to odd rounds to float32 correctly."""
    product = np.asarray(a, np.float32).astype(np.float64) * np.asarray(b, np.float32)
    addend = np.asarray(c, np.float32).astype(np.float64)
    total = np.asarray(product + addend)
    # Rounding the float64 sum to float32 can only go wrong where that sum lies exactly
    # halfway between two float32 numbers (or among float32's subnormals): almost never,
    # so the exact correction below runs only then.
    halfway = (total.view(np.uint64) & 0x1FFFFFFF) == 0x10000000
    tiny = np.abs(total) < _FLOAT32_TINY
    if not halfway.any() and not (tiny.any() and total[tiny].any()):
        return total.astype(np.float32)
    part = total - product
    error = (product - (total - part)) + (addend - part)
    inexact_even = (error != 0) & ((np.asarray(total).view(np.uint64) & 1) == 0)
    toward = np.where(error > 0, np.inf, -np.inf)
    return np.where(inexact_even, np.nextafter(total, toward), total).astype(np.float32)


def _halves(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Veltkamp's split: x = high + low, each with at most 26 significant bits."""
    scaled = x * 134217729.0  # 2**27 + 1
    high = scaled - (scaled - x)
    return high, x - high


_erf = np.frompyfunc(math.erf, 1, 1)


def erf_values(values: np.ndarray) -> np.ndarray:
    """erf of each value (NumPy has none), rounded once to the values' dtype."""
    return np.asarray(_erf(values), dtype=values.dtype)


def safe_softmax_values(scores: np.ndarray, axis: int) -> np.ndarray:
    """softmax along ``axis`` where a row that is all -inf (every key masked out) is all 0,
    not NaN, as torch's ``_safe_softmax`` gives it."""
    top = np.max(scores, axis=axis, keepdims=True)
    shifted = np.exp(scores - np.where(np.isfinite(top), top, 0))
    total = np.sum(shifted, axis=axis, keepdims=True)
    return np.divide(shifted, total, out=np.zeros_like(shifted), where=total > 0)


def complex_logaddexp(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """torch's complex logaddexp: the larger by real part plus log1p(exp(smaller - larger))."""
    larger = np.where(a.real >= b.real, a, b)
    smaller = np.where(a.real >= b.real, b, a)
    with np.errstate(all="ignore"):
        return (larger + np.log1p(np.exp(smaller - larger))).astype(a.dtype)
