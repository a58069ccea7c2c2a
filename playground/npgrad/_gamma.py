"""The gamma function's family: lgamma, digamma, polygamma (trigamma and Hurwitz's zeta
beneath it), mvlgamma and zeta, with torch's nodes (LgammaBackward0, DigammaBackward0,
PolygammaBackward0) and torch's own CPU algorithms (aten's Math.h: digamma's recurrence and
asymptotic series, trigamma's, Cephes' zeta), run in the tensor's dtype as torch runs them.
lgamma is the C library's (torch calls std::lgamma); Python's math.lgamma stands in for it."""

from __future__ import annotations

import math

import numpy as np

from . import _inplace
from ._arithmetic import add_scalar
from ._bindings import binds
from ._formula_kit import Kit
from ._grad_mode import no_grad
from ._operands import floating
from ._pointwise import UNARY, unary
from ._recording import output
from ._tensor import Tensor

_DIGAMMA_SERIES = (8.33333333333333333333E-2, -2.10927960927960927961E-2,
                   7.57575757575757575758E-3, -4.16666666666666666667E-3,
                   3.96825396825396825397E-3, -8.33333333333333333333E-3,
                   8.33333333333333333333E-2)
_PSI_10 = 2.25175258906672110764
_ZETA_SERIES = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                -4.5979787224074726105e15, 1.8152105401943546773e17,
                -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


def _lgamma_scalar(x: float) -> float:
    if math.isnan(x) or math.isinf(x):
        return abs(x)
    if x <= 0 and x == math.floor(x):
        return math.inf  # a pole (C's lgamma: +inf)
    return math.lgamma(x)


_LGAMMA = np.frompyfunc(_lgamma_scalar, 1, 1)


def lgamma_values(data: np.ndarray) -> np.ndarray:
    return np.asarray(_LGAMMA(data.astype(np.float64)), np.float64).astype(data.dtype)


def digamma_values(data: np.ndarray) -> np.ndarray:
    """aten's calc_digamma: 1/x steps up to 10, then the asymptotic series; the reflection
    for negative x, NaN at the poles, ∓inf at ±0; in the data's own dtype."""
    kind = data.dtype.type
    x = data.copy()
    with np.errstate(all="ignore"):
        negative = x < 0
        if negative.any():
            fraction = np.modf(x.astype(np.float64))[0]
            reflected = (math.pi / np.tan(math.pi * fraction)).astype(data.dtype)
            x = np.where(negative, kind(1) - x, x)
        result = np.zeros_like(x)
        stepping = x < 10
        while stepping.any():
            result = np.where(stepping, result - kind(1) / x, result)
            x = np.where(stepping, x + kind(1), x)
            stepping = x < 10
        z = kind(1) / (x * x)
        series = np.full_like(x, kind(_DIGAMMA_SERIES[0]))
        for coefficient in _DIGAMMA_SERIES[1:]:
            series = series * z + kind(coefficient)
        tail = np.where(x < kind(1.0e17), z * series, kind(0))
        values = result + np.log(x) - kind(0.5) / x - tail
        values = np.where(x == 10, result + kind(_PSI_10), values)
        if negative.any():
            values = np.where(negative, values - reflected, values)
        values = np.where(data == 0, np.copysign(kind(np.inf), -data), values)
        values = np.where((data < 0) & (data == np.trunc(data)), kind(np.nan), values)
    return values.astype(data.dtype)


def trigamma_values(data: np.ndarray) -> np.ndarray:
    """aten's calc_trigamma: the reflection below 1/2, six steps, then the series."""
    kind = data.dtype.type
    with np.errstate(all="ignore"):
        low = data < kind(0.5)
        sign = np.where(low, kind(-1), kind(1))
        sine = np.sin(kind(math.pi) * data)
        result = np.where(low, -(kind(math.pi) * kind(math.pi)) / (sine * sine), kind(0))
        x = np.where(low, kind(1) - data, data)
        for _ in range(6):
            result = result + kind(1) / (x * x)
            x = x + kind(1)
        ixx = kind(1) / (x * x)
        series = kind(1) + kind(1) / (kind(2) * x) + ixx * (
            kind(1 / 6) - ixx * (kind(1 / 30) - ixx * kind(1 / 42)))
        result = result + series / x
    return (sign * result).astype(data.dtype)


def _zeta_scalar(x: float, q: float) -> float:
    """Cephes' Hurwitz zeta ζ(x, q), as aten's zeta computes it (in double)."""
    if x == 1:
        return math.inf
    if x < 1 or math.isnan(x) or math.isnan(q) or math.isinf(q):
        return math.nan
    if q <= 0:
        if q == math.floor(q):
            return math.inf
        if x != math.floor(x):
            return math.nan
    total = q ** -x
    a, b, count = q, 0.0, 0
    while count < 9 or a <= 9.0:
        count += 1
        a += 1.0
        b = a ** -x
        total += b
        if -_MACHEP * total < b < _MACHEP * total:
            return total
    w = a
    total += b * w / (x - 1.0)
    total -= 0.5 * b
    a, k = 1.0, 0.0
    for coefficient in _ZETA_SERIES:
        a *= x + k
        b /= w
        term = a * b / coefficient
        total = total + term
        if abs(term / total) < _MACHEP:
            return total
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return total


