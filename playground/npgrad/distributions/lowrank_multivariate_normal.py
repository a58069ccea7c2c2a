"""``torch.distributions.lowrank_multivariate_normal``: N(loc, W·Wᵀ + diag(D)) for a tall W,
scored through the small "capacitance" matrix I + Wᵀ·D⁻¹·W (Woodbury's identity and the
matrix determinant lemma) as torch scores it; drawn as loc + W·ε_W + √D·ε_D (torch's
order of draws); with torch's KL divergences to and from a MultivariateNormal."""

from __future__ import annotations

import math

import numpy as np

from .. import _factories
from .._grad_mode import no_grad
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from . import Distribution, constraints, lazy_property
from .continuous import _check, _mahalanobis

__all__ = ["LowRankMultivariateNormal"]


def _capacitance_tril(factor: Tensor, diagonal: Tensor) -> Tensor:
    """The Cholesky factor of I + Wᵀ·D⁻¹·W (its identity added in place, as torch adds it)."""
    from .. import linalg

    rank = factor.size(-1)
    capacitance = (factor.mT / diagonal.unsqueeze(-2)).matmul(factor).contiguous()
    capacitance.view(-1, rank * rank)[:, ::rank + 1] += 1
    return linalg.cholesky(capacitance)


def _lowrank_logdet(factor: Tensor, diagonal: Tensor, capacitance_tril: Tensor) -> Tensor:
    """log|W·Wᵀ + D| = log|C| + log|D|."""
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + \
        diagonal.log().sum(-1)


def _lowrank_mahalanobis(factor: Tensor, diagonal: Tensor, x: Tensor,
                         capacitance_tril: Tensor) -> Tensor:
    """xᵀ·(W·Wᵀ + D)⁻¹·x = xᵀ·D⁻¹·x - |L_C⁻¹·Wᵀ·D⁻¹·x|²."""
    scaled = factor.mT / diagonal.unsqueeze(-2)
    projected = scaled.matmul(x.unsqueeze(-1)).squeeze(-1)
    return (x.pow(2) / diagonal).sum(-1) - _mahalanobis(capacitance_tril, projected)


def _trace_of_square(matrices: Tensor) -> Tensor:
    """trace(X·Xᵀ) of each matrix: the sum of its squares."""
    rows, columns = matrices.shape[-2:]
    return matrices.reshape(-1, rows * columns).pow(2).sum(-1).reshape(matrices.shape[:-2])


class LowRankMultivariateNormal(Distribution):
    """Mean ``loc``, covariance ``cov_factor @ cov_factor.T + diag(cov_diag)``."""

    support = constraints.real_vector
    _names = ("loc", "cov_factor", "cov_diag")
    has_rsample = True

    def __init__(self, loc: Tensor, cov_factor: Tensor, cov_diag: Tensor,
                 validate_args=None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional "
                             "leading batch dimensions")
        if cov_factor.shape[-2:-1] != event:
            raise ValueError(f"cov_factor must be a batch of matrices with shape {event[0]} x m")
        if cov_diag.shape[-1:] != event:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event}")
        try:
            loc_, self.cov_factor, diag_ = broadcast_tensors(loc.unsqueeze(-1), cov_factor,
                                                              cov_diag.unsqueeze(-1))
        except RuntimeError as error:
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor "
                             f"{cov_factor.shape}, cov_diag {cov_diag.shape}") from error
        self.loc, self.cov_diag = loc_[..., 0], diag_[..., 0]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event, validate_args=validate_args)
        if self._validate_args:
            _check(self, "cov_diag", self.cov_diag, self.cov_diag > 0,
                   "IndependentConstraint(GreaterThan(lower_bound=0.0), 1)")

    def expand(self, batch_shape, _instance=None):
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        for name in ("variance", "scale_tril", "covariance_matrix", "precision_matrix"):
            new.__dict__.pop(name, None)
        batch = Size(batch_shape)
        new.loc = self.loc.expand(*batch, *self._event_shape)
        new.cov_diag = self.cov_diag.expand(*batch, *self._event_shape)
        new.cov_factor = self.cov_factor.expand(*batch, *self._event_shape,
                                                self.cov_factor.shape[-1])
        new._batch_shape = batch
        return new

    @property
    def mean(self) -> Tensor:
        return self.loc

    mode = mean

    def _full(self, value: Tensor, matrices: bool = True) -> Tensor:
        """value expanded to the batch and event (twice for a matrix)."""
        event = self._event_shape * (2 if matrices else 1)
        return value.expand(*self._batch_shape, *event)

    @lazy_property
    def variance(self) -> Tensor:
        return self._full(self._unbroadcasted_cov_factor.pow(2).sum(-1) +
                          self._unbroadcasted_cov_diag, False)

    @lazy_property
    def scale_tril(self) -> Tensor:
        from .. import linalg

        size = self._event_shape[0]
        root = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        scaled = self._unbroadcasted_cov_factor / root
        inner = scaled.matmul(scaled.mT).contiguous()
        inner.view(-1, size * size)[:, ::size + 1] += 1
        return self._full(root * linalg.cholesky(inner))

    @lazy_property
    def covariance_matrix(self) -> Tensor:
        factor = self._unbroadcasted_cov_factor
        return self._full(factor.matmul(factor.mT) +
                          self._unbroadcasted_cov_diag.diag_embed())

    @lazy_property
    def precision_matrix(self) -> Tensor:
        from .. import linalg

        scaled = self._unbroadcasted_cov_factor.mT / self._unbroadcasted_cov_diag.unsqueeze(-2)
        solved = linalg.solve_triangular(self._capacitance_tril, scaled, upper=False)
        return self._full(self._unbroadcasted_cov_diag.reciprocal().diag_embed() -
                          solved.mT @ solved)

    def rsample(self, sample_shape=()) -> Tensor:
        shape = self._extended_shape(Size(sample_shape))
        factor_shape = (*shape[:-1], self.cov_factor.shape[-1])
        eps_factor = _factories.empty(*factor_shape, dtype=self.loc.dtype).normal_()
        eps_diagonal = _factories.empty(*shape, dtype=self.loc.dtype).normal_()
        return self.loc + self._unbroadcasted_cov_factor.matmul(
            eps_factor.unsqueeze(-1)).squeeze(-1) + \
            self._unbroadcasted_cov_diag.sqrt() * eps_diagonal

    def sample(self, sample_shape=()) -> Tensor:
        with no_grad():
            return self.rsample(sample_shape)

    def _logdet(self) -> Tensor:
        return _lowrank_logdet(self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag,
                               self._capacitance_tril)

    def log_prob(self, value) -> Tensor:
        self._validate_sample(value, "IndependentConstraint(Real(), 1)", lambda v: v == v)
        distance = _lowrank_mahalanobis(self._unbroadcasted_cov_factor,
                                        self._unbroadcasted_cov_diag, value - self.loc,
                                        self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + self._logdet() +
                       distance)

    def entropy(self) -> Tensor:
        entropy = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._logdet())
        return entropy if not self._batch_shape else entropy.expand(*self._batch_shape)


