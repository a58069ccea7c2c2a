"""``torch.optim.lr_scheduler``: learning rates changed epoch by epoch, as torch's do."""

from __future__ import annotations

import functools
import math
import types
import warnings
from collections import Counter
from collections.abc import Callable

from .._missing import SaysWhatItLacks, missing_attribute
from .closed_forms import closed_form


class LRScheduler(SaysWhatItLacks):
    """Sets each parameter group's lr at every ``step()``; starts at epoch 0 (base lrs)."""

    def __init__(self, optimizer, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        _track_optimizer_steps(optimizer)
        self._step_count = 0
        # (torch's flags, in its state_dict: the first step is the constructor's own)
        self._is_initial, self._get_lr_called_within_step = True, False
        self.step()
        self._is_initial = False

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        if self._step_count == 1:  # the user's first step (the constructor made one)
            _warn_of_the_order(self.optimizer)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        form = closed_form(self) if epoch is not None else None
        rates = form(self) if form is not None else self.get_lr()
        for group, rate in zip(self.optimizer.param_groups, rates, strict=True):
            group["lr"] = rate
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)

    def _current(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]


_LRScheduler = LRScheduler
EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose.")
_SEE = "See more details at https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"


def _track_optimizer_steps(optimizer) -> None:
    """torch's wrapper around the optimizer's own step (once): it notes that a step ran."""
    if hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        return
    step = optimizer.step

    @functools.wraps(step)
    def wrapper(*args, **kwargs):
        optimizer._opt_called = True
        return step(*args, **kwargs)

    wrapper._wrapped_by_lr_sched = True
    optimizer.step = wrapper


def _warn_of_the_order(optimizer) -> None:
    if not hasattr(optimizer.step, "_wrapped_by_lr_sched"):
        warnings.warn("Seems like `optimizer.step()` has been overridden after learning rate "
                      "scheduler initialization. Please, make sure to call `optimizer.step()` "
                      f"before `lr_scheduler.step()`. {_SEE}", UserWarning, stacklevel=3)
    elif not getattr(optimizer, "_opt_called", False):
        warnings.warn("Detected call of `lr_scheduler.step()` before `optimizer.step()`. In "
                      "PyTorch 1.1.0 and later, you should call them in the opposite order: "
                      "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                      f"result in PyTorch skipping the first value of the learning rate schedule. "
                      f"{_SEE}", UserWarning, stacklevel=3)


