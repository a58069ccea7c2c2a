"""Gradient clipping as torch.nn.utils does it, step for step: each gradient's norm, the norm
of those norms, then every gradient times min(max_norm / (total + 1e-6), 1)."""

from __future__ import annotations

import types
import warnings
from collections.abc import Iterable

from ... import _factories, _shapes
from ..._grad_mode import no_grad
from ..._tensor import Tensor


def _listed(tensors) -> list[Tensor]:
    return [tensors] if isinstance(tensors, Tensor) else list(tensors)


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach: bool | None = None) -> Tensor:
    """The norm of the tensors' norms, as if they were one vector."""
    tensors = _listed(tensors)
    norm_type = float(norm_type)
    if not tensors:
        return _factories.tensor(0.0)
    with no_grad():
        norms = [tensor.norm(norm_type) for tensor in tensors]
        total = _shapes.stack(norms).norm(norm_type)
    if error_if_nonfinite and not bool(total.isfinite()):
        raise RuntimeError(
            f"The total norm of order {norm_type} for gradients from `parameters` is "
            "non-finite, so it cannot be clipped. To disable this error and scale the gradients "
            "by the non-finite norm anyway, set `error_if_nonfinite=False`")
    return total


def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor,
                          foreach: bool | None = None) -> None:
    """Every gradient times min(max_norm / (total_norm + 1e-6), 1), in place."""
    grads = [p.grad for p in _listed(parameters) if p.grad is not None]
    if not grads:
        return
    with no_grad():
        coefficient = (float(max_norm) / (total_norm + 1e-6)).clamp(max=1.0)
        for grad in grads:
            grad.mul_(coefficient)


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Scale the gradients so that their total norm is at most ``max_norm``; the norm
    before."""
    generator = isinstance(parameters, types.GeneratorType)
    parameters = _listed(parameters)
    if generator and not parameters:
        warnings.warn("`parameters` is an empty generator, no gradient clipping will occur.",
                      stacklevel=2)
    grads = [p.grad for p in parameters if p.grad is not None]
    total = get_total_norm(grads, norm_type, error_if_nonfinite, foreach)
    clip_grads_with_norm_(parameters, max_norm, total, foreach)
    return total


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0,
                   error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """The old name of ``clip_grad_norm_``, which torch still answers with a FutureWarning."""
    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                  "`torch.nn.utils.clip_grad_norm_`.", FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters: Iterable[Tensor] | Tensor, clip_value: float,
                     foreach: bool | None = None) -> None:
    """Every gradient clamped to [-clip_value, clip_value], in place."""
    clip_value = float(clip_value)
    with no_grad():
        for parameter in _listed(parameters):
            if parameter.grad is not None:
                parameter.grad.clamp_(min=-clip_value, max=clip_value)
