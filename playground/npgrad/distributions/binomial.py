"""``torch.distributions``' Binomial(total_count, probs or logits), the number of successes
in total_count trials (its draws torch.binomial's: torch's samplers, its random stream), and
NegativeBinomial, the successes before total_count failures (a Poisson count of a Gamma
rate, as torch draws it); log_prob in torch's closed forms by log-odds."""

from __future__ import annotations

from .. import _factories
from .._gamma_ops import binomial, poisson
from .._grad_mode import enable_grad, no_grad
from .._shapes import Size
from .._tensor import Tensor
from ..nn.functional import logsigmoid
from . import _Binary, _support, broadcast_all, constraints
from .continuous import _check

__all__ = ["Binomial", "NegativeBinomial"]


def _clamp_by_zero(x: Tensor) -> Tensor:
    """max(x, 0), with a gradient of ½ at 0 (torch's helper)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


def _count_and_odds(distribution, total_count, probs, logits) -> tuple[str, Tensor]:
    """total_count broadcast with probs or logits (exactly one of them, as torch insists),
    both set on the distribution: the parameter's name and value, whose shape is the batch's."""
    if (probs is None) == (logits is None):
        raise ValueError("Either `probs` or `logits` must be specified, but not both.")
    name = "probs" if probs is not None else "logits"
    count, given = broadcast_all(total_count, probs if probs is not None else logits)
    distribution.total_count = count.type_as(given)
    distribution.__dict__[name] = given
    return name, given


class Binomial(_Binary):
    """Successes in ``total_count`` trials, each with probability ``probs``."""

    _names = ("total_count", "probs", "logits")

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        name, given = _count_and_odds(self, total_count, probs, logits)
        super().__init__(given.size())
        if validate_args is not False:
            _check(self, "total_count", self.total_count,
                   constraints.nonnegative_integer.check(self.total_count),
                   "IntegerGreaterThan(lower_bound=0)")
            if name == "probs":
                _check(self, "probs", given, constraints.unit_interval.check(given),
                       "Interval(lower_bound=0.0, upper_bound=1.0)")

    @property
    def _param(self) -> Tensor:
        return self.__dict__.get("probs", self.__dict__.get("logits"))

    @property
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new.total_count = self.total_count.expand(*Size(batch_shape))
        return new

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.probs

    @property
    def mode(self) -> Tensor:
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        with no_grad():
            return binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value) -> Tensor:
        support = self.support
        self._validate_sample(value, repr(support), support.check)
        log_factorial_n = (self.total_count + 1).lgamma()
        log_factorial_k = (value + 1).lgamma()
        log_factorial_nmk = (self.total_count - value + 1).lgamma()
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count * (-self.logits.abs()).exp().log1p()
                          - log_factorial_n)
        return value * self.logits - normalize_term - log_factorial_k - log_factorial_nmk

    def _homogeneous_count(self, what: str) -> int:
        total = int(self.total_count.max())
        if not self.total_count.min() == total:
            raise NotImplementedError(f"Inhomogeneous total count not supported by `{what}`.")
        return total

    def entropy(self) -> Tensor:
        self._homogeneous_count("entropy")
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(log_prob.exp() * log_prob).sum(0)

    def enumerate_support(self, expand: bool = True) -> Tensor:
        total = self._homogeneous_count("enumerate_support")
        values = _factories.arange(1 + total, dtype=self._param.dtype)
        return _support(self, values, expand)


class NegativeBinomial(_Binary):
    """Successes before ``total_count`` failures, each trial a success with ``probs``: a
    Poisson count of a Gamma(total_count, e^-logits) rate, as torch draws it."""

    _names = ("total_count", "probs", "logits")
    has_enumerate_support = False

    def __init__(self, total_count, probs=None, logits=None, validate_args=None) -> None:
        name, given = _count_and_odds(self, total_count, probs, logits)
        super().__init__(given.size())
        if validate_args is not False:
            _check(self, "total_count", self.total_count, self.total_count >= 0,
                   "GreaterThanEq(lower_bound=0)")
            if name == "probs":
                _check(self, "probs", given, (given >= 0) & (given < 1),
                       "HalfOpenInterval(lower_bound=0.0, upper_bound=1.0)")

    support = constraints.nonnegative_integer
    _param = Binomial._param

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new.total_count = self.total_count.expand(*Size(batch_shape))
        new.__dict__.pop("_gamma", None)
        return new

    @property
    def mean(self) -> Tensor:
        return self.total_count * self.logits.exp()

    @property
    def mode(self) -> Tensor:
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.0)

    @property
    def variance(self) -> Tensor:
        return self.mean / (-self.logits).sigmoid()

    @property
    def _gamma(self):
        """The Gamma of the Poisson rate, made when first read (torch's lazy_property)."""
        if "_gamma" not in self.__dict__:
            from .gamma import Gamma

            with enable_grad():  # (torch's lazy_property records, even under no_grad)
                self.__dict__["_gamma"] = Gamma(self.total_count, (-self.logits).exp(),
                                                validate_args=False)
        return self.__dict__["_gamma"]

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return poisson(self._gamma.sample(Size(sample_shape)))

    def log_prob(self, value) -> Tensor:
        support = constraints.nonnegative_integer
        self._validate_sample(value, repr(support), support.check)
        unnormalized = self.total_count * logsigmoid(-self.logits) + \
            value * logsigmoid(self.logits)
        normalization = -(self.total_count + value).lgamma() + (1.0 + value).lgamma() + \
            self.total_count.lgamma()
        normalization = normalization.masked_fill(self.total_count + value == 0.0, 0.0)
        return unnormalized - normalization
