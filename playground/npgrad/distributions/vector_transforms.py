"""``torch.distributions.transforms``' maps of whole vectors: SoftmaxTransform and
StickBreakingTransform onto the simplex (the second one bijective, with one more
coordinate), and IndependentTransform, which reads a transform's rightmost batch dimensions
as one event; computed as torch's."""

from __future__ import annotations

from .._type_info import finfo
from ..nn.functional import logsigmoid
from ..nn.resampling import pad
from . import constraints
from .transforms import Transform, sum_rightmost

__all__ = ["IndependentTransform", "SoftmaxTransform", "StickBreakingTransform"]


def _needs_a_dimension(shape):
    if len(shape) < 1:
        raise ValueError("Too few dimensions on input")
    return shape


class SoftmaxTransform(Transform):
    """exp(x) normalised over the last dimension (not bijective: log is one inverse)."""

    domain, codomain = constraints.real_vector, constraints.simplex

    def __eq__(self, other) -> bool:
        return isinstance(other, SoftmaxTransform)

    __hash__ = object.__hash__

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        return _needs_a_dimension(shape)

    inverse_shape = forward_shape


def _offsets(x, length: int):
    """K, K-1, ..., 1 for a stick of K + 1 pieces: each logit's shift."""
    return length - x.new_ones(x.shape[-1]).cumsum(-1)


class StickBreakingTransform(Transform):
    """K logits to K + 1 shares: each sigmoid breaks off a share of the stick left."""

    domain, codomain, bijective = constraints.real_vector, constraints.simplex, True

    def __eq__(self, other) -> bool:
        return isinstance(other, StickBreakingTransform)

    __hash__ = object.__hash__

    def _call(self, x):
        limits = finfo(x.dtype)
        z = (x - _offsets(x, x.shape[-1] + 1).log()).sigmoid().clamp(
            min=limits.tiny, max=1.0 - limits.eps)
        left = (1 - z).cumprod(-1)
        return pad(z, [0, 1], value=1) * pad(left, [1, 0], value=1)

    def _inverse(self, y):
        cropped = y[..., :-1]
        left = (1 - cropped.cumsum(-1)).clamp(min=finfo(y.dtype).tiny)
        return cropped.log() - left.log() + _offsets(cropped, y.shape[-1]).log()

    def log_abs_det_jacobian(self, x, y):
        x = x - _offsets(x, x.shape[-1] + 1).log()
        return (-x + logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        shape = _needs_a_dimension(shape)
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        shape = _needs_a_dimension(shape)
        return shape[:-1] + (shape[-1] - 1,)


class IndependentTransform(Transform):
    """``base_transform`` with its ``reinterpreted_batch_ndims`` rightmost batch dimensions
    read as part of one event (their log-determinants summed)."""

    def __init__(self, base_transform: Transform, reinterpreted_batch_ndims: int,
                 cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(self.base_transform, self.reinterpreted_batch_ndims,
                                    cache_size=cache_size)

    @property
    def domain(self):
        return constraints.independent(self.base_transform.domain,
                                       self.reinterpreted_batch_ndims)

    @property
    def codomain(self):
        return constraints.independent(self.base_transform.codomain,
                                       self.reinterpreted_batch_ndims)

    bijective = property(lambda self: self.base_transform.bijective)
    sign = property(lambda self: self.base_transform.sign)

    def _call(self, x):
        if x.dim() < self.domain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform(x)

    def _inverse(self, y):
        if y.dim() < self.codomain.event_dim:
            raise ValueError("Too few dimensions on input")
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y),
                             self.reinterpreted_batch_ndims)

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_transform!r}, " \
               f"{self.reinterpreted_batch_ndims})"
