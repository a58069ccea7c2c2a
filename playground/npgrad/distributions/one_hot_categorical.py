"""``torch.distributions.one_hot_categorical``: a Categorical whose samples are one-hot
vectors."""

from __future__ import annotations

from .. import _factories
from .._shapes import Size
from .._tensor import Tensor
from ..nn.functional import one_hot
from . import Categorical, Distribution, constraints

__all__ = ["OneHotCategorical", "OneHotCategoricalStraightThrough"]


class OneHotCategorical(Distribution):
    """One of ``probs.shape[-1]`` outcomes, as a one-hot vector."""

    has_enumerate_support = True
    support = constraints.one_hot

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        self._categorical = Categorical(probs, logits)
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._categorical = self._categorical.expand(batch_shape)
        new._batch_shape = Size(batch_shape)
        return new

    @property
    def _param(self) -> Tensor:
        return self._categorical.__dict__.get("probs", self._categorical.__dict__.get("logits"))

    probs = property(lambda self: self._categorical.probs)
    logits = property(lambda self: self._categorical.logits)
    mean = probs
    param_shape = property(lambda self: self._categorical.param_shape)

    @property
    def mode(self) -> Tensor:
        probs = self._categorical.probs
        return one_hot(probs.argmax(dim=-1), num_classes=probs.shape[-1]).to(probs)

    @property
    def variance(self) -> Tensor:
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape=()) -> Tensor:
        probs = self._categorical.probs
        indices = self._categorical.sample(Size(sample_shape))
        return one_hot(indices, self._categorical._num_events).to(probs)

    def log_prob(self, value) -> Tensor:
        self._validate_sample(value, "OneHot()", constraints.one_hot.check)
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self) -> Tensor:
        return self._categorical.entropy()

    def enumerate_support(self, expand: bool = True) -> Tensor:
        n = self.event_shape[0]
        values = _factories.eye(n, dtype=self._param.dtype)
        values = values.view(n, *([1] * len(self.batch_shape)), n)
        return values.expand(n, *self.batch_shape, n) if expand else values

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class OneHotCategoricalStraightThrough(OneHotCategorical):
    """A one-hot draw whose rsample passes the probabilities' gradient straight through
    (the draw plus probs minus their detached copy)."""

    has_rsample = True

    def rsample(self, sample_shape=()) -> Tensor:
        samples = self.sample(sample_shape)
        probs = self._categorical.probs
        return samples + (probs - probs.detach())
