"""``torch.distributions``' Uniform, Exponential, Laplace, LogNormal, MultivariateNormal and
Independent, made of the engine's ops as torch makes them (rsample, log_prob and entropy
differentiate with torch's nodes; samples come from torch's random stream in torch's order),
with torch's argument checks and reprs."""

from __future__ import annotations

import math

import numpy as np

from .. import _factories
from .._grad_mode import enable_grad, no_grad
from .._missing import lacking_member
from .._shapes import Size
from .._tensor import Tensor
from .._type_info import finfo
from . import Distribution, Normal, _as_tensor, broadcast_all, constraints


def _check(distribution, name: str, value: Tensor, valid: Tensor, constraint: str) -> None:
    """torch's argument check: a parameter (or a value) outside its constraint."""
    if not bool(valid.all()):
        raise ValueError(f"Expected parameter {name} (Tensor of shape {tuple(value.shape)}) of "
                         f"distribution {distribution!r} to satisfy the constraint "
                         f"{constraint}, but found invalid values:\n{value}")


def _check_support(distribution, value: Tensor, valid: Tensor, support: str) -> None:
    if not bool(valid.all()):
        raise ValueError(f"Expected value argument (Tensor of shape {tuple(value.shape)}) to be "
                         f"within the support ({support}) of the distribution "
                         f"{distribution!r}, but found invalid values:\n{value}")


def _batch(*values) -> tuple[tuple, Size]:
    numbers = all(not isinstance(value, Tensor) for value in values)
    tensors = broadcast_all(*values)
    return tensors, Size() if numbers else tensors[0].size()


def location_and_scale(distribution, loc, scale, validate_args) -> None:
    """loc and scale broadcast together, the scale checked positive (Laplace, Cauchy)."""
    (distribution.loc, distribution.scale), batch = _batch(loc, scale)
    Distribution.__init__(distribution, batch)
    if validate_args is not False:
        _check(distribution, "scale", distribution.scale, distribution.scale > 0,
               "GreaterThan(lower_bound=0.0)")


class Uniform(Distribution):
    """Uniform on [low, high): ``rsample`` is low + u·(high - low)."""

    _names = ("low", "high")
    has_rsample = True

    def __init__(self, low, high, validate_args=None) -> None:
        (self.low, self.high), batch = _batch(low, high)
        super().__init__(batch)
        if validate_args is not False:
            _check(self, "low", self.low, self.low < self.high,
                   f"LessThan(upper_bound={self.high})")

    @property
    def mean(self) -> Tensor:
        return (self.high + self.low) / 2

    @property
    def mode(self) -> Tensor:
        return math.nan * self.high

    @property
    def stddev(self) -> Tensor:
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self) -> Tensor:
        return (self.high - self.low).pow(2) / 12

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        drawn = _factories.rand(*shape, dtype=self.low.dtype)
        return self.low + drawn * (self.high - self.low)

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def _validate(self, value) -> Tensor:
        value = _as_tensor(value)
        _check_support(self, value, (self.low <= value) & (value <= self.high),
                       f"Interval(lower_bound={self.low}, upper_bound={self.high})")
        return value

    def log_prob(self, value) -> Tensor:
        value = self._validate(value)
        lower = self.low.le(value).type_as(self.low)
        upper = self.high.gt(value).type_as(self.low)
        return lower.mul(upper).log() - (self.high - self.low).log()

    def cdf(self, value) -> Tensor:
        value = self._validate(value)
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def icdf(self, value) -> Tensor:
        return value * (self.high - self.low) + self.low

    def entropy(self) -> Tensor:
        return (self.high - self.low).log()


