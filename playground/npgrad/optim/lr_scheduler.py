"""``torch.optim.lr_scheduler``: learning rates changed epoch by epoch, as torch's do."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

from .._missing import missing_attribute


class LRScheduler:
    """Sets each parameter group's lr at every ``step()``; starts at epoch 0 (base lrs)."""

    def __init__(self, optimizer, last_epoch: int = -1) -> None:
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._step_count = 0
        self.step()

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        self._step_count += 1
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        for group, rate in zip(self.optimizer.param_groups, self.get_lr(), strict=True):
            group["lr"] = rate
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def _current(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]


_LRScheduler = LRScheduler


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


class LambdaLR(LRScheduler):
    """lr = base lr times ``lr_lambda(epoch)`` (one function, or one per group)."""

    def __init__(self, optimizer, lr_lambda: Callable | list, last_epoch: int = -1) -> None:
        count = len(optimizer.param_groups)
        self.lr_lambdas = list(lr_lambda) if isinstance(lr_lambda, list | tuple) else \
            [lr_lambda] * count
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * rule(self.last_epoch)
                for rule, base in zip(self.lr_lambdas, self.base_lrs, strict=True)]


class MultiplicativeLR(LambdaLR):
    """lr times ``lr_lambda(epoch)`` at every epoch after the first (one function, or one
    per group)."""

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


__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LambdaLR",
           "MultiplicativeLR", "CosineAnnealingLR"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.optim.lr_scheduler")
