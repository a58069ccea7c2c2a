"""GELU (erf form) and its derivative in float32 as torch's CPU computes them, bit for bit:
oneDNN's kernels for a contiguous tensor of two or more elements (torch hands those to oneDNN
while ``torch.backends.mkldnn.enabled``), ATen's kernel otherwise (the forward's).

oneDNN picks its code by the CPU alone (ATEN_CPU_CAPABILITY does not reach it; its own
ONEDNN_MAX_CPU_ISA does): with AVX-512 a piecewise minimax polynomial of |x| in 23 intervals
(chosen by the float's bits), with AVX2 Abramowitz and Stegun's 7.1.26 and oneDNN's own e^x.
Every element goes through the vector code (its tail is masked, not scalar). ATen's kernel
uses Abramowitz and Stegun with Sleef's e^x on its vector body and the C library's erf on the
rest. The constants below are oneDNN's and ATen's published float32 coefficients, as bits;
the steps are theirs, each rounded as the instruction rounds it (FMAs fused)."""

from __future__ import annotations

import os

import numpy as np

from ._kernel_exp import cpu_has_avx512, sleef_expf_fast, vector_body
from ._numerics import erf_values
from ._numerics import fused_multiply_add_float32 as fma

_F32 = np.float32


def _floats(*bits: int) -> np.ndarray:
    return np.array(bits, np.uint32).view(_F32)


# oneDNN, AVX-512: coefficients of degree 0 to 5 of the polynomial for each interval index
# (1-22 by |x|'s bits, 23: erf is 1, 24: the clamp's top)
_MINIMAX = tuple(_floats(*row) for row in (
    (0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229,
     0x37b8a3bb, 0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b,
     0x3c515ed3, 0xbb503236, 0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced,
     0x3f470d99, 0x3f7abb28, 0x3f800000, 0),
    (0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f,
     0x3f4c2d40, 0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07,
     0x3f3b980f, 0x3f48dff3, 0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e,
     0x3e6c8684, 0x3c98f936, 0, 0x3f800000),
    (0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb,
     0x3af9b960, 0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660,
     0x3e0f27ab, 0x3d94004b, 0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8,
     0xbdc4f8a8, 0xbbde6422, 0, 0),
    (0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0,
     0xbe0e400a, 0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f,
     0xbe96cbca, 0xbe8044aa, 0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91,
     0x3ca46568, 0x3aa1e00a, 0, 0),
    (0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527,
     0x3c221712, 0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910,
     0x3dd53f69, 0x3db7dcef, 0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab,
     0xbb097a32, 0xb8ebf380, 0, 0),
    (0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623,
     0x3c4c824b, 0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366,
     0xbc492c9e, 0xbc2a7aa6, 0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792,
     0x38b84375, 0x3689bb5a, 0, 0)))
_INDEX_BIAS = np.int64(np.array([0xc21fffff], np.uint32).view(np.int32)[0])
_ERF_IS_ONE_PAST = _floats(0x40b15cee)[0]  # |x| past this: erf(x/√2) is 1
# oneDNN's e^x: clamped to [ln FLT_MIN, ln FLT_MAX], 2^(n-1)·2 times a polynomial in r
_LN_FLT_MIN, _LN_FLT_MAX, _LOG2_E, _LN2 = _floats(0xc2aeac50, 0x42b17218, 0x3fb8aa3b, 0x3f317218)
_EXP_POLYNOMIAL = _floats(0x3c07cfce, 0x3d2b9d0d, 0x3e2aad40, 0x3efffee3, 0x3f7ffffb)  # p5..p1
# Abramowitz and Stegun 7.1.26: erf(x) = 1 - (p1 t + ... + p5 t^5) e^(-x²), t = 1/(1 + p |x|)
_AS_P, _SQRT_HALF, _ONE_OVER_SQRT_PI = _floats(0x3ea7ba05, 0x3f3504f3, 0x3f106eba)
_AS_POLYNOMIAL = _floats(0x3f87dc22, 0xbfba00e3, 0x3fb5f0e3, 0xbe91a98e, 0x3e827906)  # p5..p1


def hands_to_onednn(x: np.ndarray) -> bool:
    """Whether torch computes GELU (or its gradient) of these float32 values with oneDNN."""
    from .backends import mkldnn  # (the module holds the switch scripts set)

    return mkldnn.enabled and x.dtype == _F32 and x.flags.c_contiguous and x.size > 1


def gelu_float32(x: np.ndarray) -> np.ndarray:
    """GELU of a float32 array: oneDNN's where torch hands the tensor to it, else ATen's
    (its vector body and scalar tail in the order of ``x``'s elements)."""
    if hands_to_onednn(x):
        return _onednn_minimax(x) if _ONEDNN_AVX512 else _onednn_stegun(x)
    flat = x.reshape(-1)
    body = vector_body(flat.size) if x.flags.c_contiguous else 0
    alpha = flat * _SQRT_HALF
    erf = np.empty_like(flat)
    erf[:body] = _aten_vector_erf(alpha[:body])
    erf[body:] = erf_values(alpha[body:])
    return (flat * _F32(0.5) * (_F32(1) + erf)).reshape(x.shape)


