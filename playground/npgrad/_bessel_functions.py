"""torch.special's Bessel functions of the first and second kind (bessel_j0, bessel_y1,
modified_bessel_k0...) and spherical_bessel_j0. torch gives them no derivative: their results
never require grad. Values come from float64 series and integrals near zero and Hankel's
expansions far from it (well past float32's last bit), rounded once to the tensor's dtype."""

from __future__ import annotations

import math

import numpy as np

from ._operands import floating
from ._out_argument import accept_out_in
from ._special_functions import _bessel
from ._tensor import Tensor

_EULER_GAMMA = 0.5772156649015329
_TERMS = 70  # of each power series: past the last one that counts at |x| = 17
# |x| beyond which Hankel's expansion is exact to float64's last bits (its smallest term is
# about e^-2x); below it, J by Bessel's integral and Y by its series (which cancels a little:
# 1e-8 at most, as far from the true values as torch's own rational approximations are)
_FAR = 17.0
_K_SERIES_LIMIT = 1.0  # K by its series below this, by its integral above
_BESSEL_NODES = np.linspace(0, math.pi, 65)  # trapezoids over a period: spectrally exact
_K_STEP = 0.1
_K_NODES = np.arange(0, 4.5, _K_STEP)  # e^-x(cosh t - 1) < e^-40 past the last for x >= 1