_ZETA = np.frompyfunc(_zeta_scalar, 2, 1)


def zeta_values(x: np.ndarray, q: np.ndarray, dtype) -> np.ndarray:
    return np.asarray(_ZETA(x.astype(np.float64), q.astype(np.float64)), np.float64).astype(dtype)


def polygamma_values(n: int, data: np.ndarray) -> np.ndarray:
    if n == 0:
        return digamma_values(data)
    if n == 1:
        return trigamma_values(data)
    factor = (1.0 if n % 2 else -1.0) * math.exp(math.lgamma(n + 1.0))
    return (factor * zeta_values(np.asarray(float(n + 1)), data, np.float64)).astype(data.dtype)


lgamma = unary("lgamma", lgamma_values)
digamma = unary("digamma", digamma_values)
for _name in ("lgamma", "digamma"):  # lgamma_ and digamma_ (_inplace binds those declared
    _inplace._unary_inplace(_name, UNARY[_name])  # before it; these come later)


@binds("polygamma", method=False)
def polygamma(n: int, input: Tensor) -> Tensor:
    """The n-th derivative of digamma (torch.polygamma(n, input))."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    data = floating(input)
    return output("polygamma", polygamma_values(n, data), (input,), (n, input))


def _polygamma_method(self: Tensor, n: int) -> Tensor:
    return polygamma(n, self)


def _polygamma_inplace(self: Tensor, n: int) -> Tensor:
    """``x.polygamma_(n)``: recorded under PolygammaBackward1, torch's in-place node."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    values = polygamma_values(n, floating(self))
    return _inplace._inplace("polygamma_", self, values, None, (n, _inplace._original(self)))


Tensor.polygamma, Tensor.polygamma_ = _polygamma_method, _polygamma_inplace


@binds("mvlgamma")
def mvlgamma(input: Tensor, p: int) -> Tensor:
    """The multivariate log-gamma of dimension p: Σ_i lgamma(x - i/2) + p(p-1)/4 log π,
    computed as torch computes it (an arange of offsets added, lgamma, a sum, a number
    added) and recorded as its one MvlgammaBackward0 node."""
    from ._factories import arange

    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    data = Tensor._make(floating(input))
    offsets = arange(-p * 0.5 + 0.5, 0.5, 0.5, dtype=data.dtype)
    with no_grad():
        terms = offsets + data.unsqueeze(-1)
        values = add_scalar(terms.lgamma().sum(-1), p * (p - 1) * math.log(math.pi) * 0.25)
    return output("mvlgamma", values._data, (input,), (input, p))


def _mvlgamma_inplace(self: Tensor, p: int) -> Tensor:
    """``x.mvlgamma_(p)``: one MvlgammaBackward0 node (torch's in-place op is not composed)."""
    with no_grad():
        values = mvlgamma(self.detach(), p)._data
    return _inplace._inplace("mvlgamma_", self, values, None, (_inplace._original(self), p))


def mvlgamma_grad(k, grad, self, p: int):
    """torch's mvlgamma_backward: grad · Σ_i digamma(x - i/2)."""
    offsets = np.arange(-p * 0.5 + 0.5, 0.5, 0.5)
    if isinstance(self, Tensor):
        terms = self.unsqueeze(-1) + Tensor._make(offsets.astype(self._data.dtype))
        return grad * terms.digamma().sum(-1)
    terms = np.asarray(self)[..., None] + offsets.astype(np.asarray(self).dtype)
    return grad * digamma_values(terms).sum(-1)


Tensor.mvlgamma_ = _mvlgamma_inplace


@binds("zeta", method=False)
def zeta(input, other) -> Tensor:
    """Hurwitz's ζ(input, other) (torch.special.zeta): no gradient, as torch has none."""
    x = input if isinstance(input, Tensor) else Tensor._make(np.asarray(input, np.float32))
    q = other if isinstance(other, Tensor) else Tensor._make(np.asarray(other, np.float32))
    dtype = np.result_type(floating(x), floating(q))
    for value in (x, q):
        if value.requires_grad:
            raise RuntimeError("the derivative for 'zeta' is not implemented.")
    return Tensor._make(zeta_values(*np.broadcast_arrays(x._data, q._data), dtype))


def _polygamma_of(k, n: int, value):
    return polygamma(n, value) if isinstance(value, Tensor) else polygamma_values(n, value)


def _digamma_of(k, value):
    return digamma(value) if isinstance(value, Tensor) else digamma_values(value)


def _lgamma_of(k, value):
    return lgamma(value) if isinstance(value, Tensor) else lgamma_values(value)


Kit.polygamma, Kit.digamma, Kit.lgamma = _polygamma_of, _digamma_of, _lgamma_of
Kit.mvlgamma_grad = mvlgamma_grad
