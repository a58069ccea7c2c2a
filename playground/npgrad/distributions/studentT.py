# ruff: noqa: N999 -- the name torch gives this module (torch.distributions.studentT)
"""``torch.distributions.studentT``: StudentT, a normal draw over the root of a Chi2 draw."""

from __future__ import annotations

import math

from .. import _factories
from .._grad_mode import no_grad
from .._shapes import Size
from .._tensor import Tensor
from . import Distribution, constraints
from .continuous import _batch, _check
from .gamma import Chi2

__all__ = ["StudentT"]


class StudentT(Distribution):
    """Degrees of freedom ``df``, location ``loc`` and ``scale``; heavier tails for small df."""

    support = constraints.real

    _names = ("df", "loc", "scale")
    has_rsample = True

    def __init__(self, df, loc=0.0, scale=1.0, validate_args=None) -> None:
        (self.df, self.loc, self.scale), _ = _batch(df, loc, scale)
        self._chi2 = Chi2(self.df)
        super().__init__(self.df.size(), validate_args=validate_args)
        if self._validate_args:
            _check(self, "df", self.df, self.df > 0, "GreaterThan(lower_bound=0.0)")
            _check(self, "loc", self.loc, self.loc == self.loc, "Real()")
            _check(self, "scale", self.scale, self.scale > 0, "GreaterThan(lower_bound=0.0)")

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new._chi2 = self._chi2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Tensor:
        mean = self.loc.clone()
        mean[self.df <= 1] = math.nan
        return mean

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        variance = self.df.clone()
        wide = self.df > 2
        variance[wide] = self.scale[wide].pow(2) * self.df[wide] / (self.df[wide] - 2)
        variance[(self.df <= 2) & (self.df > 1)] = math.inf
        variance[self.df <= 1] = math.nan
        return variance

    def rsample(self, sample_shape=()) -> Tensor:
        """loc + scale·X/√(Z/df): X standard normal (drawn first), Z from Chi2(df)."""
        shape = self._extended_shape(Size(sample_shape))
        normal = _factories.empty(*shape, dtype=self.df.dtype).normal_()
        chi2 = self._chi2.rsample(sample_shape)
        return self.loc + self.scale * (normal * (chi2 / self.df).rsqrt())

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        self._validate_real(value)
        y = (value - self.loc) / self.scale
        z = self.scale.log() + 0.5 * self.df.log() + 0.5 * math.log(math.pi) + \
            (0.5 * self.df).lgamma() - (0.5 * (self.df + 1.0)).lgamma()
        return -0.5 * (self.df + 1.0) * (y ** 2.0 / self.df).log1p() - z

    def entropy(self) -> Tensor:
        lbeta = (0.5 * self.df).lgamma() + math.lgamma(0.5) - (0.5 * (self.df + 1)).lgamma()
        return self.scale.log() + 0.5 * (self.df + 1) * (
            (0.5 * (self.df + 1)).digamma() - (0.5 * self.df).digamma()) + \
            0.5 * self.df.log() + lbeta