def _hankel_terms(x: np.ndarray, order: int, alternating: bool = True) -> tuple[np.ndarray, ...]:
    """The sums P and Q of Hankel's expansion (not alternating: the two halves of K's)."""
    mu = 4.0 * order * order
    term = np.ones_like(x)
    even, odd = term.copy(), np.zeros_like(x)
    for k in range(1, 40):
        term = term * (mu - (2 * k - 1) ** 2) / (k * 8.0 * x)
        sign = (-1) ** (k // 2) if alternating else 1
        if k % 2:
            odd = odd + sign * term
        else:
            even = even + sign * term
    return even, odd


def _first_kind_far(x: np.ndarray, order: int) -> np.ndarray:
    p, q = _hankel_terms(x, order)
    phase = x - (order / 2 + 0.25) * math.pi
    return np.sqrt(2 / (math.pi * x)) * (p * np.cos(phase) - q * np.sin(phase))


def _second_kind_far(x: np.ndarray, order: int) -> np.ndarray:
    p, q = _hankel_terms(x, order)
    phase = x - (order / 2 + 0.25) * math.pi
    return np.sqrt(2 / (math.pi * x)) * (p * np.sin(phase) + q * np.cos(phase))


def _power_sums(x: np.ndarray, order: int, sign: int) -> tuple[np.ndarray, np.ndarray]:
    """Σ s^k (x/2)^(2k+n) / (k!(k+n)!) and the same weighted by ψ(k+1) + ψ(k+n+1) + 2γ
    (harmonic numbers H_k + H_(k+n)), s = ``sign``: the pieces of J, Y, I and K's series."""
    half = x / 2
    term = half ** order / math.factorial(order)
    plain, weighted = term.copy(), term * _harmonic(order)
    square = sign * half * half
    harmonic_k, harmonic_kn = 0.0, _harmonic(order)
    for k in range(1, _TERMS):
        term = term * square / (k * (k + order))
        harmonic_k += 1 / k
        harmonic_kn += 1 / (k + order)
        plain = plain + term
        weighted = weighted + term * (harmonic_k + harmonic_kn)
    return plain, weighted


def _harmonic(n: int) -> float:
    return sum(1 / k for k in range(1, n + 1))


def _bessel_integral(x: np.ndarray, order: int) -> np.ndarray:
    """J_n(x) = (1/π) ∫_0^π cos(nτ - x sin τ) dτ, by trapezoids (the integrand is periodic)."""
    tau = _BESSEL_NODES
    values = np.cos(order * tau - x[:, None] * np.sin(tau))
    weights = np.full(tau.size, 1.0)
    weights[[0, -1]] = 0.5
    return values @ weights / (tau.size - 1)


def _j_values(x: np.ndarray, order: int) -> np.ndarray:
    z = np.abs(x)
    near = z <= _FAR
    result = np.empty_like(z)
    result[near] = _bessel_integral(z[near], order)
    result[~near] = _first_kind_far(z[~near], order)
    if order == 1:  # (odd, and 0 at 0 exactly)
        result = np.where(x < 0, -result, np.where(x == 0, 0.0, result))
    return result


def _y_values(x: np.ndarray, order: int) -> np.ndarray:
    """Y_n for x > 0 (DLMF 10.8.1); -inf at 0, NaN left of it."""
    z = np.where(x > 0, x, 1.0)
    near = z <= _FAR
    result = np.empty_like(z)
    zn = z[near]
    plain, weighted = _power_sums(zn, order, -1)
    log_half = np.log(zn / 2)
    series = 2 / math.pi * log_half * plain - weighted / math.pi
    if order == 0:
        result[near] = series + 2 * _EULER_GAMMA / math.pi * plain
    else:
        result[near] = series - 2 / (math.pi * zn) + 2 * _EULER_GAMMA / math.pi * plain
    result[~near] = _second_kind_far(z[~near], order)
    return np.where(x > 0, result, np.where(x == 0, -np.inf, np.nan))


def _scaled_k_values(x: np.ndarray, order: int) -> np.ndarray:
    """e^x K_n(x) for x > 0 (DLMF 10.31.1 near zero, its integral 10.32.9 further out, its
    expansion 10.40.2 far out); inf at 0, NaN left of it."""
    z = np.where(x > 0, x, 1.0)
    near = z <= _K_SERIES_LIMIT
    result = np.empty_like(z)
    zn = z[near]
    plain, weighted = _power_sums(zn, order, 1)
    log_half = np.log(zn / 2)
    if order == 0:
        values = -(log_half + _EULER_GAMMA) * plain + weighted / 2
    else:
        values = 1 / zn + (log_half + _EULER_GAMMA) * plain - weighted / 2
    result[near] = values * np.exp(zn)
    middle = ~near & (z <= _FAR)
    t = _K_NODES
    values = np.exp(-z[middle][:, None] * (np.cosh(t) - 1)) * np.cosh(order * t)
    result[middle] = (values.sum(axis=1) - values[:, 0] / 2) * _K_STEP
    far = z[z > _FAR]
    even, odd = _hankel_terms(far, order, alternating=False)
    result[z > _FAR] = np.sqrt(math.pi / (2 * far)) * (even + odd)
    return np.where(x > 0, result, np.where(x == 0, np.inf, np.nan))


def _spherical_j0_values(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(x == 0, 1.0, np.sin(x) / np.where(x == 0, 1.0, x))
    return np.where(np.isinf(x), 0.0, values)


_VALUES = {
    "bessel_j0": lambda x: _j_values(x, 0),
    "bessel_j1": lambda x: _j_values(x, 1),
    "bessel_y0": lambda x: _y_values(x, 0),
    "bessel_y1": lambda x: _y_values(x, 1),
    "modified_bessel_i0": lambda x: _bessel(x, 0),
    "modified_bessel_i1": lambda x: _bessel(x, 1),
    "modified_bessel_k0": lambda x: _scaled_k_values(x, 0) * np.exp(-x),
    "modified_bessel_k1": lambda x: _scaled_k_values(x, 1) * np.exp(-x),
    "scaled_modified_bessel_k0": lambda x: _scaled_k_values(x, 0),
    "scaled_modified_bessel_k1": lambda x: _scaled_k_values(x, 1),
    "spherical_bessel_j0": _spherical_j0_values,
}


def _without_derivative(name: str):
    def apply(input: Tensor) -> Tensor:  # noqa: A002 - torch's keyword
        data = floating(input)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            values = _VALUES[name](data.astype(np.float64))
        return Tensor._make(values.astype(data.dtype))

    apply.__name__ = apply.__qualname__ = name
    apply.__doc__ = f"torch.special.{name}: values only (torch defines no derivative)."
    return apply


globals().update({name: _without_derivative(name) for name in _VALUES})
NAMES = tuple(_VALUES)

accept_out_in(globals())
