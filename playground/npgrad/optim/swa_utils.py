"""``torch.optim.swa_utils``: stochastic weight averaging and exponential moving averages of
a model's weights (AveragedModel), the SWA learning-rate schedule (SWALR) and update_bn, each
computed as torch computes them on the CPU (one parameter at a time, its own arithmetic)."""

from __future__ import annotations

import copy
import itertools
import math
import sys

from .. import _dtype
from .._factories import tensor
from .._grad_mode import no_grad
from .._tensor import Tensor
from .._torch_homes import give_torch_homes
from ..nn.modules import Module
from ..nn.normalization import _BatchNorm
from .lr_scheduler import LRScheduler, per_group

__all__ = ["AveragedModel", "SWALR", "get_ema_avg_fn", "get_ema_multi_avg_fn",
           "get_swa_avg_fn", "get_swa_multi_avg_fn", "update_bn"]


def _checked_decay(decay: float) -> float:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         "[0,1] range.")
    return decay


def get_ema_multi_avg_fn(decay: float = 0.999):
    """All parameters moved toward the model's by 1 - decay (lerp), in place."""
    _checked_decay(decay)

    def ema_update(ema_params: list, current_params: list, _) -> None:
        with no_grad():
            for ema, current in zip(ema_params, current_params, strict=True):
                if ema.is_floating_point() or ema.is_complex():
                    ema.lerp_(current, 1 - decay)
                else:
                    ema.copy_(ema * decay + current * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn():
    """All parameters moved to the running mean, in place."""

    def swa_update(averaged_params: list, current_params: list, num_averaged) -> None:
        with no_grad():
            for averaged, current in zip(averaged_params, current_params, strict=True):
                if averaged.is_floating_point() or averaged.is_complex():
                    averaged.lerp_(current, float(1 / (num_averaged + 1)))
                else:
                    averaged.add_(current - averaged, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999):
    _checked_decay(decay)

    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged):
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn():
    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged):
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose weights are the average of the weights it was given."""

    def __init__(self, model: Module, device=None, avg_fn=None, multi_avg_fn=None,
                 use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = copy.deepcopy(model)
        self.register_buffer("n_averaged", tensor(0, dtype=_dtype.long))
        self.avg_fn, self.multi_avg_fn, self.use_buffers = avg_fn, multi_avg_fn, use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """The first call copies the model's weights; later ones average them in (on the CPU
        one parameter at a time, as torch does without foreach kernels)."""
        mine = itertools.chain(self.module.parameters(), self.module.buffers()) \
            if self.use_buffers else self.parameters()
        theirs = itertools.chain(model.parameters(), model.buffers()) \
            if self.use_buffers else model.parameters()
        pairs = [(own.detach(), other.detach()) for own, other in zip(mine, theirs,
                                                                      strict=False)]
        with no_grad():
            if int(self.n_averaged) == 0:
                for own, other in pairs:
                    own.copy_(other)
            elif self.multi_avg_fn is not None:
                self.multi_avg_fn([p[0] for p in pairs], [p[1] for p in pairs],
                                  self.n_averaged)
            else:
                average = self.avg_fn or get_swa_avg_fn()
                for own, other in pairs:
                    own.copy_(average(own, other, self.n_averaged))
            if not self.use_buffers:  # the buffers follow the model's as they are
                for own, other in zip(self.module.buffers(), model.buffers(), strict=True):
                    own.detach().copy_(other.detach())
            self.n_averaged += 1


def update_bn(loader, model: Module, device=None) -> None:
    """Every BatchNorm's running statistics recomputed over one pass of ``loader``."""
    with no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for input in loader:
            if isinstance(input, list | tuple):
                input = input[0]
            model(input)
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's lr to ``swa_lr`` over ``anneal_epochs`` (cosine or linear), then
    holds it."""

    def __init__(self, optimizer, swa_lr, anneal_epochs: int = 10,
                 anneal_strategy: str = "cos", last_epoch: int = -1) -> None:
        for rate, group in zip(per_group(swa_lr, optimizer.param_groups, "swa_lr"),
                               optimizer.param_groups, strict=True):
            group["swa_lr"] = rate
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got "
                             f"{anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else \
            self._linear_anneal

    def get_lr(self) -> list[float]:
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        previous = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        starts = [self._get_initial_lr(group["lr"], group["swa_lr"], previous)
                  for group in self.optimizer.param_groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + rate * (1 - alpha)
                for group, rate in zip(self.optimizer.param_groups, starts, strict=True)]

    def state_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)


give_torch_homes(sys.modules[__name__])  # (however it is imported: its classes print as torch's)
