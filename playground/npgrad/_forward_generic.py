"""The tangent of an op that has no forward rule of its own (_forward.py), from its backward
formulas: with ``u`` a gradient of the result that requires grad, input i's formula gives
uᵀJᵢ, linear in ``u``, and the gradient of Σᵢ ⟨uᵀJᵢ, tᵢ⟩ with respect to ``u`` is Σᵢ Jᵢ tᵢ, the
tangent (the double-vjp trick, one op at a time). torch computes these ops' tangents by
forward formulas of its own: the values agree up to rounding."""

from __future__ import annotations

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
    propagating, _recording._tangents = _recording._tangents, None
    previous, GradMode.enabled = GradMode.enabled, True
    try:
        return _pushed(rule.formulas, tangents, inputs, values, out)
    except (TypeError, ValueError, AttributeError, NotImplementedError, RuntimeError,
            IndexError):
        return None  # (said as the op's missing forward rule)
    finally:
        GradMode.enabled = previous
        _recording._tangents = propagating


def _pushed(formulas, tangents: list, inputs: tuple, values: tuple, out: Tensor):
    from .autograd import grad

    dtype = out._data.dtype
    u = Tensor._make(np.zeros(out._data.shape, dtype)).requires_grad_()
    total = None
    for formula, given, primal in zip(formulas, tangents, inputs, strict=False):
        if given is None or primal is None:
            continue
        pulled = formula(TENSOR_KIT, u, values)
        if pulled is None:
            continue
        term = (pulled * Tensor._make(np.asarray(given._data, dtype))).sum()
        total = term if total is None else total + term
    if total is None or not total.requires_grad:  # (a tangent that reaches nothing: zeros)
        return np.zeros(out._data.shape, dtype)
    (pushed,) = grad(total, u, allow_unused=True)
    # (+ 0: a zero that came of a product with a negative number is 0 here, as torch's
    # formulas, which add or select, mostly give it)
    return np.zeros(out._data.shape, dtype) if pushed is None else pushed._data + dtype.type(0)
