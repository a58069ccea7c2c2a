"""``torch.optim``: SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, stepping parameters in place as
torch's single-tensor optimizers do (``lbfgs`` and ``lr_scheduler`` beside them)."""

from __future__ import annotations

import warnings
from collections import defaultdict

import numpy as np

from .. import _sparse
from .._grad_mode import no_grad
from .._inplace import _write_inplace, bump_version  # (a step writes into the parameter)
from .._missing import SaysWhatItLacks, missing_attribute
from .._numerics import addcdiv_values, addcmul_values, lerp_values, plus_scaled
from .._pointwise import clone
from .._tensor import Tensor
from .._vml import torch_kernel

# a tensor's sqrt() in torch's optimisers: its sqrt kernel's (MKL's where torch is here: _vml)
square_root = torch_kernel("sqrt", np.sqrt)


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


def _settings(names: str, given: dict, chosen: dict) -> dict:
    """A group's defaults in the order torch lists them: ``names`` (space-separated), each
    from ``given`` or else from ``chosen`` (the implementation flags' defaults)."""
    return {name: given[name] if name in given else chosen[name] for name in names.split()}


def _flags(capturable: bool = False, differentiable: bool = False, foreach=None,
           fused=None) -> dict:
    """Settings torch's optimizers take and list in their groups (and so print) that change
    how torch runs a step (several tensors at once, fused kernels), not what it computes."""
    return {"foreach": foreach, "capturable": capturable, "differentiable": differentiable,
            "fused": fused}


def _step_count(state: dict) -> float:
    """Count a step in ``state["step"]``, a float32 scalar tensor as torch keeps it."""
    step = state["step"]._data
    step[...] = step + np.float32(1)
    return float(step)


def _first_step() -> Tensor:
    return Tensor._make(np.zeros((), np.float32))


