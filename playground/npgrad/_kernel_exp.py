"""e^x in float32 as torch's CPU kernels for sigmoid and silu compute it: Sleef's expf on the
elements their vector loop covers, and e^x rounded once (the C library's expf) on the rest;
softmax's and log_softmax's kernels along the last dimension take Sleef's for every element
(``row_exp``). Sleef's expf runs in C (_kernels.c) where setup.py could build it, else in
its NumPy twin here (``sleef_expf``); tests hold the two equal bit for bit.

torch 2.13's plain exp, tanh, sin, cos and log come from MKL whatever ATEN_CPU_CAPABILITY says
(measured: the same bits under default, avx2 and avx512), and MKL's code is not public; the
nearest this engine comes to them is rounding once (_pointwise.rounded_once). The kernels
that compute their own e^x (sigmoid, silu...) use Sleef under AVX2 and AVX-512, which is."""

from __future__ import annotations

import math
import os

import numpy as np

from . import _compiled
from ._numerics import fused_multiply_add_float32 as fma

# Past this many elements NumPy's own float32 exp (float64 is several times slower).
ROUNDED_UP_TO = 1 << 16
# torch splits a kernel's work among threads past this many elements (at::internal::GRAIN_SIZE),
# each piece with its own scalar tail: past it the split depends on torch's thread count, so
# all elements are rounded once (as most of them are in torch).
ONE_PIECE_UP_TO = 32768

_F32 = np.float32
_SMALLEST_NORMAL = np.finfo(np.float32).tiny
_LOG2_E = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_LN2_HIGH, _LN2_LOW = _F32(0.693145751953125), _F32(1.428606765330187045e-06)
# Sleef's minimax polynomial for e^s - 1 - s on |s| <= ln2/2, highest power first
_POLYNOMIAL = tuple(_F32(c) for c in (
    0.000198527617612853646278381, 0.00139304355252534151077271, 0.00833336077630519866943359,
    0.0416664853692054748535156, 0.166666671633720397949219, 0.5))


