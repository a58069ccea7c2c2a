"""``torch.optim``: SGD, Adam, AdamW, RMSprop, Adagrad, stepping parameters in place as
torch's single-tensor optimizers do (``lr_scheduler`` beside them)."""

from __future__ import annotations

import numpy as np

from .._grad_mode import no_grad
from .._inplace import _write_inplace  # a step's values into the parameter's own memory
from .._missing import missing_attribute
from .._numerics import addcdiv_values, addcmul_values, lerp_values, plus_scaled
from .._pointwise import clone
from .._tensor import Tensor


def clear_grads(params, set_to_none: bool = True) -> None:
    """What zero_grad does for optimizers and modules: drop each .grad, or zero it in place."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            param.grad = param.grad.detach()
            param.grad.zero_()


# What torch's optimizers list in their groups (and so print) beside the settings that act.
_FLAGS = {"differentiable": False, "foreach": None}


class Optimizer:
    """Parameter groups (a list of tensors, or of dicts with their own settings) and state."""

    def __init__(self, params, defaults: dict) -> None:
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            "Tensors or dicts, but got torch.FloatTensor")
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        self.defaults = defaults
        self.param_groups = [{**defaults, **group, "params": list(group["params"])}
                             for group in groups]
        self.state: dict = {}

    def zero_grad(self, set_to_none: bool = True) -> None:
        clear_grads((param for group in self.param_groups for param in group["params"]),
                    set_to_none)

    def step(self, closure=None):
        loss = None
        if closure is not None:
            from .._grad_mode import enable_grad

            with enable_grad():
                loss = closure()
        with no_grad():
            for group in self.param_groups:
                for param in group["params"]:
                    if param.grad is not None:
                        self._update(param, param.grad, group,
                                     self.state.setdefault(id(param), {}))
        return loss

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        raise NotImplementedError

    @staticmethod
    def _descent_direction(param: Tensor, grad: Tensor, group: dict) -> Tensor:
        """The gradient to step against: negated to maximize, plus weight decay (L2)."""
        grad = -grad if group["maximize"] else grad
        if group["weight_decay"]:
            grad = grad.add(param, alpha=group["weight_decay"])
        return grad

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for number, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {number}")
            lines.extend(f"    {key}: {group[key]}" for key in sorted(group) if key != "params")
        return "\n".join(lines) + "\n)"


class SGD(Optimizer):
    """p -= lr * (grad + weight_decay * p), with optional (Nesterov) momentum."""

    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov,
                                  "maximize": maximize, **_FLAGS, "fused": None})

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        grad = self._descent_direction(param, grad, group)
        momentum = group["momentum"]
        if momentum:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = clone(grad).detach()
            else:
                buffer.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buffer, alpha=momentum) if group["nesterov"] else buffer
        param.add_(grad, alpha=-group["lr"])


class Adam(Optimizer):
    """Adaptive moments with bias correction (Kingma and Ba), torch's defaults."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
                 maximize: bool = False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if amsgrad:
            raise NotImplementedError("Adam(amsgrad=True) is not in the built-in NumPy engine; "
                                      "switch the engine to torch")
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps,
                                  "weight_decay": weight_decay, "amsgrad": amsgrad,
                                  "maximize": maximize, **_FLAGS, "fused": None,
                                  "capturable": False,
                                  "decoupled_weight_decay": type(self) is AdamW})

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        """torch's _single_tensor_adam, each kernel rounded as torch's (lerp_, addcmul_,
        addcdiv_ are fused where torch's are)."""
        gradient = self._descent_direction(param, grad, group)._data
        if not state:
            state["step"] = 0
            state["exp_avg"] = _zeros_like(param)
            state["exp_avg_sq"] = _zeros_like(param)
        beta1, beta2 = group["betas"]
        state["step"] += 1
        step = state["step"]
        average, squares = state["exp_avg"]._data, state["exp_avg_sq"]._data
        average[...] = lerp_values(average, gradient, 1 - beta1)
        squares[...] = addcmul_values(squares * squares.dtype.type(beta2), gradient, gradient,
                                      1 - beta2)
        step_size = group["lr"] / (1 - beta1 ** step)
        # torch's ``bias_correction2 ** 0.5`` (math.sqrt can differ from it in the last bit)
        denominator = np.sqrt(squares) / (1 - beta2 ** step) ** 0.5 + \
            squares.dtype.type(group["eps"])
        _write_inplace(param, addcdiv_values(param._data, average, denominator, -step_size))


class AdamW(Adam):
    """Adam with decoupled weight decay: the parameter shrinks by lr * weight_decay first."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        _write_inplace(param, param._data * param._data.dtype.type(1 - group["lr"] *
                                                           group["weight_decay"]))
        super()._update(param, grad, {**group, "weight_decay": 0}, state)


class RMSprop(Optimizer):
    """Divide by a running root mean square of the gradients (Hinton), torch's defaults."""

    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, *,
                 maximize: bool = False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, {"lr": lr, "alpha": alpha, "eps": eps,
                                  "weight_decay": weight_decay, "momentum": momentum,
                                  "centered": centered, "maximize": maximize, **_FLAGS,
                                  "capturable": False})

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        grad = self._descent_direction(param, grad, group)._data
        if not state:
            state["step"] = 0
            state["square_avg"] = _zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = _zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = _zeros_like(param)
        state["step"] += 1
        alpha = group["alpha"]
        kind = grad.dtype.type
        squares = state["square_avg"]._data
        squares[...] = addcmul_values(squares * kind(alpha), grad, grad, 1 - alpha)
        if group["centered"]:
            average = state["grad_avg"]._data
            average[...] = lerp_values(average, grad, 1 - alpha)
            spread = np.sqrt(addcmul_values(squares, average, average, -1))
        else:
            spread = np.sqrt(squares)
        spread = spread + kind(group["eps"])
        if group["momentum"] > 0:
            buffer = state["momentum_buffer"]._data
            buffer[...] = addcdiv_values(buffer * kind(group["momentum"]), grad, spread, 1)
            _write_inplace(param, plus_scaled(param._data, buffer, -group["lr"]))
        else:
            _write_inplace(param, addcdiv_values(param._data, grad, spread, -group["lr"]))


class Adagrad(Optimizer):
    """Divide by the root of all squared gradients so far (Duchi et al.), torch's defaults."""

    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, *,
                 maximize: bool = False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, {"lr": lr, "lr_decay": lr_decay, "eps": eps,
                                  "weight_decay": weight_decay,
                                  "initial_accumulator_value": initial_accumulator_value,
                                  "maximize": maximize, **_FLAGS, "fused": None})

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        grad = self._descent_direction(param, grad, group)._data
        if not state:
            state["step"] = 0
            state["sum"] = Tensor._make(np.full_like(param._data,
                                                     group["initial_accumulator_value"]))
        state["step"] += 1
        rate = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
        total = state["sum"]._data
        total[...] = addcmul_values(total, grad, grad, 1)
        deviation = np.sqrt(total) + total.dtype.type(group["eps"])
        _write_inplace(param, addcdiv_values(param._data, grad, deviation, -rate))


def _zeros_like(param: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(param._data))


from . import lr_scheduler  # noqa: E402 - torch.optim.lr_scheduler after import torch

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.optim")