class Optimizer(SaysWhatItLacks):
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
        self.param_groups: list[dict] = []
        self.state: defaultdict = defaultdict(dict)  # by parameter, as torch's
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict) -> None:
        params = param_group["params"]
        params = [params] if isinstance(params, Tensor) else list(params)
        if len({id(param) for param in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        taken = {id(param) for group in self.param_groups for param in group["params"]}
        if any(id(param) in taken for param in params):
            raise ValueError("some parameters appear in more than one parameter group")
        group = {**param_group, "params": params}  # (torch's order: the given keys first)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        self.param_groups.append(group)

    def state_dict(self) -> dict:
        """torch's: each parameter by its position over all groups; its state as it is."""
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            packed["params"] = [index.setdefault(id(param), len(index))
                                for param in group["params"]]
            groups.append(packed)
        state = {index[id(param)]: values for param, values in self.state.items()
                 if id(param) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        saved = state_dict["param_groups"]
        if len(saved) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(mine["params"]) != len(theirs["params"])
               for mine, theirs in zip(self.param_groups, saved, strict=True)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        by_index = {}
        for mine, theirs in zip(self.param_groups, saved, strict=True):
            by_index.update(zip(theirs["params"], mine["params"], strict=True))
            mine.update({key: value for key, value in theirs.items() if key != "params"})
        self.state = defaultdict(dict)
        for number, values in state_dict["state"].items():
            param = by_index[number]
            self.state[param] = {key: _cast_state(key, value, param)
                                 for key, value in values.items()}

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
                self._refuse_gradients(group)
                for param in group["params"]:
                    if param.grad is not None and param._data.dtype.kind == "c":
                        self._update_parts(param, group, self.state[param])
                    elif param.grad is not None:
                        self._update(param, param.grad, group, self.state[param])
                        if not self.state[param]:  # SGD without momentum keeps none
                            del self.state[param]
        return loss

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        raise NotImplementedError

    # what torch says before a step of a group holding a gradient the optimizer cannot take:
    # a sparse one (most optimizers) or a dense one (SparseAdam)
    _SPARSE_REFUSAL: str | None = "{} does not support sparse gradients"
    _DENSE_REFUSAL: str | None = None

    def _refuse_gradients(self, group: dict) -> None:
        for param in group["params"]:
            grad = param.grad
            if grad is None:
                continue
            sparse = _sparse.parts(grad) is not None
            refusal = self._SPARSE_REFUSAL if sparse else self._DENSE_REFUSAL
            if refusal is not None:
                raise RuntimeError(refusal.format(type(self).__name__))

    def _update_parts(self, param: Tensor, group: dict, state: dict) -> None:
        """A complex parameter is updated as torch's optimizers do it: as the pairs of reals
        it is made of (view_as_real), so that Adam's squares are per part; its state stays
        complex, sharing memory with the pairs the update writes."""
        parts = {key: _pairs(value) if _is_complex(value) else value
                 for key, value in state.items()}
        self._update(_pairs(param), _pairs(param.grad), group, parts)
        for key, value in parts.items():
            if key not in state and isinstance(value, Tensor) and value.shape == parts_shape(param):
                state[key] = Tensor._make(value._data.view(param._data.dtype)[..., 0])
            elif key not in state:
                state[key] = value
        bump_version(param)

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
            if number:  # (torch's blank line between groups)
                lines.append("")
            lines.append(f"Parameter Group {number}")
            lines.extend(f"    {key}: {group[key]}" for key in sorted(group) if key != "params")
        return "\n".join(lines) + "\n)"


# dtypes whose mul_ and add_ by a number NumPy rounds as torch does (a half tensor's are
# taken in float by torch): SGD steps them on the arrays, without an in-place op's checks
# (a step is never recorded), a fifth of the time (example 07: ~16 → ~5 ms of 61 steps)
_ROUNDED_AS_NUMPY = (np.dtype(np.float32), np.dtype(np.float64))


class SGD(Optimizer):
    """p -= lr * (grad + weight_decay * p), with optional (Nesterov) momentum."""

    def __init__(self, params, lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 **flags):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, _settings(
            "lr momentum dampening weight_decay nesterov maximize foreach differentiable fused",
            locals(), _flags(**flags)))

    _SPARSE_REFUSAL = None

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        if _sparse.parts(grad) is not None:
            from .sparse_adam import sgd_sparse_step

            return sgd_sparse_step(param, grad, group, state)
        grad = self._descent_direction(param, grad, group)
        momentum = group["momentum"]
        if momentum:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = state["momentum_buffer"] = clone(grad).detach()
            elif buffer._data.dtype in _ROUNDED_AS_NUMPY:  # mul_ and add_ on the arrays
                decayed = buffer._data * buffer._data.dtype.type(momentum)
                _write_inplace(buffer, plus_scaled(decayed, grad._data, 1 - group["dampening"]))
            else:
                buffer.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buffer, alpha=momentum) if group["nesterov"] else buffer
        if param._data.dtype in _ROUNDED_AS_NUMPY and grad._data.dtype == param._data.dtype:
            _write_inplace(param, plus_scaled(param._data, grad._data, -group["lr"]))
        else:
            param.add_(grad, alpha=-group["lr"])


class Adam(Optimizer):
    """Adaptive moments with bias correction (Kingma and Ba), torch's defaults."""

    _SPARSE_REFUSAL = ("Adam does not support sparse gradients, please consider SparseAdam "
                       "instead")

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
                 maximize: bool = False, **flags):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        decoupled_weight_decay = type(self) is AdamW  # noqa: F841 - read by _settings
        super().__init__(params, _settings(
            "lr betas eps weight_decay amsgrad maximize foreach capturable differentiable fused "
            "decoupled_weight_decay", locals(), _flags(**flags)))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        """torch's _single_tensor_adam, each kernel rounded as torch's (lerp_, addcmul_,
        addcdiv_ are fused where torch's are)."""
        gradient = self._descent_direction(param, grad, group)._data
        if not state:
            state["step"] = _first_step()
            state["exp_avg"] = _zeros_like(param)
            state["exp_avg_sq"] = _zeros_like(param)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = _zeros_like(param)
        beta1, beta2 = group["betas"]
        step = _step_count(state)
        average, squares = state["exp_avg"]._data, state["exp_avg_sq"]._data
        average[...] = lerp_values(average, gradient, 1 - beta1)
        squares[...] = addcmul_values(squares * squares.dtype.type(beta2), gradient, gradient,
                                      1 - beta2)
        step_size = group["lr"] / (1 - beta1 ** step)
        if group["amsgrad"]:  # the largest second moment so far stands in for the current
            largest = state["max_exp_avg_sq"]._data
            np.maximum(largest, squares, out=largest)
            squares = largest
        # torch's ``bias_correction2 ** 0.5`` (math.sqrt can differ from it in the last bit)
        denominator = square_root(squares) / (1 - beta2 ** step) ** 0.5 + \
            squares.dtype.type(group["eps"])
        _write_inplace(param, addcdiv_values(param._data, average, denominator, -step_size))


class AdamW(Adam):
    """Adam with decoupled weight decay: the parameter shrinks by lr * weight_decay first."""

    def __init__(self, params, lr: float = 1e-3, betas: tuple = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False, **flags):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize,
                         **flags)

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        _write_inplace(param, param._data * param._data.dtype.type(1 - group["lr"] *
                                                           group["weight_decay"]))
        super()._update(param, grad, {**group, "weight_decay": 0}, state)


class RMSprop(Optimizer):
    """Divide by a running root mean square of the gradients (Hinton), torch's defaults."""

    def __init__(self, params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False, *,
                 maximize: bool = False, **flags):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, _settings(
            "lr momentum alpha eps centered weight_decay capturable foreach maximize "
            "differentiable", locals(), _flags(**flags)))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        grad = self._descent_direction(param, grad, group)._data
        if not state:
            state["step"] = _first_step()
            state["square_avg"] = _zeros_like(param)
            if group["momentum"] > 0:
                state["momentum_buffer"] = _zeros_like(param)
            if group["centered"]:
                state["grad_avg"] = _zeros_like(param)
        _step_count(state)
        alpha = group["alpha"]
        kind = grad.dtype.type
        squares = state["square_avg"]._data
        squares[...] = addcmul_values(squares * kind(alpha), grad, grad, 1 - alpha)
        if group["centered"]:
            average = state["grad_avg"]._data
            average[...] = lerp_values(average, grad, 1 - alpha)
            spread = square_root(addcmul_values(squares, average, average, -1))
        else:
            spread = square_root(squares)
        spread = spread + kind(group["eps"])
        if group["momentum"] > 0:
            buffer = state["momentum_buffer"]._data
            buffer[...] = addcdiv_values(buffer * kind(group["momentum"]), grad, spread, 1)
            _write_inplace(param, plus_scaled(param._data, buffer, -group["lr"]))
        else:
            _write_inplace(param, addcdiv_values(param._data, grad, spread, -group["lr"]))


