"""``torch.distributions.gamma``: Gamma (rsample through _standard_gamma, whose gradient with
respect to the concentration is torch's reparameterised one) and Chi2, a Gamma(df/2, 1/2)."""

from __future__ import annotations

from .. import _factories
from .._gamma_ops import standard_gamma
from .._grad_mode import no_grad
from .._incomplete_gamma import igamma
from .._products import xlogy
from .._shapes import Size
from .._tensor import Tensor
from .._type_info import finfo
from . import Distribution, constraints
from .continuous import _batch, _check

__all__ = ["Gamma", "Chi2"]
_POSITIVE = "GreaterThan(lower_bound=0.0)"


class Gamma(Distribution):
    """Shape ``concentration`` (α) and ``rate`` (β): mean α/β."""

    support = constraints.nonnegative

    _names = ("concentration", "rate")
    has_rsample = True

    def __init__(self, concentration, rate, validate_args=None) -> None:
        (self.concentration, self.rate), batch = _batch(concentration, rate)
        super().__init__(batch, validate_args=validate_args)
        if self._validate_args and type(self) is Gamma:
            _check(self, "concentration", self.concentration, self.concentration > 0,
                   _POSITIVE)
            _check(self, "rate", self.rate, self.rate > 0, _POSITIVE)

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> Tensor:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        value = standard_gamma(self.concentration.expand(*shape)) / self.rate.expand(*shape)
        value.detach().clamp_(min=finfo(value.dtype).tiny)  # outside the graph, as torch
        return value

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        value = _factories.as_tensor(value, dtype=self.rate.dtype)
        self._validate_sample(value, "GreaterThanEq(lower_bound=0.0)", lambda v: v >= 0)
        return xlogy(self.concentration, self.rate) + xlogy(self.concentration - 1, value) - \
            self.rate * value - self.concentration.lgamma()

    def entropy(self) -> Tensor:
        concentration = self.concentration
        return concentration - self.rate.log() + concentration.lgamma() + \
            (1.0 - concentration) * concentration.digamma()

    def cdf(self, value) -> Tensor:
        self._validate_sample(value, "GreaterThanEq(lower_bound=0.0)", lambda v: v >= 0)
        return igamma(self.concentration, self.rate * value)


class Chi2(Gamma):
    """Degrees of freedom ``df``: Gamma(df/2, rate 1/2)."""

    _names = ()  # torch's repr lists df, a property, so shows none

    def __init__(self, df, validate_args=None) -> None:
        super().__init__(0.5 * df, 0.5, validate_args=validate_args)
        if self._validate_args:
            _check(self, "df", self.df, self.df > 0, _POSITIVE)

    @property
    def df(self) -> Tensor:
        return self.concentration * 2

    def expand(self, batch_shape, _instance=None):
        new = Gamma.expand(self, batch_shape)
        for name in ("concentration", "rate"):
            new.__dict__[name] = self.__dict__[name].expand(*Size(batch_shape))
        return new
