"""torch's gamma-family draws on the CPU and the gradients of a draw, as aten's Distributions.h
runs them: Marsaglia and Tsang's gamma sampler, Poisson counts (a product of uniforms below
rate 10, Hörmann's transformed rejection from 10 on), binomial counts (geometric inversion,
Hörmann's BTRS), Dirichlet draws from float64 gammas,
and the reparameterised gradients of a gamma or Dirichlet draw with respect to its
concentration (series, saddle-point and rational approximations).

Each element is drawn in turn, as torch's serial CPU kernels draw it, so that the uniforms and
the normals (with normal_'s spare number) interleave in torch's order."""

from __future__ import annotations

import math

import numpy as np

from . import _random
from ._dirichlet_grad import digamma_one

_F32 = np.float32


def _uniform(generator) -> float:
    return float(_random.uniforms(generator, 1, np.float64)[0])


def _normal(generator) -> float:
    return float(_random._scalar_normals(generator, 1, 0.0, 1.0)[0])


def gamma_one(alpha, generator, single: bool) -> float:
    """One standard gamma draw; ``single``: the steps torch takes in float for a float tensor
    (alpha's boost and d), the rest in double."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0:
            return 0.0
        power = float(_F32(1) / _F32(alpha)) if single else 1.0 / alpha
        scale *= (1 - _uniform(generator)) ** power
        alpha = _F32(alpha) + _F32(1) if single else alpha + 1.0
    third = _F32(1) / _F32(3)
    d = float(_F32(alpha) - third) if single else float(alpha) - float(third)
    c = 1.0 / math.sqrt(9.0 * d) if d >= 0 else math.nan  # (a negative α: C's NaN, no error)
    squeeze = float(_F32(0.0331))
    while True:
        x = _normal(generator)
        y = 1.0 + c * x
        while y <= 0:
            x = _normal(generator)
            y = 1.0 + c * x
        v = y * y * y
        u = 1 - _uniform(generator)
        xx = x * x
        if u < 1.0 - squeeze * xx * xx:
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def _gammas(alphas: np.ndarray, generator, single: bool) -> np.ndarray:
    """A draw per element, in turn, as float64 in the alphas' shape."""
    draws = [gamma_one(alpha, generator, single) for alpha in alphas.ravel().tolist()]
    return np.array(draws, dtype=np.float64).reshape(alphas.shape)


def standard_gammas(alphas: np.ndarray, generator) -> np.ndarray:
    """torch._standard_gamma: a draw per element, at least the dtype's smallest normal."""
    values = _gammas(alphas, generator, alphas.dtype == np.float32).astype(alphas.dtype)
    return np.maximum(values, np.finfo(alphas.dtype).tiny, where=~np.isnan(values),
                      out=np.full_like(values, np.finfo(alphas.dtype).tiny))


def poisson_one(rate: float, generator) -> int:
    """One Poisson count of mean ``rate``."""
    if rate >= 10:
        return _poisson_rejection(rate, generator)
    if rate == 0:
        return 0
    floor, count, product = math.exp(-rate), 0, 1.0
    while True:
        product *= _uniform(generator)
        if product <= floor:
            return count
        count += 1


def _poisson_rejection(rate: float, generator) -> int:
    """Hörmann's transformed rejection with squeeze (PTRS), as torch takes it."""
    root, log_rate = math.sqrt(rate), math.log(rate)
    b = 0.931 + 2.53 * root
    a = -0.059 + 0.02483 * b
    inverse_alpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    while True:
        u = _uniform(generator) - 0.5
        v = _uniform(generator)
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + rate + 0.43)
        if us >= 0.07 and v <= vr:
            return k
        if k < 0 or (us < 0.013 and v > us):
            continue
        if math.log(v) + math.log(inverse_alpha) - math.log(a / (us * us) + b) <= \
                -rate + k * log_rate - math.lgamma(k + 1.0):
            return k


def poissons(rates: np.ndarray, generator) -> np.ndarray:
    flat = rates.astype(np.float64).ravel()
    if flat.size and not (flat >= 0).all():
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    counts = [poisson_one(rate, generator) for rate in flat.tolist()]
    return np.array(counts, dtype=np.float64).astype(rates.dtype).reshape(rates.shape)


# Stirling's series' tail, log k! - (k + ½)·log(k + 1) + (k + 1) - ½·log 2π, tabulated below 10
_STIRLING_TAILS = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983,
                   0.02079067210376509, 0.0166446911898211, 0.0138761288230707,
                   0.0118967099458917, 0.0104112652619720, 0.00925546218271273,
                   0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _STIRLING_TAILS[int(k)]
    square = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / square) / square) / (k + 1)


def binomial_one(count, prob, generator):
    """One binomial count of ``count`` trials, as aten's sample_binomial draws it: geometric
    inversion while count·p < 10, else Hörmann's BTRS; the failures' count when p > ½.
    ``count`` and ``prob`` are NumPy scalars of the tensor's dtype: torch takes the steps
    that involve only them in that type, the others in double."""
    kind = type(count)
    if count <= 0 or prob <= 0:
        return 0.0
    if prob >= 1:
        return float(count)
    if prob <= 0.5:
        return _binomial_below_half(count, prob, generator, kind)
    if prob > 0.5:
        return float(count) - _binomial_below_half(count, kind(1.0 - float(prob)), generator,
                                                   kind)
    return math.nan


def _binomial_below_half(count, prob, generator, kind) -> float:
    if float(count * prob) >= 10.0:
        return _btrs(count, prob, generator, kind)
    log_failure = float(np.log1p(-prob))  # (in the tensor's float type, as torch's)
    geometric_sum, successes = 0.0, 0.0
    while True:
        geometric_sum += math.ceil(math.log(_uniform(generator)) / log_failure)
        if geometric_sum > count:
            return successes
        successes += 1


