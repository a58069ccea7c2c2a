"""``ReduceLROnPlateau``: a scheduler that watches a metric instead of counting epochs."""

from __future__ import annotations

import math

from .._missing import SaysWhatItLacks
from .lr_scheduler import per_group


class ReduceLROnPlateau(SaysWhatItLacks):
    """lr times ``factor`` once the watched metric has not improved (by ``threshold``) for
    ``patience`` epochs; then ``cooldown`` epochs of rest."""

    def __init__(self, optimizer, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0,
                 min_lr=0, eps: float = 1e-8) -> None:
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        # (the attributes in torch's order: state_dict() lists them so)
        self.factor, self.optimizer = factor, optimizer
        groups = optimizer.param_groups
        if isinstance(min_lr, list | tuple) and len(min_lr) != len(groups):
            raise ValueError(f"expected {len(groups)} min_lrs, got {len(min_lr)}")
        self.default_min_lr = None if isinstance(min_lr, list | tuple) else min_lr
        self.min_lrs = per_group(min_lr, groups, "min_lr")
        self.patience, self.cooldown, self.eps = patience, cooldown, eps
        self.last_epoch = 0
        self._last_lr = [group["lr"] for group in optimizer.param_groups]
        if mode not in ("min", "max"):
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode
        self.best, self.cooldown_counter, self.num_bad_epochs = self.mode_worse, 0, 0

    def is_better(self, a: float, best: float) -> bool:
        if self.mode == "min":
            return a < best * (1.0 - self.threshold) if self.threshold_mode == "rel" else \
                a < best - self.threshold
        return a > best * (self.threshold + 1.0) if self.threshold_mode == "rel" else \
            a > best + self.threshold

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def step(self, metrics, epoch=None) -> None:
        current = float(metrics)
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self.is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            for group, low in zip(self.optimizer.param_groups, self.min_lrs, strict=True):
                old = float(group["lr"])
                new = max(old * self.factor, low)
                if old - new > self.eps:
                    group["lr"] = new
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def get_last_lr(self) -> list[float]:
        return self._last_lr

    def state_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