class Adagrad(Optimizer):
    """Divide by the root of all squared gradients so far (Duchi et al.), torch's defaults."""

    _SPARSE_REFUSAL = None

    def __init__(self, params, lr: float = 1e-2, lr_decay: float = 0, weight_decay: float = 0,
                 initial_accumulator_value: float = 0, eps: float = 1e-10, *,
                 maximize: bool = False, **flags):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        super().__init__(params, _settings(
            "lr lr_decay eps weight_decay initial_accumulator_value foreach maximize "
            "differentiable fused", locals(), _flags(**flags)))
        for group in self.param_groups:  # torch's Adagrad makes its state at once
            for param in group["params"]:
                self.state[param] = {"step": _first_step(), "sum": Tensor._make(
                    np.full_like(param._data, group["initial_accumulator_value"]))}

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        step = _step_count(state)
        rate = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]._data
        if _sparse.parts(grad) is not None:
            from .sparse_adam import adagrad_sparse_step

            return adagrad_sparse_step(param, grad, group, rate, total)
        grad = self._descent_direction(param, grad, group)._data
        total[...] = addcmul_values(total, grad, grad, 1)
        deviation = square_root(total) + total.dtype.type(group["eps"])
        _write_inplace(param, addcdiv_values(param._data, grad, deviation, -rate))


class Adadelta(Optimizer):
    """Steps scaled by the ratio of running RMS of past steps and of gradients (Zeiler)."""

    def __init__(self, params, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach=None, *, capturable: bool = False,
                 maximize: bool = False, differentiable: bool = False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        super().__init__(params, _settings(
            "lr rho eps weight_decay maximize capturable foreach differentiable", locals(), {}))

    def _update(self, param: Tensor, grad: Tensor, group: dict, state: dict) -> None:
        """torch's _single_tensor_adadelta, kernel by kernel."""
        grad = self._descent_direction(param, grad, group)._data
        if not state:
            state["step"] = _first_step()
            state["square_avg"] = _zeros_like(param)
            state["acc_delta"] = _zeros_like(param)
        _step_count(state)
        rho, kind = group["rho"], grad.dtype.type
        squares, accumulated = state["square_avg"]._data, state["acc_delta"]._data
        squares[...] = addcmul_values(squares * kind(rho), grad, grad, 1 - rho)
        spread = square_root(squares + kind(group["eps"]))
        delta = square_root(accumulated + kind(group["eps"])) / spread * grad
        accumulated[...] = addcmul_values(accumulated * kind(rho), delta, delta, 1 - rho)
        _write_inplace(param, plus_scaled(param._data, delta, -group["lr"]))


def _zeros_like(param: Tensor) -> Tensor:
    return Tensor._make(np.zeros_like(param._data))


def _cast_state(key: str, value, param: Tensor):
    """A loaded state value: a tensor takes the parameter's dtype ("step" stays float32),
    as torch's load_state_dict casts them."""
    if not isinstance(value, Tensor) or key == "step" or value.dtype == param.dtype:
        return value
    return value.to(param.dtype)


from . import lr_scheduler  # noqa: E402 - torch.optim.lr_scheduler after import torch
from .adafactor import Adafactor  # noqa: E402
from .lbfgs import LBFGS  # noqa: E402
from .more_optimizers import ASGD, Adamax, NAdam, RAdam, Rprop  # noqa: E402
from .sparse_adam import SparseAdam  # noqa: E402

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "LBFGS",
           "NAdam", "RAdam", "Adamax", "Rprop", "ASGD", "SparseAdam", "Adafactor", "lr_scheduler",
           "swa_utils"]

_lacking = missing_attribute("torch.optim")


def __getattr__(name: str):
    """swa_utils when first used (start-up stays small); what the engine lacks is said with
    torch's module name and what to do."""
    if name == "swa_utils":
        import importlib

        return importlib.import_module(f"{__name__}.swa_utils")
    return _lacking(name)


def _is_complex(value) -> bool:
    return isinstance(value, Tensor) and value._data.dtype.kind == "c"


def _pairs(tensor: Tensor) -> Tensor:
    """A complex tensor's memory as pairs of reals, a plain tensor (no history)."""
    return Tensor._make(tensor._data[..., None].view(tensor._data.real.dtype))


def parts_shape(tensor: Tensor) -> tuple:
    return (*tensor.shape, 2)
