"""The rarer random fills in place: random_, exponential_, cauchy_, log_normal_ and
geometric_, torch's draws."""

from __future__ import annotations

import numpy as np

from . import _random
from ._factories import _fill, _floating_target
from ._inplace import bind_variant
from ._meta import shape_only
from ._random import Generator
from ._tensor import Tensor

_CPP_NAMES = {np.dtype(np.int64): "long int", np.dtype(np.int32): "int",
              np.dtype(np.int16): "short int", np.dtype(np.int8): "signed char",
              np.dtype(np.uint8): "unsigned char", np.dtype(np.bool_): "bool",
              np.dtype(np.complex64): "c10::complex<float>",
              np.dtype(np.complex128): "c10::complex<double>"}

@shape_only
def random_(self: Tensor, from_=0, to=None, *, generator: Generator | None = None) -> Tensor:
    """Whole numbers in [from, to), in place; ``random_(to)`` is [0, to); ``random_()`` any
    that the dtype holds exactly (up to 2**24 for float32, 2**53 float64, 2**63-1 int64)."""
    if to is None and from_ != 0:
        from_, to = 0, from_
    count, kind = self._data.size, self._data.dtype
    if to is None:
        draws = _random.whole_numbers(_random.chosen(generator), count, kind)
    else:
        draws = _random.integers(_random.chosen(generator), count, kind, int(from_), int(to))
    return _fill("random_", self, draws)


@shape_only
def exponential_(self: Tensor, lambd=1.0, *, generator: Generator | None = None) -> Tensor:
    """Numbers from the exponential distribution of rate ``lambd``, in place."""
    draws = _random.exponentials(_random.chosen(generator), self._data.size, float(lambd))
    return _fill("exponential_", self, draws)


# torch checks the distribution's argument first, then the tensor's dtype, then draws


@shape_only
def cauchy_(self: Tensor, median=0.0, sigma=1.0, *, generator=None) -> Tensor:
    """Numbers from the Cauchy distribution (location ``median``, scale ``sigma``), in place."""
    _random.check_positive("cauchy_", "sigma", float(sigma))
    kind = self._data.dtype
    if kind.kind != "f":
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {_CPP_NAMES[kind]}")
    draws = _random.cauchys(_random.chosen(generator), self._data.size, float(median),
                            float(sigma))
    return _fill("cauchy_", self, draws)


@shape_only
def log_normal_(self: Tensor, mean=1.0, std=2.0, *, generator=None) -> Tensor:
    """Numbers whose logarithm is normal with ``mean`` and ``std``, in place."""
    _random.check_positive("log_normal_", "std", float(std))
    _floating_target(self._data.dtype, "log_normal_cpu")
    draws = _random.log_normals(_random.chosen(generator), self._data.size, float(mean),
                                float(std))
    return _fill("log_normal_", self, draws)


@shape_only
def geometric_(self: Tensor, p, *, generator=None) -> Tensor:
    """The number of Bernoulli(``p``) trials up to the first success, in place (integers too)."""
    _random.check_probability("geometric_", float(p))
    if self._data.dtype.kind not in "fiu":  # (integers too: counts)
        _floating_target(self._data.dtype, "geometric_cpu")
    draws = _random.geometrics(_random.chosen(generator), self._data.size, float(p))
    return _fill("geometric_", self, draws)


for _method in (random_, exponential_, cauchy_, log_normal_, geometric_):
    bind_variant(_method.__name__, _method)
