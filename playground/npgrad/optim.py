"""``torch.optim``: SGD and Adam, stepping parameters in place as torch's optimizers do."""

from __future__ import annotations

import math

import numpy as np

from ._grad_mode import no_grad
from ._missing import missing_attribute
from ._pointwise import clone
from ._tensor import Tensor


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
            from ._grad_mode import enable_grad

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
                                  "maximize": maximize})

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
                                  "maximize": maximize})

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        grad = self._descent_direction(param, grad, group)
        if not state:
            state["step"] = 0
            state["exp_avg"] = Tensor._make(np.zeros_like(param._data))
            state["exp_avg_sq"] = Tensor._make(np.zeros_like(param._data))
        beta1, beta2 = group["betas"]
        state["step"] += 1
        step = state["step"]
        average, squares = state["exp_avg"], state["exp_avg_sq"]
        average.mul_(beta1).add_(grad, alpha=1 - beta1)
        squares.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
        step_size = group["lr"] / (1 - beta1 ** step)
        denominator = squares.sqrt() / math.sqrt(1 - beta2 ** step) + group["eps"]
        param.add_(average / denominator, alpha=-step_size)


__all__ = ["Optimizer", "SGD", "Adam"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.optim")