def _btrs(count, prob, generator, kind) -> float:
    """Hörmann's transformed rejection (BTRS), with torch's bound (its log of V·α/...)."""
    spread = float(np.sqrt(count * prob * (kind(1) - prob)))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(count * prob) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(prob / (kind(1) - prob))
    alpha = (2.83 + 5.1 / b) * spread
    m = float(np.floor((count + kind(1)) * prob))
    n = float(count)
    while True:
        u = _uniform(generator) - 0.5
        v = _uniform(generator)
        us = 0.5 - abs(u)
        k = float(kind(math.floor((2 * a / us + b) * u + c)))
        if k < 0 or k > n:
            continue
        if us >= 0.07 and v <= v_r:
            return k
        v = math.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                 + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                 + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1))
                 + _stirling_tail(m) + _stirling_tail(n - m)
                 - _stirling_tail(k) - _stirling_tail(n - k))
        if v <= bound:
            return k


def binomials(counts: np.ndarray, probs: np.ndarray, generator) -> np.ndarray:
    """torch.binomial: a count per element, drawn in turn, in the counts' dtype."""
    counts, probs = np.broadcast_arrays(counts, probs)
    draws = [binomial_one(count, prob, generator)
             for count, prob in zip(counts.ravel(), probs.ravel(), strict=True)]
    return np.array(draws, dtype=np.float64).astype(counts.dtype).reshape(counts.shape)


def dirichlet_gammas(alphas: np.ndarray, generator) -> np.ndarray:
    """The float64 gammas a Dirichlet draw normalises (torch draws them in double)."""
    return np.maximum(_gammas(alphas, generator, False), np.finfo(np.float64).tiny)


def dirichlet_from_gammas(gammas: np.ndarray, sums: np.ndarray, dtype) -> np.ndarray:
    """Each gamma over its row's sum, kept within [tiny, the number just below 1]."""
    ratio = (gammas / sums).astype(dtype)
    highest = np.nextafter(np.array(1, dtype), np.array(0, dtype))
    return np.minimum(highest, np.maximum(np.finfo(dtype).tiny, ratio))


# ---- the gradient of a gamma draw ----------------------------------------------------------
_GAMMA_RATIONAL = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343,
     1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758,
     0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777,
     0.017050642, -0.0021309326, 0.00085092367, -1.5247877e-07),
)


def gamma_grad_one(alpha: float, x: float) -> float:
    """-(∂/∂α of the gamma CDF at x) / its density: how a draw x moves with α (in double)."""
    if x < float(_F32(0.8)):
        return _gamma_grad_series(alpha, x)
    if alpha > 8.0:
        return _gamma_grad_saddle(alpha, x)
    u, v = math.log(x / alpha), math.log(alpha)
    row = [_GAMMA_RATIONAL[0][i] + u * (_GAMMA_RATIONAL[1][i] + u * _GAMMA_RATIONAL[2][i])
           for i in range(8)]
    p = row[0] + v * (row[1] + v * (row[2] + v * row[3]))
    q = row[4] + v * (row[5] + v * (row[6] + v * row[7]))
    return math.exp(p / q)


def _gamma_grad_series(alpha: float, x: float) -> float:
    """Small x: the incomplete gamma function's Taylor series, six terms."""
    numer, denom = 1.0, alpha
    first, second = numer / denom, numer / (denom * denom)
    for i in range(1, 6):
        numer *= -x / i
        denom += 1
        first += numer / denom
        second += numer / (denom * denom)
    with np.errstate(all="ignore"):
        power = _power(x, alpha)
        density = _power(x, alpha - 1) * math.exp(-x)
        cdf = power * first
        cdf_alpha = (_log(x) - float(digamma_one(alpha, np.float64))) * cdf - power * second
        result = -cdf_alpha / density if density else math.copysign(math.inf, -cdf_alpha)
    return 0.0 if math.isnan(result) else result


def _gamma_grad_saddle(alpha: float, x: float) -> float:
    """Large α: Rice's saddle-point expansion (a polynomial near the mean)."""
    if float(_F32(0.9)) * alpha <= x <= float(_F32(1.1)) * alpha:
        numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
        numer_2 = 1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + \
            alpha * (107 + 3600 * x)
        denom = 1244160 * (alpha * alpha) * (alpha * alpha)
        return numer_1 * numer_2 / denom
    denom = math.sqrt(8 * alpha)
    term2 = denom / (alpha - x)
    term3 = (x - alpha - alpha * math.log(x / alpha)) ** -1.5
    term23 = term2 - term3 if x < alpha else term2 + term3
    term1 = math.log(x / alpha) * term23 - \
        math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
    stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
    return -stirling * (x * term1) / denom


def _power(base: float, exponent: float) -> float:
    try:
        return base ** exponent
    except (OverflowError, ZeroDivisionError):
        return math.inf


def _log(x: float) -> float:
    return math.log(x) if x > 0 else -math.inf


def standard_gamma_grads(alphas: np.ndarray, draws: np.ndarray) -> np.ndarray:
    """torch._standard_gamma_grad, element by element."""
    alphas, draws = np.broadcast_arrays(alphas, draws)
    values = [gamma_grad_one(a, x) for a, x in zip(alphas.astype(np.float64).ravel().tolist(),
                                                   draws.astype(np.float64).ravel().tolist(),
                                                   strict=True)]
    return np.array(values, dtype=np.float64).astype(draws.dtype).reshape(draws.shape)
