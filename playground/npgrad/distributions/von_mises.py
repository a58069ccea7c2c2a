"""``torch.distributions.von_mises``: the circular normal of an angle, scored with torch's
polynomial approximation of log I0 (Abramowitz and Stegun 9.8.1-9.8.4) and drawn as
torch draws it: Best and Fisher's rejection sampler in float64, three uniforms a round."""

from __future__ import annotations

import math

from .. import _factories
from .._grad_mode import no_grad
from .._selection import where
from .._shapes import Size
from .._tensor import Tensor
from . import Distribution, constraints, lazy_property
from .continuous import _batch, _check

__all__ = ["VonMises"]

# The series of I0 and I1 (scaled by e^-x √x past 3.75), low order first
_SMALL = ((1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2),
          (0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3))
_LARGE = ((0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2, -0.2057706e-1,
           0.2635537e-1, -0.1647633e-1, 0.392377e-2),
          (0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1, 0.2282967e-1,
           -0.2895312e-1, 0.1787654e-1, -0.420059e-2))


def _horner(y: Tensor, coefficients: tuple) -> Tensor:
    """The polynomial in y, highest coefficient first (as torch evaluates it)."""
    result = coefficients[-1]
    for coefficient in reversed(coefficients[:-1]):
        result = coefficient + y * result
    return result


def log_bessel(x: Tensor, order: int) -> Tensor:
    """log I_order(x) for x > 0 and order 0 or 1: one series below 3.75, the other above."""
    small = _horner((x / 3.75) * (x / 3.75), _SMALL[order])
    if order == 1:
        small = x.abs() * small
    large = x - 0.5 * x.log() + _horner(3.75 / x, _LARGE[order]).log()
    return where(x < 3.75, small.log(), large)


class VonMises(Distribution):
    """An angle around ``loc`` (radians, taken modulo 2π), tighter as ``concentration``
    grows."""

    support = constraints.real
    _names = ("loc", "concentration")
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None) -> None:
        (self.loc, self.concentration), _ = _batch(loc, concentration)
        super().__init__(self.loc.shape, validate_args=validate_args)
        if self._validate_args:
            _check(self, "concentration", self.concentration, self.concentration > 0,
                   "GreaterThan(lower_bound=0.0)")

    @lazy_property
    def variance(self) -> Tensor:
        """The circular variance."""
        return 1 - (log_bessel(self.concentration, 1) - log_bessel(self.concentration, 0)).exp()

    @lazy_property
    def _loc(self) -> Tensor:
        return self.loc.double()

    @lazy_property
    def _concentration(self) -> Tensor:
        return self.concentration.double()

    @lazy_property
    def _proposal_r(self) -> Tensor:
        """Best and Fisher's r (its Taylor form for tiny κ)."""
        kappa = self._concentration
        tau = 1 + (1 + 4 * kappa ** 2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
        return where(kappa < 1e-5, 1 / kappa + kappa, (1 + rho ** 2) / (2 * rho))

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

    def log_prob(self, value) -> Tensor:
        value = _factories.as_tensor(value, dtype=self.loc.dtype)
        self._validate_sample(value, "Real()", lambda v: v == v)
        return self.concentration * (value - self.loc).cos() - math.log(2 * math.pi) - \
            log_bessel(self.concentration, 0)

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            shape = self._extended_shape(Size(sample_shape))
            return _rejected(self._loc, self._concentration, self._proposal_r,
                             shape).to(self.loc.dtype)


def _rejected(loc: Tensor, kappa: Tensor, r: Tensor, shape: Size) -> Tensor:
    """Rounds of three uniforms for every place until each has accepted one draw (a later
    round keeps a place's first accepted value), then shifted by loc into [-π, π)."""
    angle = _factories.empty(*shape, dtype=loc.dtype)
    done = _factories.zeros(*shape, dtype=bool)
    while not bool(done.all()):
        first, second, third = _factories.rand(3, *shape, dtype=loc.dtype).unbind()
        z = (math.pi * first).cos()
        f = (1 + r * z) / (r + z)
        c = kappa * (r - f)
        accept = ((c * (2 - c) - second) > 0) | ((c / second).log() + 1 - c >= 0)
        if bool(accept.any()):
            angle = where(accept, (third - 0.5).sign() * f.acos(), angle)
            done = done | accept
    return (angle + math.pi + loc) % (2 * math.pi) - math.pi