class Exponential(Distribution):
    """Rate λ: ``rsample`` is an exponential draw (torch's exponential_) over λ."""

    _names = ("rate",)
    has_rsample = True
    support = constraints.nonnegative

    def __init__(self, rate, validate_args=None) -> None:
        (self.rate,), batch = _batch(rate)
        super().__init__(batch)
        if validate_args is not False:
            _check(self, "rate", self.rate, self.rate > 0, "GreaterThan(lower_bound=0.0)")

    @property
    def mean(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def mode(self) -> Tensor:
        return _factories.zeros_like(self.rate)

    @property
    def stddev(self) -> Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> Tensor:
        return self.rate.pow(-2)

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        return _factories.empty(*shape, dtype=self.rate.dtype).exponential_() / self.rate

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        return self.rate.log() - self.rate * value

    def cdf(self, value) -> Tensor:
        value = _as_tensor(value)
        _check_support(self, value, value >= 0, "GreaterThanEq(lower_bound=0.0)")
        return 1 - (-self.rate * value).exp()

    def icdf(self, value) -> Tensor:
        return -(-_as_tensor(value)).log1p() / self.rate

    def entropy(self) -> Tensor:
        return 1.0 - self.rate.log()


class Laplace(Distribution):
    """Location and scale: ``rsample`` is loc - scale·sign(u)·log1p(-|u|), u uniform on
    (eps - 1, 1)."""

    _names = ("loc", "scale")
    has_rsample = True
    support = constraints.real

    def __init__(self, loc, scale, validate_args=None) -> None:
        location_and_scale(self, loc, scale, validate_args)

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

    @property
    def stddev(self) -> Tensor:
        return 2 ** 0.5 * self.scale

    @property
    def variance(self) -> Tensor:
        return 2 * self.scale.pow(2)

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        eps = finfo(self.loc.dtype).eps
        drawn = _factories.empty(*shape, dtype=self.loc.dtype).uniform_(eps - 1, 1)
        return self.loc - self.scale * drawn.sign() * (-drawn.abs()).log1p()

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value) -> Tensor:
        offset = value - self.loc
        return 0.5 - 0.5 * offset.sign() * (-offset.abs() / self.scale).expm1()

    def icdf(self, value) -> Tensor:
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self) -> Tensor:
        return 1 + (2 * self.scale).log()


class LogNormal(Distribution):
    """exp of a Normal (torch's TransformedDistribution of one, by ExpTransform)."""

    has_rsample = True
    support = constraints.positive

    def __init__(self, loc, scale, validate_args=None) -> None:
        self.base_dist = Normal(loc, scale, validate_args=validate_args)
        super().__init__(self.base_dist.batch_shape)

    @property
    def transforms(self) -> list:
        """torch's LogNormal is a Normal through [ExpTransform()] (KL pairs compare them)."""
        from .transforms import ExpTransform

        return [ExpTransform()]

    @property
    def loc(self) -> Tensor:
        return self.base_dist.loc

    @property
    def scale(self) -> Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> Tensor:
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def mode(self) -> Tensor:
        return (self.loc - self.scale.square()).exp()

    @property
    def variance(self) -> Tensor:
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def cdf(self, value) -> Tensor:
        return self.base_dist.cdf(_as_tensor(value).log())

    def icdf(self, value) -> Tensor:
        return self.base_dist.icdf(value).exp()

    def expand(self, batch_shape, _instance=None):
        new = type(self).__new__(type(self))
        new.base_dist = self.base_dist.expand(batch_shape)
        Distribution.__init__(new, new.base_dist.batch_shape)
        return new

    def rsample(self, sample_shape=()) -> Tensor:
        return self.base_dist.rsample(sample_shape).exp()

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.base_dist.sample(sample_shape).exp()

    def log_prob(self, value) -> Tensor:
        x = _as_tensor(value).log()
        return self.base_dist.log_prob(x) - x

    def entropy(self) -> Tensor:
        return self.base_dist.entropy() + self.loc


class MultivariateNormal(Distribution):
    """N(loc, Σ) by covariance, precision or the lower Cholesky factor of Σ; ``rsample`` is
    loc + L·eps."""

    _names = ("loc", "covariance_matrix", "precision_matrix", "scale_tril")
    has_rsample = True
    support = constraints.real_vector

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None,
                 validate_args=None) -> None:
        from .. import linalg

        given = [m for m in (covariance_matrix, precision_matrix, scale_tril) if m is not None]
        if len(given) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or "
                             "scale_tril may be specified.")
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if given[0].dim() < 2:
            name = "covariance_matrix" if covariance_matrix is not None else \
                "precision_matrix" if precision_matrix is not None else "scale_tril"
            raise ValueError(f"{name} must be at least two-dimensional, with optional leading "
                             "batch dimensions")
        batch = np.broadcast_shapes(tuple(given[0].shape[:-2]), tuple(loc.shape[:-1]))
        if scale_tril is not None:
            self.scale_tril = scale_tril.expand(*batch, -1, -1)
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self.covariance_matrix = covariance_matrix.expand(*batch, -1, -1)
            self._unbroadcasted_scale_tril = linalg.cholesky(covariance_matrix)
        else:
            self.precision_matrix = precision_matrix.expand(*batch, -1, -1)
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)
        self.loc = loc.expand(*batch, -1)
        super().__init__(batch, self.loc.shape[-1:])

    def __getattr__(self, name: str):
        """scale_tril, covariance_matrix and precision_matrix made when first read."""
        lower = self.__dict__.get("_unbroadcasted_scale_tril")
        if lower is None:
            raise AttributeError(name)
        shape = (*self._batch_shape, *self._event_shape, *self._event_shape)
        if name not in ("scale_tril", "covariance_matrix", "precision_matrix"):
            raise lacking_member(self, name)
        with enable_grad():  # (torch's lazy_property records, even under no_grad)
            if name == "scale_tril":
                value = lower.expand(*shape)
            elif name == "covariance_matrix":
                value = lower.matmul(lower.mT).expand(*shape)
            else:
                from .. import linalg

                value = linalg.inv(lower.matmul(lower.mT)).expand(*shape)
        self.__dict__[name] = value
        return value

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

    @property
    def variance(self) -> Tensor:
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(
            *self._batch_shape, *self._event_shape)

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        eps = _factories.empty(*shape, dtype=self.loc.dtype).normal_()
        return self.loc + self._unbroadcasted_scale_tril.matmul(eps.unsqueeze(-1)).squeeze(-1)

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def log_prob(self, value) -> Tensor:
        difference = value - self.loc
        mahalanobis = _mahalanobis(self._unbroadcasted_scale_tril, difference)
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + mahalanobis) - \
            half_log_det

    def entropy(self) -> Tensor:
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        entropy = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return entropy if not self._batch_shape else entropy.expand(*self._batch_shape)


