"""``torch.distributions.geometric``: Geometric, the failures before the first success."""

from __future__ import annotations

from .. import _factories
from .._grad_mode import no_grad
from .._shapes import Size, broadcast_tensors
from .._tensor import Tensor
from .._type_info import finfo
from ..nn.functional import binary_cross_entropy_with_logits
from . import _Binary, constraints
from .continuous import _batch, _check, _check_support

__all__ = ["Geometric"]


class Geometric(_Binary):
    """By ``probs`` (of success at each trial, in (0, 1]) or by ``logits``."""

    support = constraints.nonnegative_integer

    has_enumerate_support = False

    def __init__(self, probs=None, logits=None, validate_args=None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        name = "probs" if probs is not None else "logits"
        (given,), batch = _batch(probs if probs is not None else logits)
        self.__dict__[name] = given
        super().__init__(batch)
        if validate_args is not False and probs is not None:
            _check(self, "probs", given, (given >= 0) & (given <= 1),
                   "Interval(lower_bound=0.0, upper_bound=1.0)")
            if not bool((given > 0).all()):  # torch's extra check beyond the unit interval
                raise ValueError(f"Expected parameter probs (Tensor of shape "
                                 f"{tuple(given.shape)}) of distribution {self!r} to be "
                                 f"positive but found invalid values:\n{given[~(given > 0)]}")


    @property
    def mean(self) -> Tensor:
        return 1.0 / self.probs - 1.0

    @property
    def mode(self) -> Tensor:
        return _factories.zeros_like(self.probs)

    @property
    def variance(self) -> Tensor:
        return (1.0 / self.probs - 1.0) / self.probs

    def sample(self, sample_shape=()) -> Tensor:
        """⌊log u / log(1 - p)⌋ for u uniform on [tiny, 1) (torch's, not geometric_)."""
        shape = self._extended_shape(Size(sample_shape))
        tiny = finfo(self.probs.dtype).tiny
        with no_grad():
            u = _factories.empty(*shape, dtype=self.probs.dtype).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value) -> Tensor:
        if self._validate_args:
            _check_support(self, value, (value % 1 == 0) & (value >= 0),
                           "IntegerGreaterThan(lower_bound=0)")
        value, probs = broadcast_tensors(value, self.probs)
        probs = probs.clone()
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self) -> Tensor:
        return binary_cross_entropy_with_logits(self.logits, self.probs,
                                                reduction="none") / self.probs
