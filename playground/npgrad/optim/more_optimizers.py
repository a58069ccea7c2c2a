"""NAdam, RAdam, Adamax, Rprop and ASGD, stepped as torch's single-tensor loops step them: the
same kernels in the same order (lerp_, mul_ then addcmul_, addcdiv_), NAdam's momentum product
and ASGD's eta and mu float32 scalars as torch keeps them, so the parameters follow torch's bit
for bit."""

from __future__ import annotations

import numpy as np

from .._arithmetic import maximum
from .._factories import full_like
from .._tensor import Tensor
from . import Optimizer, _first_step, _flags, _settings, _step_count, _zeros_like


def _check(lr: float, eps: float, betas: tuple, weight_decay: float) -> None:
    if not lr >= 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if not eps >= 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for index, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {beta}")
    if not weight_decay >= 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


def _begin(param: Tensor, grad: Tensor, group: dict, state: dict, *moments: str):
    """The step's gradient (negated to maximize) and its number; at the first step the state
    is made: the step count, then zeros for each moment named."""
    if not state:
        state["step"] = _first_step()
        for name in moments:
            state[name] = _zeros_like(param)
    return (-grad if group["maximize"] else grad), _step_count(state)


def _decayed(param: Tensor, grad: Tensor, group: dict, decoupled: bool) -> Tensor:
    """The gradient with weight decay added (L2), or the parameter shrunk (decoupled)."""
    decay = group["weight_decay"]
    if decay and decoupled:
        param.mul_(1 - group["lr"] * decay)
    elif decay:
        grad = grad.add(param, alpha=decay)
    return grad


class NAdam(Optimizer):
    """Adam with Nesterov momentum (Dozat), its momentum warmed up by ``momentum_decay``."""

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, maximize: bool = False, **flags):
        _check(lr, eps, betas, weight_decay)
        if not momentum_decay >= 0.0:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(params, _settings(
            "lr betas eps weight_decay momentum_decay decoupled_weight_decay maximize foreach "
            "capturable differentiable", locals(), _flags(**flags)))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        first = not state
        grad, step = _begin(param, grad, group, state)
        if first:  # (torch's order: step, mu_product, exp_avg, exp_avg_sq)
            state["mu_product"] = Tensor._make(_first_step()._data + 1)
            state["exp_avg"], state["exp_avg_sq"] = _zeros_like(param), _zeros_like(param)
        beta1, beta2 = group["betas"]
        lr, decay = group["lr"], group["momentum_decay"]
        grad = _decayed(param, grad, group, group["decoupled_weight_decay"])
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * decay)))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * decay)))
        product = state["mu_product"]
        product.mul_(mu)
        average, squares = state["exp_avg"], state["exp_avg_sq"]
        average.lerp_(grad, 1 - beta1)
        squares.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denominator = squares.div(1 - beta2 ** step).sqrt()
        product_next = product.item() * mu_next
        denominator.add_(group["eps"])
        param.addcdiv_(grad, denominator, value=-lr * (1.0 - mu) / (1.0 - product.item()))
        param.addcdiv_(average, denominator, value=(-lr * mu_next) / (1.0 - product_next))


