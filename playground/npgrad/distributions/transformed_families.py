"""``torch.distributions``' HalfNormal, HalfCauchy, Weibull, Pareto, InverseGamma,
LogisticNormal and Kumaraswamy: each torch's TransformedDistribution of a base distribution
(|Normal|, |Cauchy|, a power of an Exponential, exp of one, 1/Gamma, a Normal broken onto
the simplex, powers of a Uniform), so their draws are torch's for one seed; moments and
entropy in torch's closed forms."""

from __future__ import annotations

import math

from .. import _factories
from .._selection import where
from .._tensor import Tensor
from . import Normal, _as_tensor, broadcast_all, constraints
from .cauchy import Cauchy
from .continuous import Exponential, Uniform, _check
from .gamma import Gamma
from .gumbel import EULER_CONSTANT
from .transformed_distribution import TransformedDistribution
from .transforms import AbsTransform, AffineTransform, ExpTransform, PowerTransform
from .vector_transforms import StickBreakingTransform

__all__ = ["HalfCauchy", "HalfNormal", "InverseGamma", "Kumaraswamy", "LogisticNormal", "Pareto",
           "Weibull"]

_POSITIVE = "GreaterThan(lower_bound=0.0)"


def _check_positive(distribution, **parameters) -> None:
    for name, value in parameters.items():
        _check(distribution, name, value, value > 0, _POSITIVE)


class _Folded(TransformedDistribution):
    """|X| of a base centred at 0 (HalfNormal, HalfCauchy): twice its density from 0 on."""

    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, base, validate_args=None) -> None:
        super().__init__(base, AbsTransform(), validate_args=validate_args)
        if validate_args is not False:
            _check_positive(self, scale=self.scale)

    scale = property(lambda self: self.base_dist.scale)

    @property
    def mode(self) -> Tensor:
        return _factories.zeros_like(self.scale)

    def log_prob(self, value) -> Tensor:
        self._validate_sample(value, "GreaterThanEq(lower_bound=0.0)", lambda v: v >= 0)
        value = _as_tensor(value)
        return where(value >= 0, self.base_dist.log_prob(value) + math.log(2), -math.inf)

    def cdf(self, value) -> Tensor:
        self._validate_sample(value, "GreaterThanEq(lower_bound=0.0)", lambda v: v >= 0)
        return 2 * self.base_dist.cdf(value) - 1

    def icdf(self, prob) -> Tensor:
        return self.base_dist.icdf((prob + 1) / 2)

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() - math.log(2)


class HalfNormal(_Folded):
    """|X| for X ~ Normal(0, scale)."""

    def __init__(self, scale, validate_args=None) -> None:
        super().__init__(Normal(0, scale, validate_args=False), validate_args)

    @property
    def mean(self) -> Tensor:
        return self.scale * math.sqrt(2 / math.pi)

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * (1 - 2 / math.pi)


class HalfCauchy(_Folded):
    """|X| for X ~ Cauchy(0, scale)."""

    def __init__(self, scale, validate_args=None) -> None:
        super().__init__(Cauchy(0, scale, validate_args=False), validate_args)

    @property
    def mean(self) -> Tensor:
        return _factories.full(tuple(self._extended_shape()), math.inf, dtype=self.scale.dtype)

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance


class Weibull(TransformedDistribution):
    """scale · E^(1/concentration) for E ~ Exponential(1)."""

    _names = ("scale", "concentration")
    support = constraints.positive

    def __init__(self, scale, concentration, validate_args=None) -> None:
        self.scale, self.concentration = broadcast_all(scale, concentration)
        self.concentration_reciprocal = self.concentration.reciprocal()
        base = Exponential(_factories.ones_like(self.scale), validate_args=validate_args)
        super().__init__(base, [PowerTransform(self.concentration_reciprocal),
                                AffineTransform(0, self.scale)], validate_args=validate_args)
        if validate_args is not False:
            _check_positive(self, scale=self.scale, concentration=self.concentration)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new.scale = self.scale.expand(*batch_shape)
        new.concentration = self.concentration.expand(*batch_shape)
        new.concentration_reciprocal = new.concentration.reciprocal()
        new.transforms = [PowerTransform(new.concentration_reciprocal),
                          AffineTransform(0, new.scale)]
        return new

    @property
    def mean(self) -> Tensor:
        return self.scale * (1 + self.concentration_reciprocal).lgamma().exp()

    @property
    def mode(self) -> Tensor:
        return self.scale * ((self.concentration - 1) / self.concentration) ** \
            self.concentration.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.scale.pow(2) * ((1 + 2 * self.concentration_reciprocal).lgamma().exp()
                                    - (2 * (1 + self.concentration_reciprocal).lgamma()).exp())

    def entropy(self) -> Tensor:
        return EULER_CONSTANT * (1 - self.concentration_reciprocal) + \
            (self.scale * self.concentration_reciprocal).log() + 1


