"""``torch.distributions.constraints``: where a distribution's parameters and values may lie,
each with torch's ``check`` (a boolean tensor per event) and torch's repr."""

from __future__ import annotations

from .._tensor import Tensor

__all__ = ["Constraint", "boolean", "dependent", "dependent_property", "greater_than",
           "greater_than_eq", "half_open_interval", "independent", "integer_interval",
           "interval", "is_dependent", "less_than", "lower_triangular", "multinomial",
           "nonnegative", "nonnegative_integer", "one_hot", "positive", "positive_integer",
           "real", "real_vector", "simplex", "square", "unit_interval"]


class Constraint:
    """A region of values; ``event_dim`` dimensions on the right make one event."""

    is_discrete = False
    event_dim = 0

    def check(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on the distribution's parameters (not checked)."""

    def __init__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented) -> None:
        self._is_discrete, self._event_dim = is_discrete, event_dim

    @property
    def is_discrete(self) -> bool:
        if self._is_discrete is NotImplemented:
            raise NotImplementedError(".is_discrete cannot be determined statically")
        return self._is_discrete

    @property
    def event_dim(self) -> int:
        if self._event_dim is NotImplemented:
            raise NotImplementedError(".event_dim cannot be determined statically")
        return self._event_dim

    def __call__(self, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        return _Dependent(is_discrete=self._is_discrete if is_discrete is NotImplemented
                          else is_discrete,
                          event_dim=self._event_dim if event_dim is NotImplemented
                          else event_dim)

    def check(self, value):
        raise ValueError("Cannot determine validity of dependent constraint")


def is_dependent(constraint) -> bool:
    return isinstance(constraint, _Dependent)


class _DependentProperty(property, _Dependent):
    """A property of a distribution that is also a dependent constraint."""

    def __init__(self, fn=None, *, is_discrete=NotImplemented, event_dim=NotImplemented):
        property.__init__(self, fn)
        _Dependent.__init__(self, is_discrete=is_discrete, event_dim=event_dim)

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self._is_discrete,
                                  event_dim=self._event_dim)


class _IndependentConstraint(Constraint):
    """``base`` for each entry, with its rightmost dimensions read as one event."""

    def __init__(self, base_constraint: Constraint, reinterpreted_batch_ndims: int) -> None:
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def is_discrete(self) -> bool:
        return self.base_constraint.is_discrete

    @property
    def event_dim(self) -> int:
        return self.base_constraint.event_dim + self.reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        count = self.reinterpreted_batch_ndims
        if result.dim() < count:
            raise ValueError(f"Expected value.dim() >= {self.event_dim} but got {value.dim()}")
        return result.reshape(*result.shape[:result.dim() - count], -1).all(-1)

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, " \
               f"{self.reinterpreted_batch_ndims})"


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _OneHot(Constraint):
    is_discrete, event_dim = True, 1

    def check(self, value):
        return ((value == 0) | (value == 1)).all(-1) & value.sum(-1).eq(1)


class _Real(Constraint):
    def check(self, value):
        return value == value  # (False for NaN)


class _Bounded(Constraint):
    """A bound or two, named in the repr as torch names them."""

    def __init__(self, lower_bound=None, upper_bound=None) -> None:
        if lower_bound is not None:
            self.lower_bound = lower_bound
        if upper_bound is not None:
            self.upper_bound = upper_bound

    def __repr__(self) -> str:
        bounds = [f"{name}={getattr(self, name)}" for name in ("lower_bound", "upper_bound")
                  if name in self.__dict__]
        return f"{type(self).__name__[1:]}({', '.join(bounds)})"


class _GreaterThan(_Bounded):
    def check(self, value):
        return self.lower_bound < value


class _GreaterThanEq(_Bounded):
    def check(self, value):
        return self.lower_bound <= value


class _LessThan(_Bounded):
    def __init__(self, upper_bound) -> None:
        super().__init__(upper_bound=upper_bound)

    def check(self, value):
        return value < self.upper_bound


class _Interval(_Bounded):
    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)


class _HalfOpenInterval(_Bounded):
    def check(self, value):
        return (self.lower_bound <= value) & (value < self.upper_bound)


class _IntegerGreaterThan(_Bounded):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (value >= self.lower_bound)


class _IntegerInterval(_Bounded):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)


class _Simplex(Constraint):
    event_dim = 1

    def check(self, value):
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _Multinomial(Constraint):
    """Counts of at most ``upper_bound`` draws in all (its repr names no bound, as torch's)."""

    is_discrete, event_dim = True, 1

    def __init__(self, upper_bound) -> None:
        self.upper_bound = upper_bound

    def check(self, value):
        return (value >= 0).all(dim=-1) & (value.sum(dim=-1) <= self.upper_bound)


class _LowerTriangular(Constraint):
    event_dim = 2

    def check(self, value):
        return (value.tril() == value).view(*value.shape[:-2], -1).min(-1)[0]


class _Square(Constraint):
    event_dim = 2

    def check(self, value):
        from .. import _dtype, _factories

        return _factories.full(tuple(value.shape[:-2]), value.shape[-2] == value.shape[-1],
                               dtype=_dtype.bool)


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
boolean = _Boolean()
one_hot = _OneHot()
nonnegative_integer = _IntegerGreaterThan(0)
positive_integer = _IntegerGreaterThan(1)
integer_interval = _IntegerInterval
real = _Real()
real_vector = independent(real, 1)
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
less_than = _LessThan
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
half_open_interval = _HalfOpenInterval
simplex = _Simplex()
multinomial = _Multinomial
lower_triangular = _LowerTriangular()
square = _Square()