class RAdam(Optimizer):
    """Adam with its adaptive step rectified (Liu et al.): plain momentum while the second
    moment's variance is not yet tractable (rho_t <= 5)."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 maximize: bool = False, **flags):
        _check(lr, eps, betas, weight_decay)
        super().__init__(params, _settings(
            "lr betas eps weight_decay maximize foreach capturable decoupled_weight_decay "
            "differentiable", locals(), _flags(**flags)))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        grad, step = _begin(param, grad, group, state, "exp_avg", "exp_avg_sq")
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        grad = _decayed(param, grad, group, group["decoupled_weight_decay"])
        average, squares = state["exp_avg"], state["exp_avg_sq"]
        average.lerp_(grad, 1 - beta1)
        squares.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        correction1, correction2 = 1 - beta1 ** step, 1 - beta2 ** step
        corrected = average / correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf /
                    ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive = (correction2 ** 0.5) / squares.sqrt().add_(group["eps"])
            param.add_(corrected * lr * adaptive * rect, alpha=-1.0)
        else:
            param.add_(corrected * lr, alpha=-1.0)


class Adamax(Optimizer):
    """Adam with the infinity norm: the second moment is a decaying running maximum."""

    def __init__(self, params, lr: float = 2e-3, betas: tuple = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach=None, *, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False):
        _check(lr, eps, betas, weight_decay)
        super().__init__(params, _settings(
            "lr betas eps weight_decay foreach maximize differentiable capturable", locals(),
            {}))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        grad, step = _begin(param, grad, group, state, "exp_avg", "exp_inf")
        beta1, beta2 = group["betas"]
        if group["weight_decay"]:
            grad = grad.add(param, alpha=group["weight_decay"])
        average, largest = state["exp_avg"], state["exp_inf"]
        average.lerp_(grad, 1 - beta1)
        largest.copy_(maximum(largest.mul_(beta2), grad.abs().add_(group["eps"])))
        param.addcdiv_(average, largest, value=-(group["lr"] / (1 - beta1 ** step)))


class Rprop(Optimizer):
    """Resilient backpropagation: each element's own step size grows by ``etas[1]`` while its
    gradient keeps its sign and shrinks by ``etas[0]`` when it flips (that step then skipped);
    only the gradient's sign moves the parameter."""

    def __init__(self, params, lr: float = 1e-2, etas: tuple = (0.5, 1.2),
                 step_sizes: tuple = (1e-6, 50), *, capturable: bool = False, foreach=None,
                 maximize: bool = False, differentiable: bool = False):
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, _settings(
            "lr etas step_sizes foreach maximize differentiable capturable", locals(), {}))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        first = not state
        grad, _step = _begin(param, grad, group, state, "prev")
        if first:
            state["step_size"] = full_like(grad, group["lr"])
        shrink, grow = group["etas"]
        prev, step_size = state["prev"], state["step_size"]
        sign = grad.mul(prev).sign()
        sign[sign.gt(0)] = grow
        sign[sign.lt(0)] = shrink
        sign[sign.eq(0)] = 1
        step_size.mul_(sign).clamp_(*group["step_sizes"])
        grad = grad.clone()
        grad[sign.eq(shrink)] = 0  # a flipped sign: no step now, and none remembered
        param.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)


class ASGD(Optimizer):
    """Averaged SGD (Polyak-Juditsky): SGD whose step decays as ``lr / (1 + lambd lr t)^alpha``,
    with a running average of the parameters (``ax``) from step ``t0`` on."""

    def __init__(self, params, lr: float = 1e-2, lambd: float = 1e-4, alpha: float = 0.75,
                 t0: float = 1e6, weight_decay: float = 0, foreach=None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False):
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, _settings(
            "lr lambd alpha t0 weight_decay foreach maximize differentiable capturable",
            locals(), {}))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        if not state:  # (torch's order: step, eta, mu, ax)
            state["step"] = _first_step()
            state["eta"] = Tensor._make(np.array(group["lr"], np.float32))
            state["mu"] = Tensor._make(np.ones((), np.float32))
            state["ax"] = _zeros_like(param)
        grad = -grad if group["maximize"] else grad
        step = _step_count(state)
        lr, lambd = group["lr"], group["lambd"]
        if group["weight_decay"]:
            grad = grad.add(param, alpha=group["weight_decay"])
        eta, mu, average = state["eta"], state["mu"], state["ax"]
        eta_value = eta.item()
        param.mul_(1 - lambd * eta_value)
        param.add_(grad, alpha=-eta_value)
        if mu.item() != 1:
            average.add_(param.sub(average).mul_(mu))
        else:
            average.copy_(param)
        eta.copy_(Tensor._make(np.array(lr / ((1 + lambd * lr * step) ** group["alpha"]),
                                        np.float32)))
        mu.copy_(Tensor._make(np.array(1 / max(1, step - group["t0"]), np.float32)))