def _mahalanobis(lower: Tensor, x: Tensor) -> Tensor:
    """|L⁻¹x|² for each vector x (L one matrix, or one per batch as x's batch)."""
    from .. import linalg

    n = x.shape[-1]
    if lower.dim() == 2:  # one factor: every vector solved at once, as columns
        columns = x.reshape(-1, n).mT
        squares = linalg.solve_triangular(lower, columns, upper=False).pow(2).sum(-2)
        return squares.reshape(x.shape[:-1])
    solved = linalg.solve_triangular(lower, x.unsqueeze(-1), upper=False)
    return solved.squeeze(-1).pow(2).sum(-1)


def _precision_to_scale_tril(precision: Tensor) -> Tensor:
    """torch's: the Cholesky factor of the flipped precision, flipped back and inverted."""
    from .. import linalg

    flipped = linalg.cholesky(precision.flip((-2, -1)))
    inverse_lower = flipped.flip((-2, -1)).transpose(-2, -1)
    identity = _factories.eye(precision.shape[-1], dtype=precision.dtype)
    return linalg.solve_triangular(inverse_lower, identity, upper=False)


class Independent(Distribution):
    """The base distribution's rightmost batch dimensions read as one event."""

    def __init__(self, base_distribution, reinterpreted_batch_ndims: int,
                 validate_args=None) -> None:
        batch = base_distribution.batch_shape
        if reinterpreted_batch_ndims > len(batch):
            raise ValueError("Expected reinterpreted_batch_ndims <= len(base_distribution."
                             f"batch_shape), actual {reinterpreted_batch_ndims} vs {len(batch)}")
        cut = len(batch) - reinterpreted_batch_ndims
        self.base_dist = base_distribution
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self.has_rsample = base_distribution.has_rsample
        super().__init__(batch[:cut], batch[cut:] + base_distribution.event_shape)

    @property
    def mean(self) -> Tensor:
        return self.base_dist.mean

    @property
    def mode(self) -> Tensor:
        return self.base_dist.mode

    def expand(self, batch_shape, _instance=None):
        batch_shape = Size(batch_shape)
        count = self.reinterpreted_batch_ndims
        base = self.base_dist.expand(batch_shape + self.event_shape[:count])
        return Independent(base, count)

    @property
    def variance(self) -> Tensor:
        return self.base_dist.variance

    def sample(self, sample_shape=()) -> Tensor:
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape=()) -> Tensor:
        return self.base_dist.rsample(sample_shape)

    def _summed(self, value: Tensor) -> Tensor:
        count = self.reinterpreted_batch_ndims
        return value.sum(tuple(range(-count, 0))) if count else value

    def log_prob(self, value) -> Tensor:
        return self._summed(self.base_dist.log_prob(value))

    def entropy(self) -> Tensor:
        return self._summed(self.base_dist.entropy())

    @property
    def has_enumerate_support(self) -> bool:
        return not self.reinterpreted_batch_ndims and self.base_dist.has_enumerate_support

    def enumerate_support(self, expand: bool = True) -> Tensor:
        if self.reinterpreted_batch_ndims:
            raise NotImplementedError("Enumeration over cartesian product is not implemented")
        return self.base_dist.enumerate_support(expand=expand)

    def __repr__(self) -> str:
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"
