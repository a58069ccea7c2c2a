"""``torch.distributions.binomial``: Binomial(total_count, probs or logits), the number of
successes in total_count trials; its draws are torch.binomial's (torch's samplers, its random
stream), its log_prob torch's closed form by log-odds."""

from __future__ import annotations

from .. import _factories
from .._gamma_ops import binomial
from .._grad_mode import no_grad
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from . import _as_tensor, _Binary, _support, constraints
from .continuous import _check

__all__ = ["Binomial"]


def _clamp_by_zero(x: Tensor) -> Tensor:
    """max(x, 0), with a gradient of ½ at 0 (torch's helper)."""
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


class Binomial(_Binary):
    """Successes in ``total_count`` trials, each with probability ``probs``."""

    _names = ("total_count", "probs", "logits")

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        name = "probs" if probs is not None else "logits"
        count, given = broadcast_tensors(_as_tensor(total_count),
                                         _as_tensor(probs if probs is not None else logits))
        self.total_count = count.type_as(given)
        self.__dict__[name] = given
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