class StepLR(LRScheduler):
    """lr times ``gamma`` every ``step_size`` epochs."""

    def __init__(self, optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.step_size, self.gamma = step_size, gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current()
        return [rate * self.gamma for rate in self._current()]


class MultiStepLR(LRScheduler):
    """lr times ``gamma`` at each milestone epoch."""

    def __init__(self, optimizer, milestones, gamma: float = 0.1, last_epoch: int = -1) -> None:
        self.milestones, self.gamma = Counter(milestones), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch not in self.milestones:
            return self._current()
        factor = self.gamma ** self.milestones[self.last_epoch]
        return [rate * factor for rate in self._current()]


class ExponentialLR(LRScheduler):
    """lr times ``gamma`` every epoch."""

    def __init__(self, optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return self._current()
        return [rate * self.gamma for rate in self._current()]


class _LambdaRules(LRScheduler):
    """A scheduler driven by the user's functions of the epoch, one per group; their state
    is saved as torch saves it (None for a plain function, a callable object's __dict__)."""

    def __init__(self, optimizer, lr_lambda, last_epoch: int = -1) -> None:
        count = len(optimizer.param_groups)
        self.optimizer = optimizer
        if isinstance(lr_lambda, list | tuple):
            if len(lr_lambda) != count:
                raise ValueError(f"Expected {count} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * count
        super().__init__(optimizer, last_epoch)

    def state_dict(self) -> dict:
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(rule, types.FunctionType)
                               else rule.__dict__.copy() for rule in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        rules = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = rules
        for mine, saved in zip(self.lr_lambdas, rules, strict=False):
            if saved is not None:
                mine.__dict__.update(saved)


class LambdaLR(_LambdaRules):
    """lr = base lr times ``lr_lambda(epoch)`` (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda: Callable | list, last_epoch: int = -1) -> None:
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * rule(self.last_epoch)
                for rule, base in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(_LambdaRules):
    """lr times ``lr_lambda(epoch)`` at every epoch after the first (one function, or one
    per group)."""

    def __init__(self, optimizer, lr_lambda: Callable | list, last_epoch: int = -1) -> None:
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch <= 0:
            return self._current()
        return [rate * rule(self.last_epoch)
                for rule, rate in zip(self.lr_lambdas, self._current(), strict=True)]


class CosineAnnealingLR(LRScheduler):
    """lr follows half a cosine from the base lr down to ``eta_min`` over ``T_max`` epochs."""

    def __init__(self, optimizer, T_max: int, eta_min: float = 0.0,  # noqa: N803 - torch's
                 last_epoch: int = -1) -> None:
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        epoch, period, low = self.last_epoch, self.T_max, self.eta_min
        if epoch == 0:
            return self._current()
        if (epoch - 1 - period) % (2 * period) == 0:
            return [rate + (base - low) * (1 - math.cos(math.pi / period)) / 2
                    for rate, base in zip(self._current(), self.base_lrs, strict=True)]
        return [(1 + math.cos(math.pi * epoch / period))
                / (1 + math.cos(math.pi * (epoch - 1) / period)) * (rate - low) + low
                for rate in self._current()]


class ConstantLR(LRScheduler):
    """lr times ``factor`` until epoch ``total_iters``, then the base lr again."""

    def __init__(self, optimizer, factor: float = 1.0 / 3, total_iters: int = 5,
                 last_epoch: int = -1) -> None:
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return [rate * self.factor for rate in self._current()]
        if self.last_epoch != self.total_iters:
            return self._current()
        return [rate * (1.0 / self.factor) for rate in self._current()]


class LinearLR(LRScheduler):
    """lr scaled from ``start_factor`` to ``end_factor`` over ``total_iters`` epochs (the
    usual warm-up), by torch's multiplicative update."""

    def __init__(self, optimizer, start_factor: float = 1.0 / 3, end_factor: float = 1.0,
                 total_iters: int = 5, last_epoch: int = -1) -> None:
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor, self.total_iters = start_factor, end_factor, \
            total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0:
            return [rate * self.start_factor for rate in self._current()]
        if self.last_epoch > self.total_iters:
            return self._current()
        change = self.end_factor - self.start_factor
        factor = 1.0 + change / (self.total_iters * self.start_factor +
                                 (self.last_epoch - 1) * change)
        return [rate * factor for rate in self._current()]


class PolynomialLR(LRScheduler):
    """lr decayed by (1 - epoch / total_iters) ** power, to 0 at ``total_iters``."""

    def __init__(self, optimizer, total_iters: int = 5, power: float = 1.0,
                 last_epoch: int = -1) -> None:
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch > self.total_iters:
            return self._current()
        factor = ((1.0 - self.last_epoch / self.total_iters) /
                  (1.0 - (self.last_epoch - 1) / self.total_iters)) ** self.power
        return [rate * factor for rate in self._current()]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the base lr to ``eta_min`` over T_0 epochs, restarted, each
    period ``T_mult`` times the last (SGDR)."""

    def __init__(self, optimizer, T_0: int, T_mult: int = 1,  # noqa: N803 - torch's names
                 eta_min: float = 0.0, last_epoch: int = -1) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [self.eta_min + (base - self.eta_min) *
                (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2 for base in self.base_lrs]

    def step(self, epoch=None) -> None:
        # (torch's own step, which leaves _step_count at the constructor's 0)
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is not None and epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur % self.T_i, self.T_i * self.T_mult
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        for group, rate in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
            group["lr"] = rate
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]


class OneCycleLR(LRScheduler):
    """The 1cycle policy: lr up from max_lr / div_factor to max_lr over ``pct_start`` of the
    steps, then down to the initial lr / final_div_factor (cosine or linear), momentum (or
    Adam's beta1) the other way round."""

    def __init__(self, optimizer, max_lr, total_steps: int | None = None,
                 epochs: int | None = None, steps_per_epoch: int | None = None,
                 pct_start: float = 0.3, anneal_strategy: str = "cos",
                 cycle_momentum: bool = True, base_momentum=0.85, max_momentum=0.95,
                 div_factor: float = 25.0, final_div_factor: float = 1e4,
                 three_phase: bool = False, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _one_cycle_phases(self.total_steps, pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        groups = optimizer.param_groups
        if last_epoch == -1:
            for rate, group in zip(per_group(max_lr, groups, "max_lr"), groups, strict=True):
                group["initial_lr"] = rate / div_factor
                group["max_lr"] = rate
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
                raise ValueError("optimizer must support momentum or beta1 with "
                                 "`cycle_momentum` option enabled")
            self.use_beta1 = "betas" in optimizer.defaults
            if last_epoch == -1:
                for high, low, group in zip(per_group(max_momentum, groups, "max_momentum"),
                                            per_group(base_momentum, groups, "base_momentum"),
                                            groups, strict=True):
                    self._set_momentum(group, high)
                    group["max_momentum"], group["base_momentum"] = high, low
        super().__init__(optimizer, last_epoch)

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _anneal(self, start: float, end: float, fraction: float) -> float:
        if self._anneal_func_type == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * fraction) + 1)
        return (end - start) * fraction + start

    def get_lr(self) -> list[float]:
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total steps "
                             f"is {self.total_steps}")
        rates = []
        for group in self.optimizer.param_groups:
            start = 0.0
            for index, phase in enumerate(self._schedule_phases):
                end = phase["end_step"]
                if step <= end or index == len(self._schedule_phases) - 1:
                    fraction = (step - start) / (end - start)
                    rates.append(self._anneal(group[phase["start_lr"]], group[phase["end_lr"]],
                                              fraction))
                    if self.cycle_momentum:
                        self._set_momentum(group, self._anneal(
                            group[phase["start_momentum"]], group[phase["end_momentum"]],
                            fraction))
                    break
                start = end
        return rates


def _total_steps(total_steps, epochs, steps_per_epoch) -> int:
    if total_steps is not None:
        if total_steps <= 0 or not isinstance(total_steps, int):
            raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
        return total_steps
    if epochs is not None and steps_per_epoch is not None:
        if not isinstance(epochs, int) or epochs <= 0:
            raise ValueError(f"Expected positive integer epochs, but got {epochs}")
        if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
            raise ValueError("Expected positive integer steps_per_epoch, but got "
                             f"{steps_per_epoch}")
        return epochs * steps_per_epoch
    raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")


def _one_cycle_phases(total: int, pct_start: float, three_phase: bool) -> list[dict]:
    """Each phase as torch keeps it: its last step and the group keys of its start and end
    lr and momentum."""
    keys = ("end_step", "start_lr", "end_lr", "start_momentum", "end_momentum")
    if three_phase:
        phases = [(float(pct_start * total) - 1, "initial_lr", "max_lr", "max_momentum",
                   "base_momentum"),
                  (float(2 * pct_start * total) - 2, "max_lr", "initial_lr", "base_momentum",
                   "max_momentum"),
                  (total - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
    else:
        phases = [(float(pct_start * total) - 1, "initial_lr", "max_lr", "max_momentum",
                   "base_momentum"),
                  (total - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]
    return [dict(zip(keys, phase, strict=True)) for phase in phases]


def per_group(value, groups: list, name: str) -> list:
    """One value per parameter group: a list as given (of the right length), else repeated
    (torch's _format_param, its message naming the argument)."""
    if isinstance(value, list | tuple):
        if len(value) != len(groups):
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has {len(groups)}.")
        return list(value)
    return [value] * len(groups)


__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LambdaLR",
           "MultiplicativeLR", "CosineAnnealingLR", "ConstantLR", "LinearLR", "PolynomialLR",
           "CosineAnnealingWarmRestarts", "OneCycleLR", "ReduceLROnPlateau", "SequentialLR",
           "ChainedScheduler", "CyclicLR"]

from .cyclic_lr import CyclicLR  # noqa: E402
from .plateau import ReduceLROnPlateau  # noqa: E402
from .scheduler_chains import ChainedScheduler, SequentialLR  # noqa: E402

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.optim.lr_scheduler")
