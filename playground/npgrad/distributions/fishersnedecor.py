"""``torch.distributions.fishersnedecor``: the F distribution of df1 and df2 degrees of
freedom, drawn as torch draws it (the ratio of two Gamma draws, each clamped to float's
tiny), scored in closed form."""

from __future__ import annotations

import math

from .. import _factories
from .._shapes import Size
from .._tensor import Tensor
from .._type_info import finfo
from . import Distribution, constraints
from .continuous import _batch, _check
from .gamma import Gamma

__all__ = ["FisherSnedecor"]
_POSITIVE = "GreaterThan(lower_bound=0.0)"


class FisherSnedecor(Distribution):
    """(X1 / df1) / (X2 / df2) for chi-squared X1, X2 of ``df1`` and ``df2`` degrees."""

    support = constraints.positive
    _names = ("df1", "df2")
    has_rsample = True

    def __init__(self, df1, df2, validate_args=None) -> None:
        (self.df1, self.df2), batch = _batch(df1, df2)
        self._gamma1 = Gamma(self.df1 * 0.5, self.df1)
        self._gamma2 = Gamma(self.df2 * 0.5, self.df2)
        super().__init__(batch, validate_args=validate_args)
        if self._validate_args:
            _check(self, "df1", self.df1, self.df1 > 0, _POSITIVE)
            _check(self, "df2", self.df2, self.df2 > 0, _POSITIVE)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new._gamma1 = self._gamma1.expand(batch_shape)
        new._gamma2 = self._gamma2.expand(batch_shape)
        return new

    @property
    def mean(self) -> Tensor:
        df2 = self.df2.clone()
        df2[df2 <= 2] = math.nan
        return df2 / (df2 - 2)

    @property
    def mode(self) -> Tensor:
        mode = (self.df1 - 2) / self.df1 * self.df2 / (self.df2 + 2)
        mode[self.df1 <= 2] = math.nan
        return mode

    @property
    def variance(self) -> Tensor:
        df2 = self.df2.clone()
        df2[df2 <= 4] = math.nan
        return 2 * df2.pow(2) * (self.df1 + df2 - 2) / (
            self.df1 * (df2 - 2).pow(2) * (df2 - 4))

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        first = self._gamma1.rsample(sample_shape).view(shape)
        second = self._gamma2.rsample(sample_shape).view(shape)
        tiny = finfo(second.dtype).tiny
        second.clamp_(min=tiny)
        ratio = first / second
        ratio.clamp_(min=tiny)
        return ratio

    def log_prob(self, value) -> Tensor:
        value = _factories.as_tensor(value, dtype=self.df1.dtype)
        self._validate_sample(value, _POSITIVE, lambda v: v > 0)
        half1, half2 = self.df1 * 0.5, self.df2 * 0.5
        ratio = self.df1 / self.df2
        normaliser = (half1 + half2).lgamma() - half1.lgamma() - half2.lgamma()
        return normaliser + (half1 * ratio.log() + (half1 - 1) * value.log()) - \
            (half1 + half2) * (ratio * value).log1p()