class Pareto(TransformedDistribution):
    """scale · e^E for E ~ Exponential(alpha): at least ``scale``, tail index ``alpha``."""

    _names = ("alpha", "scale")

    def __init__(self, scale, alpha, validate_args=None) -> None:
        self.scale, self.alpha = broadcast_all(scale, alpha)
        super().__init__(Exponential(self.alpha, validate_args=validate_args),
                         [ExpTransform(), AffineTransform(0, self.scale)],
                         validate_args=validate_args)
        if validate_args is not False:
            _check_positive(self, alpha=self.alpha, scale=self.scale)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new.scale = self.scale.expand(*batch_shape)
        new.alpha = self.alpha.expand(*batch_shape)
        return new

    @property
    def support(self):
        return constraints.greater_than_eq(self.scale)

    @property
    def mean(self) -> Tensor:
        a = self.alpha.clamp(min=1)
        return a * self.scale / (a - 1)

    @property
    def mode(self) -> Tensor:
        return self.scale

    @property
    def variance(self) -> Tensor:
        a = self.alpha.clamp(min=2)
        return self.scale.pow(2) * a / ((a - 1).pow(2) * (a - 2))

    def entropy(self) -> Tensor:
        return (self.scale / self.alpha).log() + (1 + self.alpha.reciprocal())


class InverseGamma(TransformedDistribution):
    """1 / G for G ~ Gamma(concentration, rate)."""

    support = constraints.positive
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None) -> None:
        base = Gamma(concentration, rate, validate_args=validate_args)
        super().__init__(base, PowerTransform(-base.rate.new_ones(())),
                         validate_args=validate_args)

    concentration = property(lambda self: self.base_dist.concentration)
    rate = property(lambda self: self.base_dist.rate)

    @property
    def mean(self) -> Tensor:
        return where(self.concentration > 1, self.rate / (self.concentration - 1), math.inf)

    @property
    def mode(self) -> Tensor:
        return self.rate / (self.concentration + 1)

    @property
    def variance(self) -> Tensor:
        spread = self.rate.square() / ((self.concentration - 1).square() *
                                       (self.concentration - 2))
        return where(self.concentration > 2, spread, math.inf)

    def entropy(self) -> Tensor:
        return self.concentration + self.rate.log() + self.concentration.lgamma() - \
            (1 + self.concentration) * self.concentration.digamma()


class LogisticNormal(TransformedDistribution):
    """A point on the simplex: a Normal's draw through stick-breaking."""

    support = constraints.simplex
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        base = Normal(loc, scale, validate_args=validate_args)
        if not base.batch_shape:
            base = base.expand([1])
        super().__init__(base, StickBreakingTransform(), validate_args=validate_args)

    loc = property(lambda self: self.base_dist.base_dist.loc)
    scale = property(lambda self: self.base_dist.base_dist.scale)


def _kumaraswamy_moment(a: Tensor, b: Tensor, n: int) -> Tensor:
    """E[Xⁿ] of Kumaraswamy(a, b): b·B(1 + n/a, b), by log-gammas."""
    shifted = 1 + n / a
    return b * (shifted.lgamma() + b.lgamma() - (shifted + b).lgamma()).exp()


class Kumaraswamy(TransformedDistribution):
    """(1 - (1 - U)^(1/concentration0))^(1/concentration1): a Beta-like law on (0, 1)
    whose draws are differentiable."""

    _names = ("concentration1", "concentration0")
    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None) -> None:
        self.concentration1, self.concentration0 = broadcast_all(concentration1,
                                                                 concentration0)
        base = Uniform(_factories.full_like(self.concentration0, 0),
                       _factories.full_like(self.concentration0, 1), validate_args=validate_args)
        steps = [PowerTransform(self.concentration0.reciprocal()), AffineTransform(1.0, -1.0),
                 PowerTransform(self.concentration1.reciprocal())]
        super().__init__(base, steps, validate_args=validate_args)
        if validate_args is not False:
            _check_positive(self, concentration1=self.concentration1,
                            concentration0=self.concentration0)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new.concentration1 = self.concentration1.expand(*batch_shape)
        new.concentration0 = self.concentration0.expand(*batch_shape)
        return new

    @property
    def mean(self) -> Tensor:
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 1)

    @property
    def mode(self) -> Tensor:
        log_mode = self.concentration0.reciprocal() * (-self.concentration0).log1p() - \
            (-self.concentration0 * self.concentration1).log1p()
        log_mode[(self.concentration0 < 1) | (self.concentration1 < 1)] = math.nan
        return log_mode.exp()

    @property
    def variance(self) -> Tensor:
        return _kumaraswamy_moment(self.concentration1, self.concentration0, 2) - \
            self.mean.pow(2)

    def entropy(self) -> Tensor:
        t1 = 1 - self.concentration1.reciprocal()
        t0 = 1 - self.concentration0.reciprocal()
        h0 = (self.concentration0 + 1).digamma() + EULER_CONSTANT
        return t0 + t1 * h0 - self.concentration1.log() - self.concentration0.log()
