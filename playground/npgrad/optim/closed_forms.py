"""The learning rate at an epoch named outright (``scheduler.step(epoch)``, deprecated in
torch): the closed forms torch's schedulers have, from the base rates; the others (and those
without one) take their chained form."""

from __future__ import annotations

import math
from bisect import bisect_right


def _step(s) -> list[float]:
    return [base * s.gamma ** (s.last_epoch // s.step_size) for base in s.base_lrs]


def _multi_step(s) -> list[float]:
    milestones = sorted(s.milestones.elements())
    return [base * s.gamma ** bisect_right(milestones, s.last_epoch) for base in s.base_lrs]


def _constant(s) -> list[float]:
    return [base * (s.factor + (s.last_epoch >= s.total_iters) * (1 - s.factor))
            for base in s.base_lrs]


def _linear(s) -> list[float]:
    return [base * (s.start_factor + (s.end_factor - s.start_factor) *
                    min(s.total_iters, s.last_epoch) / s.total_iters) for base in s.base_lrs]


def _exponential(s) -> list[float]:
    return [base * s.gamma ** s.last_epoch for base in s.base_lrs]


def _polynomial(s) -> list[float]:
    return [base * (1.0 - min(s.total_iters, s.last_epoch) / s.total_iters) ** s.power
            for base in s.base_lrs]


def _cosine(s) -> list[float]:
    return [s.eta_min + (base - s.eta_min) * (1 + math.cos(math.pi * s.last_epoch / s.T_max))
            / 2 for base in s.base_lrs]


CLOSED_FORMS = {"StepLR": _step, "MultiStepLR": _multi_step, "ConstantLR": _constant,
                "LinearLR": _linear, "ExponentialLR": _exponential, "PolynomialLR": _polynomial,
                "CosineAnnealingLR": _cosine}


def closed_form(scheduler):
    """The closed form of the scheduler's class (or of the torch class it derives from)."""
    for kind in type(scheduler).__mro__:
        if kind.__name__ in CLOSED_FORMS:
            return CLOSED_FORMS[kind.__name__]
    return None