def _same_events(p, q, kinds: str) -> None:
    if p.event_shape != q.event_shape:
        raise ValueError(f"KL-divergence between two {kinds} with                          "
                         "different event shapes cannot be computed")


def _woodbury_solved(q) -> Tensor:
    """L_C⁻¹·Wᵀ·D⁻¹ of the low-rank q."""
    from .. import linalg

    scaled = q._unbroadcasted_cov_factor.mT / q._unbroadcasted_cov_diag.unsqueeze(-2)
    return linalg.solve_triangular(q._capacitance_tril, scaled, upper=False)


def _q_terms(p, q) -> tuple[Tensor, Tensor]:
    """A low-rank q's log-determinant and the Mahalanobis distance of the means' gap."""
    distance = _lowrank_mahalanobis(q._unbroadcasted_cov_factor, q._unbroadcasted_cov_diag,
                                    q.loc - p.loc, q._capacitance_tril)
    return q._logdet(), distance


def kl_lowrank_lowrank(p, q) -> Tensor:
    _same_events(p, q, "Low Rank Multivariate Normals")
    q_logdet, distance = _q_terms(p, q)
    solved = _woodbury_solved(q)
    p_factor, p_diagonal = p._unbroadcasted_cov_factor, p._unbroadcasted_cov_diag
    trace = (p_diagonal / q._unbroadcasted_cov_diag).sum(-1) + _trace_of_square(
        p_factor * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1)) - _trace_of_square(
        solved * p_diagonal.sqrt().unsqueeze(-2)) - _trace_of_square(solved.matmul(p_factor))
    return 0.5 * ((q_logdet - p._logdet()) + trace + distance - p.event_shape[0])


def kl_normal_lowrank(p, q) -> Tensor:
    _same_events(p, q, "(Low Rank) Multivariate Normals")
    q_logdet, distance = _q_terms(p, q)
    lower = p._unbroadcasted_scale_tril
    term1 = q_logdet - 2 * lower.diagonal(dim1=-2, dim2=-1).log().sum(-1)
    trace = _trace_of_square(lower * q._unbroadcasted_cov_diag.rsqrt().unsqueeze(-1)) - \
        _trace_of_square(_woodbury_solved(q).matmul(lower))
    return 0.5 * (term1 + trace + distance - p.event_shape[0])


def kl_lowrank_normal(p, q) -> Tensor:
    from .. import linalg

    _same_events(p, q, "(Low Rank) Multivariate Normals")
    lower = q._unbroadcasted_scale_tril
    term1 = 2 * lower.diagonal(dim1=-2, dim2=-1).log().sum(-1) - p._logdet()
    distance = _mahalanobis(lower, q.loc - p.loc)
    batch = tuple(np.broadcast_shapes(tuple(lower.shape[:-2]),
                                      tuple(p._unbroadcasted_cov_factor.shape[:-2])))
    n = p.event_shape[0]
    q_lower = lower.expand(*batch, n, n)
    factor = p._unbroadcasted_cov_factor.expand(*batch, n, p.cov_factor.size(-1))
    root = p._unbroadcasted_cov_diag.sqrt().diag_embed().expand(*batch, n, n)
    trace = _trace_of_square(linalg.solve_triangular(q_lower, factor, upper=False)) + \
        _trace_of_square(linalg.solve_triangular(q_lower, root, upper=False))
    return 0.5 * (term1 + trace + distance - p.event_shape[0])


KL_PAIRS = {("LowRankMultivariateNormal", "LowRankMultivariateNormal"): kl_lowrank_lowrank,
            ("MultivariateNormal", "LowRankMultivariateNormal"): kl_normal_lowrank,
            ("LowRankMultivariateNormal", "MultivariateNormal"): kl_lowrank_normal}
