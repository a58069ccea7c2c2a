"""``torch.distributions.cauchy``: Cauchy, whose rsample is loc + scale·(a cauchy_ draw)."""

from __future__ import annotations

import math

from .. import _factories
from .._grad_mode import no_grad
from .._shapes import Size
from .._tensor import Tensor
from . import Distribution, constraints
from .continuous import location_and_scale

__all__ = ["Cauchy"]


class Cauchy(Distribution):
    """Median ``loc`` and half width ``scale``: no mean, no variance, heavy tails."""

    support = constraints.real

    _names = ("loc", "scale")
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        location_and_scale(self, loc, scale, validate_args)

    @property
    def mean(self) -> Tensor:
        return _factories.full(tuple(self._extended_shape()), math.nan, dtype=self.loc.dtype)

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return _factories.full(tuple(self._extended_shape()), math.inf, dtype=self.loc.dtype)

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        drawn = _factories.empty(*shape, dtype=self.loc.dtype).cauchy_()
        return self.loc + drawn * self.scale

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        self._validate_real(value)
        return -math.log(math.pi) - self.scale.log() - \
            (((value - self.loc) / self.scale) ** 2).log1p()

    def cdf(self, value) -> Tensor:
        self._validate_real(value)
        return ((value - self.loc) / self.scale).atan() / math.pi + 0.5

    def icdf(self, value) -> Tensor:
        return (math.pi * (value - 0.5)).tan() * self.scale + self.loc

    def entropy(self) -> Tensor:
        return math.log(4 * math.pi) + self.scale.log()
