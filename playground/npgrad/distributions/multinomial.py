"""``torch.distributions.multinomial``: Multinomial(total_count, probs or logits), the counts
of each outcome in total_count categorical draws (drawn as torch draws them: the draws
first, then counted), log_prob by log-factorials."""

from __future__ import annotations

import math

from .. import _factories
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from . import Distribution, constraints
from .binomial import Binomial

__all__ = ["Multinomial"]


class Multinomial(Distribution):
    """How many of ``total_count`` draws fell on each of ``probs.shape[-1]`` outcomes."""

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None) -> None:
        from . import Categorical

        if not isinstance(total_count, int):
            raise NotImplementedError("inhomogeneous total_count is not supported")
        self.total_count = total_count
        self._categorical = Categorical(probs=probs, logits=logits)
        self._binomial = Binomial(total_count=total_count, probs=self.probs)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    probs = property(lambda self: self._categorical.probs)
    logits = property(lambda self: self._categorical.logits)
    param_shape = property(lambda self: self._categorical.param_shape)

    @property
    def support(self):
        return constraints.multinomial(self.total_count)

    @property
    def mean(self) -> Tensor:
        return self.probs * self.total_count

    @property
    def variance(self) -> Tensor:
        return self.total_count * self.probs * (1 - self.probs)

    def expand(self, batch_shape, _instance=None):
        batch_shape = Size(batch_shape)
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._categorical = self._categorical.expand(batch_shape)
        new._binomial = self._binomial.expand(Size((*batch_shape, *self.event_shape)))
        new._batch_shape = batch_shape
        return new

    def sample(self, sample_shape=()) -> Tensor:
        sample_shape = Size(sample_shape)
        drawn = self._categorical.sample(Size((self.total_count, *sample_shape)))
        drawn = drawn.permute(*range(1, drawn.dim()), 0)  # (the draws last)
        counts = _factories.zeros(*self._extended_shape(sample_shape), dtype=drawn.dtype)
        counts.scatter_add_(-1, drawn, _factories.ones_like(drawn))
        return counts.type_as(self.probs)

    def entropy(self) -> Tensor:
        n = _factories.tensor(self.total_count)
        term1 = n * self._categorical.entropy() - (n + 1).lgamma()
        support = self._binomial.enumerate_support(expand=False)[1:]
        binomial_probs = self._binomial.log_prob(support).exp()
        weights = (support + 1).lgamma()
        return term1 + (binomial_probs * weights).sum([0, -1])

    def log_prob(self, value) -> Tensor:
        support = self.support
        self._validate_sample(value, repr(support), support.check)
        logits, value = broadcast_tensors(self.logits, value)
        logits = logits.clone()
        log_factorial_n = (value.sum(-1) + 1).lgamma()
        log_factorial_xs = (value + 1).lgamma().sum(-1)
        logits[(value == 0) & (logits == -math.inf)] = 0
        return log_factorial_n - log_factorial_xs + (logits * value).sum(-1)
