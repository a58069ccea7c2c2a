"""torch's gamma-family ops on tensors: _standard_gamma (StandardGammaBackward0, whose
gradient is the draw's reparameterised one), _standard_gamma_grad, poisson (PoissonBackward0,
no gradient), binomial, _sample_dirichlet and _dirichlet_grad (nodes without a derivative, as
torch's)."""

from __future__ import annotations

import numpy as np

from . import _gamma_draws, _random
from ._bindings import binds
from ._dirichlet_grad import dirichlet_grads
from ._dtype import scalar_type_name
from ._factories import _floating_target
from ._formula_kit import Kit
from ._recording import RESULT, output
from ._reductions import sum as summed
from ._tensor import Tensor


def _floating(self: Tensor, kernel: str) -> np.ndarray:
    _floating_target(self._data.dtype, kernel)
    return self._data


@binds("_standard_gamma", method=False)
def standard_gamma(self: Tensor, generator=None) -> Tensor:
    """A Gamma(self, 1) draw for each element."""
    data = _gamma_draws.standard_gammas(_floating(self, "gamma_cpu"), _random.chosen(generator))
    return output("standard_gamma", data, (self,), (self, RESULT))


@binds("_standard_gamma_grad", method=False)
def standard_gamma_grad(self: Tensor, output_: Tensor) -> Tensor:
    """How each draw ``output`` of Gamma(self, 1) moves with its concentration."""
    data = _gamma_draws.standard_gamma_grads(self._data, output_._data)
    return output("standard_gamma_grad", data, (self, output_))


@binds("poisson", method=False)
def poisson(self: Tensor, generator=None) -> Tensor:
    """A Poisson count for each rate, in the rates' dtype."""
    data = _gamma_draws.poissons(_floating(self, "poisson_cpu"), _random.chosen(generator))
    return output("poisson", data, (self,))


@binds("binomial", method=False)
def binomial(count: Tensor, prob: Tensor, generator=None) -> Tensor:
    """A binomial count for each (trials, probability) pair, in the counts' dtype; torch's
    node for it has no derivative (NotImplemented)."""
    if count._data.dtype.kind != "f":
        raise ValueError("binomial only supports floating-point dtypes for count, got: "
                         f"{scalar_type_name(count._data.dtype)}")
    if prob._data.dtype != count._data.dtype:
        raise RuntimeError(f"Found dtype {scalar_type_name(prob._data.dtype)} but expected "
                           f"{scalar_type_name(count._data.dtype)}")
    data = _gamma_draws.binomials(count._data, prob._data, _random.chosen(generator))
    return output("binomial", data, (count, prob))


@binds("_sample_dirichlet", method=False)
def sample_dirichlet(self: Tensor, generator=None) -> Tensor:
    """A Dirichlet draw along the last dimension: float64 gammas over their sum."""
    alphas = _floating(self, "dirichlet")
    gammas = _gamma_draws.dirichlet_gammas(alphas, _random.chosen(generator))
    sums = summed(Tensor._make(gammas), -1, True)._data  # torch's own summation order
    data = _gamma_draws.dirichlet_from_gammas(gammas, sums, alphas.dtype)
    return output("sample_dirichlet", data, (self,))


@binds("_dirichlet_grad", method=False)
def dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """How a Dirichlet draw's component x moves with its concentration alpha."""
    if not x.shape == alpha.shape == total.shape:
        raise RuntimeError("_dirichlet_grad: expected x, alpha and total to have the same "
                           f"shape, but got {tuple(x.shape)}, {tuple(alpha.shape)} and "
                           f"{tuple(total.shape)}")
    data = dirichlet_grads(x._data, alpha._data, total._data)
    return output("dirichlet_grad", data, (x, alpha, total))


def _gamma_grad_on_kit(k, grad, alpha, draw):
    """The draw's gradient as a constant (torch gives it no derivative of its own)."""
    arrays = [value._data if isinstance(value, Tensor) else np.asarray(value)
              for value in (alpha, draw)]
    return k._like(grad, _gamma_draws.standard_gamma_grads(*arrays))


Kit.standard_gamma_grad = _gamma_grad_on_kit

