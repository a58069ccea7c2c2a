"""``torch.distributions.constraint_registry``: biject_to(constraint) and
transform_to(constraint), the transform from unconstrained reals onto a constraint's
values (for optimising a positive scale or a probability vector through an unconstrained
parameter), looked up by the constraint's kind as torch's registries look them up, with
torch's choices (exp then a shift for bounds, sigmoid for intervals, stick-breaking or
softmax for the simplex)."""

from __future__ import annotations

import numbers

from . import constraints
from .transforms import AffineTransform, ComposeTransform, ExpTransform, SigmoidTransform
from .vector_transforms import IndependentTransform, SoftmaxTransform, StickBreakingTransform

__all__ = ["ConstraintRegistry", "biject_to", "transform_to"]


class ConstraintRegistry:
    """Factories of transforms by kind of constraint (its class)."""

    def __init__(self) -> None:
        self._registry: dict = {}

    def register(self, constraint, factory=None):
        if factory is None:
            return lambda factory: self.register(constraint, factory)
        if isinstance(constraint, constraints.Constraint):
            constraint = type(constraint)
        if not isinstance(constraint, type) or not issubclass(constraint,
                                                              constraints.Constraint):
            raise TypeError("Expected constraint to be either a Constraint subclass or "
                            f"instance, but got {constraint}")
        self._registry[constraint] = factory
        return factory

    def __call__(self, constraint):
        try:
            factory = self._registry[type(constraint)]
        except KeyError:
            raise NotImplementedError(f"Cannot transform {type(constraint).__name__} "
                                      "constraints") from None
        return factory(constraint)


biject_to = ConstraintRegistry()
transform_to = ConstraintRegistry()


def _to_real(constraint):
    return ComposeTransform([])


def _above(constraint):
    return ComposeTransform([ExpTransform(), AffineTransform(constraint.lower_bound, 1)])


def _below(constraint):
    return ComposeTransform([ExpTransform(), AffineTransform(constraint.upper_bound, -1)])


def _inside(constraint):
    low, high = constraint.lower_bound, constraint.upper_bound
    if isinstance(low, numbers.Number) and low == 0 and isinstance(high, numbers.Number) \
            and high == 1:
        return SigmoidTransform()
    return ComposeTransform([SigmoidTransform(), AffineTransform(low, high - low)])


for _registry in (biject_to, transform_to):
    _registry.register(constraints.real, _to_real)
    for _kind in (constraints.positive, constraints.nonnegative):  # (the classes of
        _registry.register(_kind, _above)  # greater_than and greater_than_eq: torch's last)
    _registry.register(constraints.less_than(0.0), _below)
    for _kind in (constraints.unit_interval, constraints.half_open_interval(0.0, 1.0)):
        _registry.register(_kind, _inside)
biject_to.register(constraints.independent(constraints.real, 1),
                   lambda c: IndependentTransform(biject_to(c.base_constraint),
                                                  c.reinterpreted_batch_ndims))
transform_to.register(constraints.independent(constraints.real, 1),
                      lambda c: IndependentTransform(transform_to(c.base_constraint),
                                                     c.reinterpreted_batch_ndims))
biject_to.register(constraints.simplex, lambda c: StickBreakingTransform())
transform_to.register(constraints.simplex, lambda c: SoftmaxTransform())
