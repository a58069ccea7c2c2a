"""``torch.distributions.dirichlet``: Dirichlet, whose rsample is torch's _Dirichlet Function
(the draw's gradient by torch._dirichlet_grad, once differentiable)."""

from __future__ import annotations

from .._gamma_ops import dirichlet_grad, sample_dirichlet
from .._grad_mode import no_grad
from .._shapes import Size
from .._tensor import Tensor
from ..autograd.function import Function, once_differentiable
from ..nn.functional import one_hot
from . import Distribution, constraints
from .continuous import _check

__all__ = ["Dirichlet"]


class _Dirichlet(Function):
    """A draw whose backward moves it with the concentration (torch's _DirichletBackward)."""

    @staticmethod
    def forward(ctx, concentration):
        x = sample_dirichlet(concentration)
        ctx.save_for_backward(x, concentration)
        return x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad_output):
        x, concentration = ctx.saved_tensors
        total = concentration.sum(-1, True).expand_as(concentration)
        grad = dirichlet_grad(x, concentration, total)
        return grad * (grad_output - (x * grad_output).sum(-1, True))


class Dirichlet(Distribution):
    """Points of the simplex (the last dimension sums to 1) with ``concentration`` α."""

    support = constraints.simplex

    _names = ("concentration",)
    has_rsample = True

    def __init__(self, concentration, validate_args=None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(concentration.shape[:-1], concentration.shape[-1:],
                         validate_args=validate_args)
        if self._validate_args:
            _check(self, "concentration", concentration, (concentration > 0).all(-1),
                   "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)")

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        return _Dirichlet.apply(self.concentration.expand(*shape))

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        self._validate_sample(value, "Simplex()", lambda v: (v >= 0).all(-1) & (
            (v.sum(-1) - 1).abs() < 1e-6))
        concentration = self.concentration
        return (concentration - 1.0).xlogy(value).sum(-1) + concentration.sum(-1).lgamma() - \
            concentration.lgamma().sum(-1)

    @property
    def mean(self) -> Tensor:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def mode(self) -> Tensor:
        less_one = (self.concentration - 1).clamp(min=0.0)
        mode = less_one / less_one.sum(-1, True)
        mask = (self.concentration < 1).all(dim=-1)
        mode[mask] = one_hot(mode[mask].argmax(dim=-1), less_one.shape[-1]).to(mode)
        return mode

    @property
    def variance(self) -> Tensor:
        total = self.concentration.sum(-1, True)
        return self.concentration * (total - self.concentration) / (total.pow(2) * (total + 1))

    def entropy(self) -> Tensor:
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return self.concentration.lgamma().sum(-1) - a0.lgamma() - (k - a0) * a0.digamma() - \
            ((self.concentration - 1.0) * self.concentration.digamma()).sum(-1)
