"""``torch.distributions.beta``: Beta, a two-component Dirichlet's first component."""

from __future__ import annotations

from .. import _factories
from .._grad_mode import no_grad
from .._shapes import stack
from .._tensor import Tensor
from . import Distribution, broadcast_all, constraints
from .dirichlet import Dirichlet

__all__ = ["Beta"]


class Beta(Distribution):
    """On [0, 1], with ``concentration1`` (α) and ``concentration0`` (β): mean α/(α+β)."""

    support = constraints.unit_interval

    has_rsample = True

    def __init__(self, concentration1, concentration0, validate_args=None) -> None:
        if not isinstance(concentration1, Tensor) and not isinstance(concentration0, Tensor):
            pair = _factories.tensor([float(concentration1), float(concentration0)])
        else:
            first, second = broadcast_all(concentration1, concentration0)
            pair = stack([first, second], -1)
        self._dirichlet = Dirichlet(pair, validate_args=validate_args)
        super().__init__(self._dirichlet.batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = super().expand(batch_shape)
        new._dirichlet = self._dirichlet.expand(batch_shape)
        return new

    @property
    def concentration1(self) -> Tensor:
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> Tensor:
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self) -> Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def mode(self) -> Tensor:
        return self._dirichlet.mode[..., 0]

    @property
    def variance(self) -> Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape=()) -> Tensor:
        return self._dirichlet.rsample(sample_shape).select(-1, 0)

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        self._validate_sample(value, "Interval(lower_bound=0.0, upper_bound=1.0)",
                              lambda v: (v >= 0) & (v <= 1))
        return self._dirichlet.log_prob(stack([value, 1.0 - value], -1))

    def entropy(self) -> Tensor:
        return self._dirichlet.entropy()
