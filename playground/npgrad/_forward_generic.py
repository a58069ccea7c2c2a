"""The tangent of an op that has no forward rule of its own (_forward.py), from its backward
formulas: with ``u`` a gradient of the result that requires grad, input i's formula gives
uᵀJᵢ, linear in ``u``, and the gradient of Σᵢ ⟨uᵀJᵢ, tᵢ⟩ with respect to ``u`` is Σᵢ Jᵢ tᵢ, the
tangent (the double-vjp trick, one op at a time). torch computes these ops' tangents by
forward formulas of its own: the values agree up to rounding."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import _recording
from ._formula_tensors import TENSOR_KIT
from ._grad_mode import GradMode
from ._recording import RESULT
from ._rules import RULES
from ._tensor import Tensor


def tangent(op: str, tangents: list, inputs: tuple, saved: tuple, out: Tensor):
    """The tangent of ``out`` (an array), or None where the op's formulas cannot give it
    (no rule, or a formula the tensor kit cannot run)."""
    rule = RULES.get(op)
    if rule is None or out._data.dtype.kind != "f":
        return None
    values = tuple(out if item is RESULT else item for item in saved)
    pushed = _paused(lambda: _pushed(rule.formulas, tangents, inputs, values, [out], False))
    return None if pushed is None else pushed[0]


def tangents_of_outputs(op: str, tangents: list, inputs: tuple, saved: tuple,
                        outs: list) -> list | None:
    """The tangents of the outputs of one node with several (a QR's Q and R, an SVD's U, S
    and Vh...; None for an integer one), or None where the op's formulas cannot give them."""
    rule = RULES.get(op)
    if rule is None:
        return None
    wanted = [out if out._data.dtype.kind == "f" else None for out in outs]
    values = tuple(outs[0] if item is RESULT else item for item in saved)
    return _paused(lambda: _pushed(rule.formulas, tangents, inputs, values, wanted, True))


def _paused(work: Callable):
    """``work()`` recorded (grad mode on) with no tangents propagated meanwhile; None where
    a formula cannot run on the tensor kit."""
    propagating, _recording._tangents = _recording._tangents, None
    previous, GradMode.enabled = GradMode.enabled, True
    try:
        return work()
    except (TypeError, ValueError, AttributeError, NotImplementedError, RuntimeError,
            IndexError):
        return None  # (said as the op's missing forward rule)
    finally:
        GradMode.enabled = previous
        _recording._tangents = propagating


def _pushed(formulas, tangents: list, inputs: tuple, values: tuple, outs: list,
            several: bool) -> list:
    """Each of ``outs``' tangent (None where it is None): a gradient ``u`` per output, the
    formulas' uᵀJᵢ against the tangents tᵢ, and the gradient of their sum with respect to u."""
    from .autograd import grad

    us = [None if out is None else Tensor._make(np.zeros(out._data.shape, out._data.dtype))
          .requires_grad_() for out in outs]
    received = tuple(us) if several else us[0]
    dtype = next(u for u in us if u is not None)._data.dtype
    total = None
    for formula, given, primal in zip(formulas, tangents, inputs, strict=False):
        if given is None or primal is None:
            continue
        pulled = formula(TENSOR_KIT, received, values)
        if pulled is None:
            continue
        term = (pulled * Tensor._make(np.asarray(given._data, dtype))).sum()
        total = term if total is None else total + term
    wanted = [u for u in us if u is not None]
    reached = total is not None and total.requires_grad
    pushed = iter(grad(total, wanted, allow_unused=True) if reached else [None] * len(wanted))
    # (+ 0: a zero that came of a product with a negative number is 0 here, as torch's
    # formulas, which add or select, mostly give it)
    return [None if u is None else _zero_or(next(pushed), u) for u in us]


def _zero_or(pushed: Tensor | None, u: Tensor) -> np.ndarray:
    """A pushed tangent, zeros where the tangent reached nothing."""
    dtype = u._data.dtype
    return np.zeros(u._data.shape, dtype) if pushed is None else pushed._data + dtype.type(0)