def onednn_gelu_derivative(x: np.ndarray) -> np.ndarray:
    """d gelu / dx as oneDNN's backward kernel computes it on any CPU: ½ + R e^(-R²)/√π
    + ½ erf(R), R = x/√2, erf by Abramowitz and Stegun, e^x oneDNN's."""
    scaled = x * _SQRT_HALF
    decay = _onednn_exp(-(scaled * scaled))
    slope = scaled * _ONE_OVER_SQRT_PI * decay
    erf = _stegun_erf(scaled, decay)
    return fma(erf, _F32(0.5), slope + _F32(0.5))


def _onednn_avx512() -> bool:
    """Whether oneDNN runs its AVX-512 code here: the CPU's flags, capped by its own
    ONEDNN_MAX_CPU_ISA (DNNL_MAX_CPU_ISA in older builds), which it reads once."""
    cap = (os.environ.get("ONEDNN_MAX_CPU_ISA") or os.environ.get("DNNL_MAX_CPU_ISA") or
           "ALL").upper()
    if cap not in ("ALL", "DEFAULT") and not cap.startswith("AVX512") and \
            not cap.startswith("AVX10"):
        return False
    return cpu_has_avx512()


_ONEDNN_AVX512 = _onednn_avx512()


def _onednn_minimax(x: np.ndarray) -> np.ndarray:
    """x · ½ · (1 + P(|x|)) with P the polynomial of |x|'s interval, signed as x."""
    bits = x.view(np.int32)
    positive_bits = bits & np.int32(0x7FFFFFFF)
    magnitude = positive_bits.view(_F32)
    index = (positive_bits.astype(np.int64) + _INDEX_BIAS + 2**31) % 2**32 - 2**31  # (wraps)
    index = np.clip(index.astype(np.int32) >> 21, 1, 24)
    index = np.where(magnitude > _ERF_IS_ONE_PAST, 23, index)
    polynomial = _MINIMAX[5][index]
    for degree in (4, 3, 2, 1, 0):
        polynomial = fma(polynomial, magnitude, _MINIMAX[degree][index])
    erf = np.where(bits < 0, -polynomial, polynomial).astype(_F32)
    return (x * (erf + _F32(1))) * _F32(0.5)


def _onednn_stegun(x: np.ndarray) -> np.ndarray:
    """½x + ½x · erf(x/√2), erf by Abramowitz and Stegun with oneDNN's e^x."""
    scaled = x * _SQRT_HALF
    erf = _stegun_erf(scaled, _onednn_exp(-(scaled * scaled)))
    half = x * _F32(0.5)
    return fma(erf, half, half)


def _stegun_erf(x: np.ndarray, decay: np.ndarray) -> np.ndarray:
    """erf(x) by Abramowitz and Stegun 7.1.26 given ``decay`` = e^(-x²) (each kernel brings
    its own e^x): 1 - t·p(t)·decay with t = 1/(1 + p|x|), signed as x."""
    t = _F32(1) / fma(_AS_P, np.abs(x), _F32(1))
    erf = fma(-decay * t, _horner(_AS_POLYNOMIAL, t), _F32(1))
    return np.where(np.signbit(x), -erf, erf).astype(_F32)


def _onednn_exp(x: np.ndarray) -> np.ndarray:
    """oneDNN's e^x: 2·2^(n-1)·p(r), n = floor(x log2 e + ½), r = x - n ln 2 (fused); 0 below
    ln FLT_MIN."""
    below = x < _LN_FLT_MIN
    x = np.maximum(np.minimum(x, _LN_FLT_MAX), _LN_FLT_MIN)
    n = np.floor(x * _LOG2_E + _F32(0.5))
    r = fma(-n, _LN2, x)
    with np.errstate(invalid="ignore"):  # (a NaN's power is garbage, as the CPU's is)
        power = ((n - _F32(1)).astype(np.int32) + 127) << 23
    power = np.where(below, 0, power).astype(np.int32).view(_F32)
    polynomial = fma(_horner(_EXP_POLYNOMIAL, r), r, _F32(1))
    return polynomial * power * _F32(2)


def _aten_vector_erf(x: np.ndarray) -> np.ndarray:
    """ATen's Vectorized<float>::erf: Abramowitz and Stegun with Sleef's e^x."""
    return _stegun_erf(x, sleef_expf_fast(-(x * x)))


def _horner(coefficients: np.ndarray, t: np.ndarray) -> np.ndarray:
    """c0 t^k + ... + ck by fused multiply-adds, highest power first."""
    value = np.full(np.shape(t), coefficients[0], _F32)
    for coefficient in coefficients[1:]:
        value = fma(value, t, coefficient)
    return value
