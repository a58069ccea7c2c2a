"""``torch.distributions.continuous_bernoulli``: ContinuousBernoulli(probs or logits), the
normalised density p^x (1 - p)^(1 - x) on [0, 1] (the VAE likelihood for pixel values);
near p = ½, where the closed forms lose precision, torch's Taylor series; draws by its
inverse cdf from torch's random stream."""

from __future__ import annotations

import math

from .. import _factories
from .._grad_mode import no_grad
from .._selection import where
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from ..nn.functional import binary_cross_entropy_with_logits
from . import _as_tensor, _Binary, _clamped, constraints

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(_Binary):
    """A density on [0, 1] that leans towards 1 as ``probs`` grows past ½."""

    support = constraints.unit_interval
    has_rsample, has_enumerate_support = True, False

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501),
                 validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        given = _as_tensor(probs if probs is not None else logits)
        if probs is not None:
            if validate_args is not None and not bool(((given >= 0) & (given <= 1)).all()):
                raise ValueError("The parameter probs has invalid values")
            self.__dict__["probs"] = _clamped(given)
        else:
            self.__dict__["logits"] = given
        self._lims = lims
        number = not isinstance(probs if probs is not None else logits, Tensor)
        super().__init__(Size() if number else given.size())

    def _probs_from_logits(self, logits: Tensor) -> Tensor:
        return _clamped(logits.sigmoid())

    def _outside_unstable_region(self) -> Tensor:
        return self.probs.le(self._lims[0]) | self.probs.gt(self._lims[1])

    def _cut_probs(self) -> Tensor:
        return where(self._outside_unstable_region(), self.probs,
                     self._lims[0] * _factories.ones_like(self.probs))

    def _cont_bern_log_norm(self) -> Tensor:
        """The log of the normalising constant, by probs."""
        cut = self._cut_probs()
        below = where(cut.le(0.5), cut, _factories.zeros_like(cut))
        above = where(cut.ge(0.5), cut, _factories.ones_like(cut))
        log_norm = ((-cut).log1p() - cut.log()).abs().log() - \
            where(cut.le(0.5), (-2.0 * below).log1p(), (2.0 * above - 1.0).log())
        x = (self.probs - 0.5).pow(2)
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return where(self._outside_unstable_region(), log_norm, taylor)

    @property
    def mean(self) -> Tensor:
        cut = self._cut_probs()
        mus = cut / (2.0 * cut - 1.0) + 1.0 / ((-cut).log1p() - cut.log())
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x.pow(2)) * x
        return where(self._outside_unstable_region(), mus, taylor)

    @property
    def variance(self) -> Tensor:
        cut = self._cut_probs()
        spread = cut * (cut - 1.0) / (1.0 - 2.0 * cut).pow(2) + \
            1.0 / ((-cut).log1p() - cut.log()).pow(2)
        x = (self.probs - 0.5).pow(2)
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return where(self._outside_unstable_region(), spread, taylor)

    @property
    def stddev(self) -> Tensor:
        return self.variance.sqrt()

    def sample(self, sample_shape=()) -> Tensor:
        u = _factories.rand(*self._extended_shape(Size(sample_shape)), dtype=self.probs.dtype)
        with no_grad():
            return self.icdf(u)

    def rsample(self, sample_shape=()) -> Tensor:
        u = _factories.rand(*self._extended_shape(Size(sample_shape)), dtype=self.probs.dtype)
        return self.icdf(u)

    def _validate_unit(self, value) -> None:
        self._validate_sample(value, "Interval(lower_bound=0.0, upper_bound=1.0)",
                              lambda v: (v >= 0) & (v <= 1))

    def log_prob(self, value) -> Tensor:
        self._validate_unit(value)
        logits, value = broadcast_tensors(self.logits, _as_tensor(value))
        return -binary_cross_entropy_with_logits(logits, value, reduction="none") + \
            self._cont_bern_log_norm()

    def cdf(self, value) -> Tensor:
        self._validate_unit(value)
        cut = self._cut_probs()
        cdfs = (cut.pow(value) * (1.0 - cut).pow(1.0 - value) + cut - 1.0) / (2.0 * cut - 1.0)
        unbounded = where(self._outside_unstable_region(), cdfs, value)
        return where(value.le(0.0), _factories.zeros_like(value),
                     where(value.ge(1.0), _factories.ones_like(value), unbounded))

    def icdf(self, value) -> Tensor:
        cut = self._cut_probs()
        inverted = ((-cut + value * (2.0 * cut - 1.0)).log1p() - (-cut).log1p()) / \
            (cut.log() - (-cut).log1p())
        return where(self._outside_unstable_region(), inverted, value)

    def entropy(self) -> Tensor:
        log_probs0, log_probs1 = (-self.probs).log1p(), self.probs.log()
        return self.mean * (log_probs0 - log_probs1) - self._cont_bern_log_norm() - log_probs0
