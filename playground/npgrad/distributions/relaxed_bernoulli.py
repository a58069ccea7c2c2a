"""``torch.distributions.relaxed_bernoulli``: the Concrete relaxation of a coin flip,
differentiable by reparameterisation: LogitRelaxedBernoulli draws the log-odds (logistic
noise over a temperature), RelaxedBernoulli their sigmoid, a point in (0, 1)."""

from __future__ import annotations

from .. import _factories
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from . import _as_tensor, _Binary, _clamped, constraints
from .continuous import _check
from .transformed_distribution import TransformedDistribution
from .transforms import SigmoidTransform

__all__ = ["LogitRelaxedBernoulli", "RelaxedBernoulli"]


class LogitRelaxedBernoulli(_Binary):
    """The log-odds of a relaxed coin flip at ``temperature``, by probs or by logits."""

    has_enumerate_support = False
    support = constraints.real
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        self.temperature = temperature
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        name = "probs" if probs is not None else "logits"
        given = probs if probs is not None else logits
        self.__dict__[name] = _as_tensor(given)
        super().__init__(self.__dict__[name].size() if isinstance(given, Tensor) else Size())
        if validate_args is not False and name == "probs":
            value = self.__dict__[name]
            _check(self, "probs", value, (value >= 0) & (value <= 1),
                   "Interval(lower_bound=0.0, upper_bound=1.0)")

    @property
    def param_shape(self) -> Size:
        return self.__dict__.get("probs", self.__dict__.get("logits")).size()

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        probs = _clamped(self.probs.expand(shape))
        uniforms = _clamped(_factories.rand(*shape, dtype=probs.dtype))
        return (uniforms.log() - (-uniforms).log1p() + probs.log() - (-probs).log1p()) / \
            self.temperature

    def sample(self, sample_shape=()) -> Tensor:
        from .._grad_mode import no_grad

        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        self._validate_real(value)
        logits, value = broadcast_tensors(self.logits, _as_tensor(value))
        diff = logits - value.mul(self.temperature)
        return self.temperature.log() + diff - 2 * diff.exp().log1p()


class RelaxedBernoulli(TransformedDistribution):
    """A point in (0, 1) near 0 or 1, nearer as ``temperature`` falls."""

    support = constraints.unit_interval
    has_rsample = True

    def __init__(self, temperature, probs=None, logits=None, validate_args=None) -> None:
        super().__init__(LogitRelaxedBernoulli(temperature, probs, logits), SigmoidTransform(),
                         validate_args=validate_args)

    temperature = property(lambda self: self.base_dist.temperature)
    logits = property(lambda self: self.base_dist.logits)
    probs = property(lambda self: self.base_dist.probs)
