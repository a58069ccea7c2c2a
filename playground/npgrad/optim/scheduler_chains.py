"""Schedulers of schedulers (SequentialLR: one after another at milestones, the usual warm-up
then decay; ChainedScheduler: all at every step), and the closed forms torch's schedulers jump
to when one starts at a milestone."""

from __future__ import annotations

import math
from bisect import bisect_right

from .._missing import SaysWhatItLacks


def _closed_form(scheduler) -> list[float] | None:
    """The lr at ``last_epoch`` computed from the base lrs, for the schedulers torch has one
    for (else None: the step-by-step rule applies)."""
    epoch, bases = scheduler.last_epoch, scheduler.base_lrs
    kind = type(scheduler).__name__
    if kind == "StepLR":
        return [base * scheduler.gamma ** (epoch // scheduler.step_size) for base in bases]
    if kind == "MultiStepLR":
        milestones = sorted(scheduler.milestones.elements())
        return [base * scheduler.gamma ** bisect_right(milestones, epoch) for base in bases]
    if kind == "ConstantLR":
        return [base * (scheduler.factor + (epoch >= scheduler.total_iters) *
                        (1 - scheduler.factor)) for base in bases]
    if kind == "LinearLR":
        return [base * (scheduler.start_factor + (scheduler.end_factor - scheduler.start_factor)
                        * min(scheduler.total_iters, epoch) / scheduler.total_iters)
                for base in bases]
    if kind == "ExponentialLR":
        return [base * scheduler.gamma ** epoch for base in bases]
    if kind == "PolynomialLR":
        return [base * (1.0 - min(scheduler.total_iters, epoch) / scheduler.total_iters)
                ** scheduler.power for base in bases]
    if kind == "CosineAnnealingLR":
        low = scheduler.eta_min
        return [low + (base - low) * (1 + math.cos(math.pi * epoch / scheduler.T_max)) / 2
                for base in bases]
    return None


def restart_at(scheduler, epoch: int) -> None:
    """torch's ``_update_lr(epoch)``: the scheduler set to ``epoch``, its lr the closed form."""
    scheduler.last_epoch = epoch
    rates = _closed_form(scheduler)
    if rates is None:
        rates = scheduler.get_lr()
    for group, rate in zip(scheduler.optimizer.param_groups, rates, strict=True):
        group["lr"] = rate
    scheduler._last_lr = [group["lr"] for group in scheduler.optimizer.param_groups]


def _check(owner: str, optimizer, schedulers) -> None:
    from .lr_scheduler import ReduceLROnPlateau

    for index, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{owner} at index {index} should have `optimizer` as its "
                            "attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(f"{owner} does not support `ReduceLROnPlateau` scheduler as it "
                             "requires additional kwargs to be specified when calling `step`, "
                             f"but got one at index {index} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(f"{owner} expects all schedulers to belong to the same optimizer, "
                             f"but got scheduler {type(scheduler).__name__} at index {index} "
                             f"has {scheduler.optimizer}, which is different from "
                             f"{type(optimizer).__name__}.")


class _OfSchedulers(SaysWhatItLacks):
    """What a scheduler of schedulers shares: its last rates and a state with theirs."""

    def get_last_lr(self) -> list[float]:
        return self._last_lr

    def state_dict(self) -> dict:
        state = {key: value for key, value in self.__dict__.items()
                 if key not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [scheduler.state_dict() for scheduler in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        theirs = state_dict.pop("_schedulers")
        self.__dict__.update(state_dict)
        state_dict["_schedulers"] = theirs
        for scheduler, state in zip(self._schedulers, theirs, strict=False):
            scheduler.load_state_dict(state)


class SequentialLR(_OfSchedulers):
    """The schedulers in turn: the next takes over at each milestone, from its start."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch: int = -1) -> None:
        if len(schedulers) < 1:
            raise ValueError("SequentialLR expects at least one scheduler, but got no "
                             "scheduler.")
        _check("SequentialLR", optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                f"than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}")
        self._schedulers, self._milestones = schedulers, milestones
        self.last_epoch, self.optimizer = last_epoch + 1, optimizer
        for group in optimizer.param_groups:
            group["lr"] = group["initial_lr"]
        for scheduler in schedulers:  # their own first steps undone
            _undo(scheduler)
        first = self._schedulers[bisect_right(milestones, 0)]
        first._step_count = 0
        first.step()
        self._last_lr = first.get_last_lr()

    def step(self) -> None:
        self.last_epoch += 1
        index = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            restart_at(scheduler, 0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()


def _undo(scheduler) -> None:
    if hasattr(scheduler, "_schedulers"):
        for inner in scheduler._schedulers:
            _undo(inner)
    elif hasattr(scheduler, "last_epoch"):
        scheduler.last_epoch -= 1


class ChainedScheduler(_OfSchedulers):
    """Every scheduler steps at each step, in order (their changes compose)."""

    def __init__(self, schedulers, optimizer=None) -> None:
        if len(schedulers) < 1:
            raise ValueError("ChainedScheduler expects at least one scheduler to be chained, "
                             "but got no scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check("ChainedScheduler", optimizer, schedulers)
        self._schedulers, self.optimizer = schedulers, optimizer
        self._last_lr = [group["lr"] for group in schedulers[-1].optimizer.param_groups]

    def step(self) -> None:
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = [group["lr"] for group in self._schedulers[-1].optimizer.param_groups]
