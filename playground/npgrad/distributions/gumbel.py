"""``torch.distributions.gumbel``: Gumbel(loc, scale), torch's TransformedDistribution of a
Uniform on (tiny, 1 - eps) through log, negation, log and loc - scale·x, so that its draws
are torch's for one seed; log_prob, mean, variance and entropy in closed form."""

from __future__ import annotations

import math

from .. import _factories
from .._tensor import Tensor
from .._type_info import finfo
from . import constraints
from .continuous import Uniform, _batch, _check
from .transformed_distribution import TransformedDistribution
from .transforms import AffineTransform, ExpTransform

__all__ = ["Gumbel"]

EULER_CONSTANT = 0.57721566490153286060  # (torch.distributions.utils.euler_constant)


class Gumbel(TransformedDistribution):
    """The maximum of many draws: mode ``loc``, spread ``scale``."""

    support = constraints.real
    _names = ("loc", "scale")
    has_rsample = True

    def __init__(self, loc, scale, validate_args=None) -> None:
        (self.loc, self.scale), _batch_shape = _batch(loc, scale)
        limits = finfo(self.loc.dtype)
        if not isinstance(loc, Tensor) and not isinstance(scale, Tensor):
            base = Uniform(limits.tiny, 1 - limits.eps, validate_args=validate_args)
        else:
            base = Uniform(_factories.full_like(self.loc, limits.tiny),
                           _factories.full_like(self.loc, 1 - limits.eps),
                           validate_args=validate_args)
        steps = [ExpTransform().inv, AffineTransform(0, -_factories.ones_like(self.scale)),
                 ExpTransform().inv, AffineTransform(self.loc, -self.scale)]
        super().__init__(base, steps, validate_args=validate_args)
        if validate_args is not False:
            _check(self, "scale", self.scale, self.scale > 0, "GreaterThan(lower_bound=0.0)")

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new.loc = self.loc.expand(*new.batch_shape)
        new.scale = self.scale.expand(*new.batch_shape)
        return new

    def log_prob(self, value) -> Tensor:
        self._validate_real(value)
        y = (self.loc - value) / self.scale
        return (y - y.exp()) - self.scale.log()

    @property
    def mean(self) -> Tensor:
        return self.loc + self.scale * EULER_CONSTANT

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def stddev(self) -> Tensor:
        return (math.pi / math.sqrt(6)) * self.scale

    @property
    def variance(self) -> Tensor:
        return self.stddev.pow(2)

    def entropy(self) -> Tensor:
        return self.scale.log() + (1 + EULER_CONSTANT)
