"""torch's float32 normal numbers on x86 CPUs: its AVX2 Box-Muller kernel, operation by
operation, with the FMA instructions its compiler fused the kernel's multiplies and adds into.

torch fills a float32 tensor of 16 or more elements by drawing uniforms into it and turning
each block of 16 into normals: u1 = 1 - first eight, u2 = last eight, radius =
sqrt(-2 log u1), angle = 2π u2, cos to the first eight and sin to the last. Its log and
sincos are Cephes polynomials evaluated in float32 (not correctly rounded), so NumPy's log
and sin would differ in the last bit; these follow the kernel's own steps instead."""

from __future__ import annotations

import math

import numpy as np

from ._numerics import fused_multiply_add_float32 as _fma

_F = np.float32
_LOG_COEFFICIENTS = tuple(_F(c) for c in (
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1))
_LOG2_HIGH, _LOG2_LOW = _F(0.693359375), _F(-2.12194440e-4)  # ln 2 split in two
_SQRT_HALF = _F(0.707106781186547524)
_FOUR_OVER_PI = _F(1.27323954473516)
# π/4 split in three, so that x - j·π/4 keeps its precision
_QUARTER_PI_PARTS = (_F(-0.78515625), _F(-2.4187564849853515625e-4),
                     _F(-3.77489497744594108e-8))
_COS_COEFFICIENTS = (_F(2.443315711809948e-5), _F(-1.388731625493765e-3),
                     _F(4.166664568298827e-2))
_SIN_COEFFICIENTS = (_F(-1.9515295891e-4), _F(8.3321608736e-3), _F(-1.6666654611e-1))
_TWO_PI = _F(2.0 * math.pi)
BLOCK = 16


def normals_from_uniforms(uniforms: np.ndarray, mean: float, std: float) -> np.ndarray:
    """The kernel's normals for float32 uniforms whose length is a multiple of 16."""
    blocks = uniforms.reshape(-1, BLOCK)
    half = BLOCK // 2
    radius = np.sqrt(_F(-2) * _log(_F(1) - blocks[:, :half]))
    sine, cosine = _sincos(_TWO_PI * blocks[:, half:])
    first = _fma(radius * cosine, _F(std), _F(mean))
    second = _fma(radius * sine, _F(std), _F(mean))
    return np.concatenate([first, second], axis=1).reshape(-1)


def _log(x: np.ndarray) -> np.ndarray:
    """Natural log of positive normal float32 numbers: exponent and mantissa apart, the
    mantissa moved to [√½, √2) and a degree-9 polynomial of m - 1."""
    bits = x.view(np.int32)
    exponent = ((bits >> 23) - 0x7F).astype(_F) + _F(1)
    mantissa = ((bits & ~0x7F800000) | 0x3F000000).view(_F)  # in [0.5, 1)
    small = mantissa < _SQRT_HALF
    exponent = exponent - small.astype(_F)
    m = (mantissa - _F(1)) + np.where(small, mantissa, _F(0))
    square = m * m
    poly = np.full_like(m, _LOG_COEFFICIENTS[0])
    for coefficient in _LOG_COEFFICIENTS[1:]:
        poly = _fma(poly, m, coefficient)
    poly = _fma(poly * m, square, exponent * _LOG2_LOW)
    poly = _fma(-square, _F(0.5), poly)
    return _fma(exponent, _LOG2_HIGH, m + poly)


def _sincos(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sine and cosine of non-negative float32 angles: the octant j from x·4/π, x reduced
    by j·π/4 in three parts, one polynomial for each of sin and cos, chosen and signed by j."""
    octant = (x * _FOUR_OVER_PI).astype(np.int32)
    octant = (octant + 1) & ~1
    reduced = x
    for part in _QUARTER_PI_PARTS:
        reduced = _fma(octant.astype(_F), part, reduced)
    square = reduced * reduced
    cosine = _fma(np.full_like(square, _COS_COEFFICIENTS[0]), square, _COS_COEFFICIENTS[1])
    cosine = _fma(cosine, square, _COS_COEFFICIENTS[2])
    cosine = _fma(cosine * square, square, -(square * _F(0.5))) + _F(1)
    sine = _fma(np.full_like(square, _SIN_COEFFICIENTS[0]), square, _SIN_COEFFICIENTS[1])
    sine = _fma(sine, square, _SIN_COEFFICIENTS[2])
    sine = _fma(sine * square, reduced, reduced)
    use_sine = (octant & 2) == 0
    sin_value = np.where(use_sine, sine, cosine)
    cos_value = np.where(use_sine, cosine, sine)
    sin_value = np.where((octant & 4) != 0, -sin_value, sin_value)
    cos_value = np.where(((octant - 2) & 4) == 0, -cos_value, cos_value)
    return sin_value, cos_value
