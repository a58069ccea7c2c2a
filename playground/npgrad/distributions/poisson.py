"""``torch.distributions.poisson``: Poisson counts of a rate, drawn by torch.poisson."""

from __future__ import annotations

from .._gamma_ops import poisson
from .._grad_mode import no_grad
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from . import Distribution, constraints
from .continuous import _batch, _check

__all__ = ["Poisson"]


class Poisson(Distribution):
    """Counts with mean and variance ``rate``."""

    support = constraints.nonnegative_integer

    _names = ("rate",)

    def __init__(self, rate, validate_args=None) -> None:
        (self.rate,), batch = _batch(rate)
        super().__init__(batch, validate_args=validate_args)
        if self._validate_args:
            _check(self, "rate", self.rate, self.rate >= 0, "GreaterThanEq(lower_bound=0.0)")

    @property
    def mean(self) -> Tensor:
        return self.rate

    @property
    def mode(self) -> Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> Tensor:
        return self.rate

    def sample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        with no_grad():
            return poisson(self.rate.expand(*shape))

    def log_prob(self, value) -> Tensor:
        self._validate_sample(value, "IntegerGreaterThan(lower_bound=0)",
                              lambda v: (v % 1 == 0) & (v >= 0))
        rate, value = broadcast_tensors(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()
