"""CyclicLR (Smith's cyclical learning rates): the lr goes up from ``base_lr`` to ``max_lr`` over
``step_size_up`` steps and back over ``step_size_down``, its height scaled per cycle
(triangular2: halved) or per step (exp_range: ``gamma ** step``), momentum the other way round;
torch's arithmetic, so the rates are its floats."""

from __future__ import annotations

import math
import types
from functools import partial

from . import Optimizer
from .lr_scheduler import LRScheduler, per_group


class CyclicLR(LRScheduler):
    """Steps once per batch: ``last_epoch`` counts the batches."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up: int = 2000,
                 step_size_down: int | None = None, mode: str = "triangular",
                 gamma: float = 1.0, scale_fn=None, scale_mode: str = "cycle",
                 cycle_momentum: bool = True, base_momentum=0.8, max_momentum=0.9,
                 last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        groups = optimizer.param_groups
        base_lrs = per_group(base_lr, groups, "base_lr")
        if last_epoch == -1:
            for rate, group in zip(base_lrs, groups, strict=True):
                group["lr"] = rate
        self.max_lrs = per_group(max_lr, groups, "max_lr")
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom, self.scale_mode = scale_fn, scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self._cycle_momentum(groups, base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _cycle_momentum(self, groups: list, base_momentum, max_momentum,
                        last_epoch: int) -> None:
        if "momentum" not in self.optimizer.defaults and "betas" not in self.optimizer.defaults:
            raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                             "option enabled")
        self.use_beta1 = "betas" in self.optimizer.defaults
        self.base_momentums = per_group(base_momentum, groups, "base_momentum")
        self.max_momentums = per_group(max_momentum, groups, "max_momentum")
        if last_epoch == -1:
            for high, low, group in zip(self.max_momentums, self.base_momentums, groups,
                                        strict=True):
                self._set_momentum(group, high)
                group["max_momentum"], group["base_momentum"] = high, low

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _init_scale_fn(self) -> None:
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref, self.scale_mode = _triangular, "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref, self.scale_mode = _triangular2, "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref, self.scale_mode = partial(_exp_range, self.gamma), "iterations"

    def scale_fn(self, x) -> float:
        """The height's scale at cycle (or step) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    def get_lr(self) -> list[float]:
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        # (torch's association: the height (high - base) * scale_factor, then scaled)
        rates = [base + (high - base) * scale_factor * self.scale_fn(at)
                 for base, high in zip(self.base_lrs, self.max_lrs, strict=True)]
        if self.cycle_momentum:
            for group, low, high in zip(self.optimizer.param_groups, self.base_momentums,
                                        self.max_momentums, strict=True):
                self._set_momentum(group, high - (high - low) * scale_factor * self.scale_fn(at))
        return rates

    def state_dict(self) -> dict:
        """torch's: no scale function but a callable object's attributes."""
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        function = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if function is not None and not isinstance(function, types.FunctionType):
            state["_scale_fn_custom"] = function.__dict__.copy()
        return state


def _triangular(x: float) -> float:
    return 1.0


def _triangular2(x: float) -> float:
    return 1 / (2.0 ** (x - 1))


def _exp_range(gamma: float, x: float) -> float:
    return gamma ** x
