"""``torch.distributions.relaxed_categorical``: the Concrete (Gumbel-softmax) relaxation of a
categorical draw, differentiable by reparameterisation (``rsample``): the log of a point on
the simplex (ExpRelaxedCategorical), and the point itself (RelaxedOneHotCategorical)."""

from __future__ import annotations

from .. import _factories
from .._grad_mode import no_grad
from .._shapes import broadcast_tensors
from .._tensor import Tensor
from . import Categorical, Distribution, _clamped, constraints
from .one_hot_categorical import OneHotCategorical
from .transformed_distribution import TransformedDistribution
from .transforms import ExpTransform

__all__ = ["ExpRelaxedCategorical", "RelaxedOneHotCategorical"]


class ExpRelaxedCategorical(Distribution):
    """The log of a relaxed one-hot vector at ``temperature``, from ``probs`` or ``logits``."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self._categorical = Categorical(probs, logits)
        self.temperature = temperature
        super().__init__(self._categorical.batch_shape, self._categorical.param_shape[-1:],
                         validate_args=validate_args)

    expand = OneHotCategorical.expand  # (a copy over its categorical expanded)

    param_shape = property(lambda self: self._categorical.param_shape)
    logits = property(lambda self: self._categorical.logits)
    probs = property(lambda self: self._categorical.probs)

    def rsample(self, sample_shape=()) -> Tensor:
        """Gumbel noise on the logits, over the temperature, normalised in log space."""
        logits = self.logits
        uniforms = _clamped(_factories.rand(self._extended_shape(sample_shape),
                                               dtype=logits.dtype))
        gumbels = -((-(uniforms.log())).log())
        scores = (logits + gumbels) / self.temperature
        return scores - scores.logsumexp(dim=-1, keepdim=True)

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        count = self._categorical._num_events
        logits, value = broadcast_tensors(self.logits, value)
        temperature = self.temperature
        if not isinstance(temperature, Tensor):
            temperature = _factories.tensor(temperature, dtype=logits.dtype)
        log_scale = _factories.full_like(temperature, float(count)).lgamma() \
            - temperature.log().mul(-(count - 1))
        score = logits - value.mul(temperature)
        score = (score - score.logsumexp(dim=-1, keepdim=True)).sum(-1)
        return score + log_scale


class RelaxedOneHotCategorical(TransformedDistribution):
    """A point on the simplex near a one-hot vector, nearer as ``temperature`` falls."""

    arg_constraints = {"probs": constraints.simplex, "logits": constraints.real_vector}
    support = constraints.simplex
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        super().__init__(ExpRelaxedCategorical(temperature, probs, logits,
                                               validate_args=validate_args),
                         ExpTransform(), validate_args=validate_args)

    temperature = property(lambda self: self.base_dist.temperature)
    logits = property(lambda self: self.base_dist.logits)
    probs = property(lambda self: self.base_dist.probs)