def cpu_has_avx512() -> bool:
    """Whether the CPU has the AVX-512 groups torch's and oneDNN's kernels need (F, BW, VL,
    DQ), as NumPy read its flags (False before NumPy 2, which keeps them elsewhere)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:
        return False
    return all(features.get(flag) for flag in ("AVX512F", "AVX512BW", "AVX512VL", "AVX512DQ"))


def vector_floats() -> int:
    """How many float32 one vector of torch's kernels holds here: 16 with AVX-512, 8 with
    AVX2, 1 where torch runs its scalar code (ATEN_CPU_CAPABILITY=default, older CPUs). The
    CPU's own flags decide, as torch reads them (NumPy's groups of them follow
    NPY_DISABLE_CPU_FEATURES, which torch ignores)."""
    chosen = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:  # (NumPy before 2 keeps it elsewhere)
        features = {}
    if chosen == "default" or not (features.get("AVX2") and features.get("FMA3")):
        return 1
    return 16 if cpu_has_avx512() and chosen != "avx2" else 8


_VECTOR_FLOATS = vector_floats()


def vector_body(size: int) -> int:
    """How many leading elements of a contiguous run torch's vector loop takes: whole pairs
    of vectors (it unrolls by two); the rest go one by one through the scalar code."""
    if _VECTOR_FLOATS == 1:
        return 0
    step = 2 * _VECTOR_FLOATS
    return size // step * step


# How wide the vectors of torch's elementwise loops are here: 64 bytes where it runs its
# AVX-512 code, else 32 (AVX2's, and its DEFAULT build's: plain C++ over the same lanes, the
# elements still split between a vector body and a scalar tail).
_VECTOR_BYTES = 64 if _VECTOR_FLOATS == 16 else 32


def vector_loop_mask(data: np.ndarray, avx512_kernel: bool) -> np.ndarray | None:
    """Which elements of ``data`` the vector body of torch's elementwise loop computes (the
    rest go one by one through its scalar lambda, which may differ in the sign of a zero), as
    booleans of its shape; None where it computes none. ``avx512_kernel``: whether torch
    builds the op's kernel for AVX-512 (ALSO_REGISTER_AVX512_DISPATCH); one registered with
    plain REGISTER_DISPATCH runs its AVX2 code on an AVX-512 CPU."""
    if data.size == 0:
        return None
    order, run = loop_order(data)
    width = _VECTOR_BYTES if avx512_kernel else min(_VECTOR_BYTES, 32)
    step = 2 * max(1, width // data.itemsize)  # (it unrolls by two vectors)
    body = run // step * step
    if not body:
        return None
    rows = np.zeros((data.size // run, run), dtype=bool)
    rows[:, :body] = True
    return rows.reshape([data.shape[axis] for axis in order]).transpose(np.argsort(order))


def vector_body_length(size: int, dtype: np.dtype, scalar_build_too: bool = False) -> int:
    """How many leading elements of a contiguous run of ``size`` the vector body of torch's
    elementwise loop computes (vector_loop_mask's count, for one run); ``scalar_build_too``:
    under ATEN_CPU_CAPABILITY=default as well, whose loop is the same over plain C++ vectors
    (an op whose vector code is not its scalar lambda's there: pow's)."""
    if _VECTOR_FLOATS == 1 and not scalar_build_too:
        return 0
    step = 2 * max(1, _VECTOR_BYTES // np.dtype(dtype).itemsize)  # (it unrolls by two vectors)
    return size // step * step


def with_sleef_subnormal_log1p(values: np.ndarray, logs: np.ndarray) -> np.ndarray:
    """``logs`` (log1p of float32 ``values``, rounded once) as torch's vector loops give them
    (Sleef's log1pf): it halves its input before dividing, so a subnormal input's odd last
    unit rounds to even (log1p(27 units) is 28); under torch's scalar build, as they are."""
    if _VECTOR_FLOATS > 1:
        subnormal = np.abs(values) < _SMALLEST_NORMAL
        if subnormal.any():
            logs[subnormal] = values[subnormal] / _F32(2) * _F32(2)
    return logs


def sleef_expf(d: np.ndarray) -> np.ndarray:
    """Sleef's expf (1-ulp): e^d = 2^q e^s with q = rint(d/ln2), s = d - q ln2 in two
    fused steps, e^s from its polynomial by fused multiply-adds, 0 below -104, inf above 100."""
    d = np.asarray(d, _F32)
    with np.errstate(invalid="ignore", over="ignore"):
        q = np.rint(d * _LOG2_E).astype(np.int32)
        steps = q.astype(_F32)
        s = fma(steps, -_LN2_HIGH, d)
        s = fma(steps, -_LN2_LOW, s)
        u = np.full(d.shape, _POLYNOMIAL[0], _F32)
        for coefficient in _POLYNOMIAL[1:]:
            u = fma(u, s, coefficient)
        u = _F32(1) + fma(s * s, u, s)
        u = np.ldexp(u, q).astype(_F32, copy=False)
    u = np.where(d < -104, _F32(0), u)
    return np.where(d > 100, _F32(np.inf), u)


def sleef_expf_fast(d: np.ndarray) -> np.ndarray:
    """sleef_expf in C where it was built (20-90x faster than the NumPy twin)."""
    kernels = _compiled.kernels
    if kernels is None:
        return sleef_expf(d)
    source = np.ascontiguousarray(d, _F32)
    result = np.empty_like(source)
    if source.size:
        kernels.sleef_expf(source, result)
    return result


def kernel_exp(exponents: np.ndarray, layout: np.ndarray | None = None) -> np.ndarray:
    """e^exponents for a float32 array as torch's sigmoid and silu kernels compute it, the
    exponents taken in the order torch's loop visits the input ``layout`` (the tensor the
    exponents were computed from, whose strides decide that order)."""
    if exponents.size > ROUNDED_UP_TO:
        return np.exp(exponents)
    if exponents.size > ONE_PIECE_UP_TO or _VECTOR_FLOATS == 1:
        return _rounded_once(exponents)
    layout = exponents if layout is None else layout
    if layout.flags.c_contiguous and exponents.flags.c_contiguous:  # one run (the usual case)
        body = vector_body(exponents.size)
        flat = exponents.reshape(-1)
        result = np.empty_like(flat)
        result[:body] = sleef_expf_fast(flat[:body])
        result[body:] = _rounded_once(flat[body:])
        return result.reshape(exponents.shape)
    order, run = loop_order(layout)
    body = vector_body(run)
    if not body:
        return _rounded_once(exponents)
    rows = np.ascontiguousarray(exponents.transpose(order)).reshape(-1, run)
    result = np.empty_like(rows)
    result[:, :body] = sleef_expf_fast(rows[:, :body])
    result[:, body:] = _rounded_once(rows[:, body:])
    result = result.reshape([exponents.shape[axis] for axis in order])
    return result.transpose(np.argsort(order))


def row_exp(exponents: np.ndarray) -> np.ndarray:
    """e^x for float32 rows as torch's softmax and log_softmax kernels compute it along the
    last dimension: their vector loop (vec::map) takes a row's tail as a partial vector, so
    every element is Sleef's expf where torch runs its AVX2/AVX-512 code; rounded once under
    its scalar build."""
    if _VECTOR_FLOATS == 1:
        return _rounded_once(exponents)
    return sleef_expf_fast(exponents).reshape(exponents.shape)


def softmax_exp(data: np.ndarray, dim: int):
    """The e^x softmax's and log_softmax's kernels take for ``data`` along ``dim``: a float32
    row's along the last dimension as their vector loop computes it (``row_exp``), else
    rounded once (not the plain exp's MKL: these kernels compute their own)."""
    from ._pointwise import exp_rounded_once  # (which imports this module)

    if math.prod(data.shape[dim + 1:]) == 1:
        if data.dtype == _F32:
            return row_exp
        if data.dtype == np.float64:
            return lambda values: _sleef_or_rounded("exp", values, exp_rounded_once)
    return exp_rounded_once


def _rounded_once(exponents: np.ndarray) -> np.ndarray:
    """e^x in float64 rounded to float32: what the C library's expf gives (torch's scalar
    code's)."""
    return np.exp(exponents.astype(np.float64)).astype(_F32)


def loop_order(data: np.ndarray) -> tuple[list[int], int]:
    """The axes of ``data`` outermost first as torch's TensorIterator loops over a unary op
    on it (by decreasing stride, where no stride is 0), and how long the runs of its inner
    loop are: the innermost axes whose elements lie one after another merge into one run;
    0 where the innermost axis is not contiguous (the loop has no vector code then)."""
    strides = [stride // data.itemsize for stride in data.strides]
    axes = list(range(data.ndim))
    if all(strides[axis] or data.shape[axis] == 1 for axis in axes):
        axes.sort(key=lambda axis: -strides[axis])
    inner = [axis for axis in axes if data.shape[axis] != 1]
    if not inner:
        return axes, data.size
    if strides[inner[-1]] != 1:
        return axes, 0
    run, expected = 1, 1
    for axis in reversed(inner):
        if strides[axis] != expected:
            break
        run *= data.shape[axis]
        expected = run
    return axes, run


def softmax_log(sums: np.ndarray) -> np.ndarray:
    """The log of the sums of exponentials log_softmax's kernels take: their vector map's
    (Sleef's log, from torch's library: _vml.sleef_values) under AVX2 and AVX-512, else
    rounded once (std::log, their scalar build's)."""
    from ._pointwise import log_rounded_once  # (which imports this module)

    return _sleef_or_rounded("log", sums, log_rounded_once)


def _sleef_or_rounded(function: str, values: np.ndarray, rounded_once) -> np.ndarray:
    """Sleef's ``function`` of torch's vector code (_vml.sleef_values), else rounded once."""
    from ._vml import sleef_values

    result = sleef_values(function, values)
    return rounded_once(values) if result is None else result
