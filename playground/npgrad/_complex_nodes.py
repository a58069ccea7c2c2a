"""How complex numbers take part in a backward pass: the node class an op records when they do
(its formulas run on conjugated saved values, as its own, or refusing), and a gradient cast
into a real input (its real part, as torch's)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import _tensor
from ._bfloat16 import GRADIENT_DTYPE, as_bfloat16
from ._complex_rules import COMPLEX_AWARE, COMPLEX_REFUSED
from ._dtype import bfloat16, from_numpy_dtype


def _conjugated(values: tuple) -> tuple:
    """Saved values as a holomorphic op's formula reads them for complex numbers: conjugated
    (torch's ``grad * other.conj()`` for mul), everything that is not complex as it is."""
    result = []
    for value in values:
        if isinstance(value, np.ndarray | np.generic) and value.dtype.kind == "c":
            value = np.conj(value)
        elif isinstance(value, _tensor.Tensor) and value._data.dtype.kind == "c":
            value = value.conj()
        elif isinstance(value, complex):
            value = value.conjugate()
        result.append(value)
    return tuple(result)


def _conjugating(formula):
    def formula_for_complex(k, grad, saved, *index):
        return formula(k, grad, _conjugated(saved), *index)

    return formula_for_complex


def _refusing(op: str):
    def no_formula(k, grad, saved, *index):
        raise NotImplementedError(f"the derivative of {op} for complex tensors is not in the "
                                  "built-in NumPy engine; switch the engine to torch")

    return no_formula


_COMPLEX_VARIANTS: dict[type, type] = {}


def complex_variant(node_class: type, complex_output: bool) -> type:
    """The node class an op records when complex numbers take part: the op's own when its
    formulas are written for them (COMPLEX_AWARE); for a complex result, the formulas run on
    the conjugated saved values (right for every holomorphic op, as torch's formulas conjugate
    them); a real result of a complex input without such a formula refuses to differentiate."""
    rule = node_class.rule
    if rule.op in COMPLEX_AWARE or "complex_variant" in node_class.__dict__:
        return node_class
    key = (node_class, complex_output)
    variant = _COMPLEX_VARIANTS.get(key)
    if variant is None:
        conjugates = complex_output and rule.op not in COMPLEX_REFUSED
        wrap = _conjugating if conjugates else (lambda formula: _refusing(rule.op))
        formulas = tuple(wrap(formula) for formula in rule.formulas)
        graph = tuple(wrap(formula) for formula in rule.graph_formulas)
        changed = replace(rule, formulas=formulas)
        object.__setattr__(changed, "_split", formulas)  # (the cores' split is for reals)
        object.__setattr__(changed, "_graph", graph)
        variant = type(node_class.__name__, (node_class,), {
            "__slots__": (), "rule": changed, "formulas": formulas, "__module__": "torch",
            "complex_variant": True})
        _COMPLEX_VARIANTS[key] = variant
    return variant


def cast_gradient(grad: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """A gradient in its input's dtype; a complex one into a real input is its real part (the
    gradient by the real input itself), as torch's."""
    if dtype is GRADIENT_DTYPE:  # (a bfloat16 tensor's: rounded to bfloat16)
        return as_bfloat16(grad)
    if grad.dtype.kind == "c" and dtype.kind != "c":
        grad = grad.real
    return grad.astype(dtype)


def cast_gradient_tensor(grad, dtype: np.dtype):
    if dtype is GRADIENT_DTYPE:
        return grad.to(bfloat16)
    if grad._data.dtype.kind == "c" and dtype.kind != "c":
        grad = grad.real
    return grad.to(from_numpy_dtype(dtype))
