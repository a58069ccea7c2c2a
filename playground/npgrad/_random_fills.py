"""The rarer random fills in place: cauchy_, log_normal_ and geometric_, torch's draws."""

from __future__ import annotations

import numpy as np

from . import _random
from ._factories import _fill, _floating_target
from ._inplace import bind_variant
from ._meta import shape_only
from ._tensor import Tensor

_CPP_NAMES = {np.dtype(np.int64): "long int", np.dtype(np.int32): "int",
              np.dtype(np.int16): "short int", np.dtype(np.int8): "signed char",
              np.dtype(np.uint8): "unsigned char", np.dtype(np.bool_): "bool",
              np.dtype(np.complex64): "c10::complex<float>",
              np.dtype(np.complex128): "c10::complex<double>"}

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


for _method in (cauchy_, log_normal_, geometric_):
    bind_variant(_method.__name__, _method)
