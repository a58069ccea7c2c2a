"""Adafactor (Shazeer and Stern), stepped as torch's single-tensor loop steps it: a matrix's
second moment kept as a row and a column of means, the update's RMS clipped to ``d``, the
step scaled by the parameter's RMS."""

from __future__ import annotations

from .._reductions import norm
from .._type_info import finfo
from . import Optimizer, _first_step, _settings, _step_count, _zeros_like


def _check(lr: float, beta2_decay: float, eps: tuple, d: float, weight_decay: float) -> None:
    if not lr >= 0.0:
        raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
    if not beta2_decay <= 0.0:
        raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
    if eps[0] is not None and not eps[0] >= 0.0:
        raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
    if not eps[1] >= 0.0:
        raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
    if not d >= 1.0:
        raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
    if not weight_decay >= 0.0:
        raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")


class Adafactor(Optimizer):
    """Adam's second moment, factored: memory per matrix is rows + columns, not rows x columns;
    no first moment; the step is relative to the parameter's own size."""

    def __init__(self, params, lr: float = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple = (None, 1e-3), d: float = 1.0, weight_decay: float = 0.0, *,
                 foreach=None, maximize: bool = False):
        _check(lr, beta2_decay, eps, d, weight_decay)
        super().__init__(params, _settings(
            "lr beta2_decay eps d weight_decay foreach maximize", locals(), {}))

    def _update_parts(self, param, group: dict, state: dict) -> None:
        raise RuntimeError("Adafactor does not support complex parameters")

    def _update(self, param, grad, group: dict, state: dict) -> None:
        if not state:  # (torch's order: step, then row_var and col_var, or variance)
            state["step"] = _first_step()
            _start_moments(grad, state)
        grad = -grad if group["maximize"] else grad
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = finfo(param.dtype).eps
        step = _step_count(state)
        lr, decay = group["lr"], group["weight_decay"]
        one_minus_beta2 = step ** group["beta2_decay"]
        rho = min(lr, 1 / (step ** 0.5))
        alpha = max(eps2, norm(param, 2).item() / (param.numel() ** 0.5)) * rho
        if decay != 0:
            param.mul_(1 - lr * decay)
        estimate = _variance_estimate(grad, state, one_minus_beta2, eps1)
        update = estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denominator = max(1.0, norm(update, 2).item() / ((update.numel() ** 0.5) * group["d"]))
        param.add_(update, alpha=-alpha / denominator)


def _start_moments(grad, state: dict) -> None:
    """Zeros for a matrix's row and column means (the last two dimensions), or for a
    vector's whole second moment."""
    if grad.dim() > 1:
        rows, columns = list(grad.shape), list(grad.shape)
        rows[-1] = 1
        columns[-2] = 1
        state["row_var"] = grad.new_zeros(rows)
        state["col_var"] = grad.new_zeros(columns)
    else:
        state["variance"] = _zeros_like(grad)


def _variance_estimate(grad, state: dict, weight: float, eps1: float):
    """The second moment's estimate: the outer product of the row and column means over the
    rows' mean (a matrix), or the running mean of squares itself (a vector)."""
    if grad.dim() > 1:
        row_mean = norm(grad, 2, dim=-1, keepdim=True).square_().div_(grad.size(-1))
        state["row_var"].lerp_(row_mean, weight)
        col_mean = norm(grad, 2, dim=-2, keepdim=True).square_().div_(grad.size(-2))
        state["col_var"].lerp_(col_mean, weight)
        estimate = state["row_var"] @ state["col_var"]
        return estimate.div_(state["row_var"].mean(dim=-2, keepdim=True).clamp_(min=eps1))
    state["variance"].lerp_(grad * grad, weight)
    return state["variance"].clone()
