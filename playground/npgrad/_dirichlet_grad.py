"""torch._dirichlet_grad: how a Dirichlet draw's component x moves with its concentration α
(the others' sum fixed), as aten's dirichlet_grad_one approximates it: Taylor series near 0
and 1, Rice's saddle point when α and the rest are both large, else a rational correction to
an analytic approximation. The steps torch takes in the tensor's own type are taken in it
(numpy's float32 scalars round as C's float does)."""

from __future__ import annotations

import math

import numpy as np

from ._gamma import _DIGAMMA_SERIES, _PSI_10

_RATIONAL = (  # [numerator, denominator][power of log x][power of log(α/x)][powers of b]
    (((1.003668233, -0.01061107488, -0.0657888334, 0.01201642863),
      (0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033),
      (-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013)),
     ((0.221950385, -0.3187676331, 0.01799915743, 0.01074823814),
      (-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057),
      (0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05)),
     ((-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565),
      (0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181),
      (0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05))),
    (((1, -0.02924021934, -0.04438342661, 0.007285809825),
      (0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521),
      (-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149)),
     ((0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273),
      (0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956),
      (-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05)),
     ((0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05),
      (0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05),
      (-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06))),
)


def _log(x, kind):
    """C's log (math's, not NumPy's vector kernel); a float's rounded from the double's, as
    glibc's logf rounds."""
    return kind(math.log(x)) if x > 0 else np.log(x)


def _power(base, exponent, kind):
    if base > 0:
        try:
            return kind(math.pow(base, exponent))
        except OverflowError:
            return kind(math.inf)
    return np.power(base, exponent)


def digamma_one(x, kind):
    """aten's digamma_one for a positive x of type ``kind``: the steps in it, the sum in
    double, the result back in ``kind``."""
    x = kind(x)
    if x == 0:
        return kind(math.inf)
    result = 0.0
    while x < 10:
        result -= float(kind(1) / x)
        x = kind(x + kind(1))
    if x == 10:
        return kind(result + _PSI_10)
    series = 0.0
    if x < 1.0e17:
        z = 1.0 / float(x * x)
        series = _DIGAMMA_SERIES[0]
        for coefficient in _DIGAMMA_SERIES[1:]:
            series = series * z + coefficient
        series *= z
    return kind(result + float(_log(x, kind)) - float(kind(0.5) / x) - series)


def _alpha_small(x, alpha, beta, kind):
    """x near 0: a Taylor series in x (ten terms)."""
    factor = kind(digamma_one(alpha, kind) - digamma_one(kind(alpha + beta), kind)) - _log(x, kind)
    numer = kind(1)
    series = numer / alpha * (factor + kind(1) / alpha)
    for i in range(1, 11):
        step = kind(i)
        numer = numer * ((step - beta) * x / step)
        denom = alpha + step
        series = series + numer / denom * (factor + kind(1) / denom)
    result = x * _power(kind(1) - x, -beta, kind) * series
    return kind(0) if np.isnan(result) else result


def _beta_small(x, alpha, beta, kind):
    """x near 1 (as 1 - x near 0): the series for the other concentration."""
    factor = digamma_one(kind(alpha + beta), kind) - digamma_one(beta, kind)
    numer, betas, dbetas, series = kind(1), kind(1), kind(0), factor / alpha
    for i in range(1, 9):
        step = kind(i)
        numer = numer * (-x / step)
        dbetas = dbetas * (beta - step) + betas
        betas = betas * (beta - step)
        series = series + numer / (alpha + step) * (dbetas + factor * betas)
    result = -_power(kind(1) - x, kind(1) - beta, kind) * series
    return kind(0) if np.isnan(result) else result


def _alpha_mid(x: float, alpha: float, beta: float) -> float:
    """α and β both large: Rice's saddle-point expansion, in double."""
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (
                        8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = (1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * \
        (1 + 1 / (12 * beta) + 1 / (288 * beta * beta)) / \
        (1 + 1 / (12 * total) + 1 / (288 * total * total))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (math.sqrt(2 * alpha / beta) * total ** 1.5 * axbx * axbx)
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4_base = beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x))
    term4 = term4_base ** -1.5
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


def _rational(x: float, alpha: float, total: float, kind) -> float:
    u = math.log(x)
    a = math.log(alpha) - u
    b = math.log(total) - a
    powers_u, powers_a = (1, u, u * u), (1, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = powers_u[i] * powers_a[j]
            top, bottom = _RATIONAL[0][i][j], _RATIONAL[1][i][j]
            p += ua * (top[0] + b * (top[1] + b * (top[2] + b * top[3])))
            q += ua * (bottom[0] + b * (bottom[1] + b * (bottom[2] + b * bottom[3])))
    digammas = float(digamma_one(total, kind)) - float(digamma_one(alpha, kind))
    approx = x * digammas / (total - alpha)
    return p / q * approx


def dirichlet_grad_one(x, alpha, total, kind):
    """One component's gradient; ``kind`` is np.float32 or np.float64."""
    x, alpha, total = kind(x), kind(alpha), kind(total)
    beta = kind(total - alpha)
    boundary = total * x * (kind(1) - x)
    with np.errstate(all="ignore"):
        if x <= 0.5 and boundary < 2.5:
            return _alpha_small(x, alpha, beta, kind)
        if x >= 0.5 and boundary < 0.75:
            return -_beta_small(kind(1) - x, beta, alpha, kind)
        if alpha > 6 and beta > 6:
            return _alpha_mid(float(x), float(alpha), float(total) - float(alpha))
        return _rational(float(x), float(alpha), float(total), kind)


def dirichlet_grads(x: np.ndarray, alpha: np.ndarray, total: np.ndarray) -> np.ndarray:
    """torch._dirichlet_grad(x, alpha, total), element by element."""
    x, alpha, total = np.broadcast_arrays(x, alpha, total)
    kind = np.float32 if x.dtype == np.float32 else np.float64
    values = [dirichlet_grad_one(*point, kind) for point in zip(
        x.ravel().tolist(), alpha.ravel().tolist(), total.ravel().tolist(), strict=True)]
    return np.array(values, dtype=np.float64).astype(x.dtype).reshape(x.shape)
