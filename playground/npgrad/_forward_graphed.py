"""Tangents with a graph of their own: where autograd records (grad mode on, and a tangent or
a primal that requires grad), an op's tangent is computed with recorded tensor ops, as torch
computes its forward formulas, so that it prints its grad_fn and a backward through it reaches
the primals and the tangents (forward-over-reverse). Ops without such a rule here keep the
NumPy tangent of _forward.py."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from . import _recording
from ._formula_tensors import TENSOR_KIT
from ._grad_mode import GradMode
from ._recording import RESULT
from ._rules import RULES
from ._tensor import Tensor


def wanted(tangents: list, inputs: tuple) -> bool:
    """Whether the tangent would have a graph in torch."""
    if not GradMode.enabled:
        return False
    return any(t is not None and t.requires_grad for t in (*tangents, *inputs))


def tangent(op: str, tangents: list, inputs: tuple, saved: tuple, out: Tensor,
            element_wise: frozenset) -> Tensor | None:
    """The tangent of ``out`` by recorded ops, or None where no rule here covers ``op``.
    The ops run with the dual level's propagation set aside: a tangent has no tangent."""
    if op in element_wise:
        rule = _element_wise(op)
    else:
        rule = _RULES.get(op)
        if rule is None:
            return None
    values = tuple(out if item is RESULT else item for item in saved)
    propagate, _recording._tangents = _recording._tangents, None
    try:
        made = rule(tangents, inputs, values, out)
    finally:
        _recording._tangents = propagate
    if made is not None and tuple(made.shape) != tuple(out.shape):
        made = made.expand(tuple(out.shape))
    return made


def _element_wise(op: str) -> Callable:
    """torch's auto_element_wise: each tangent through its input's backward formula, summed;
    an input without a tangent (a number too) gives zeros through its formula, as torch's
    undefined tangents do, so the primals it multiplies are in the graph."""
    formulas = RULES[op].formulas

    def rule(tangents, inputs, saved, out):
        total = None
        for index, formula in enumerate(formulas):
            given = tangents[index] if index < len(tangents) else None
            if given is None:
                given = _zeros(inputs[index]) if index < len(inputs) and \
                    inputs[index] is not None else Tensor._make(np.zeros((), out._data.dtype))
            term = formula(TENSOR_KIT, given, saved)
            total = term if total is None else total + term
        return total

    return rule


def _zeros(like: Tensor) -> Tensor:
    return Tensor._make(like._data * 0)


def _product(multiply: Callable) -> Callable:
    """torch's ``a_t · b + a · b_t``, a missing tangent as zeros (so the sum is recorded)."""

    def rule(tangents, inputs, saved, out):
        (a_t, b_t), (a, b) = tangents[:2], inputs[:2]
        return multiply(_zeros(a) if a_t is None else a_t, b) + \
            multiply(a, _zeros(b) if b_t is None else b_t)

    return rule


def _addmm(tangents, inputs, saved, out):
    self_t, mat1_t, mat2_t = tangents
    _, mat1, mat2 = inputs
    beta, alpha = saved[-2:]
    start = _zeros(out) if self_t is None else _scaled(self_t, beta)
    return start + _scaled((_zeros(mat1) if mat1_t is None else mat1_t).mm(mat2), alpha) + \
        _scaled(mat1.mm(_zeros(mat2) if mat2_t is None else mat2_t), alpha)


def _scaled(value: Tensor, number) -> Tensor:
    """torch's maybe_multiply: a factor of 1 records nothing."""
    return value if number == 1 else value * number


def _linear(apply: Callable) -> Callable:
    """torch's auto_linear: the op itself on the input's tangent."""
    return lambda tangents, inputs, saved, out: apply(tangents[0], saved, out)


def _joined(join: Callable) -> Callable:
    def rule(tangents, inputs, saved, out):
        parts = [_zeros(p) if t is None else t for t, p in zip(tangents, inputs, strict=True)]
        return join(parts, saved[0])

    return rule


def _log_softmax(tangents, inputs, saved, out):
    given, dim = tangents[0], saved[1]
    return given - (given * out.exp()).sum(dim, keepdim=True)


_RULES: dict[str, Callable] = {
    "sum": _linear(lambda t, saved, out: t.sum()),
    "sum_dim": _linear(lambda t, saved, out: t.sum(saved[1], keepdim=saved[2])),
    "mean": _linear(lambda t, saved, out: t.mean()),
    "mean_dim": _linear(lambda t, saved, out: t.mean(saved[1], keepdim=saved[2])),
    "view": _linear(lambda t, saved, out: t.reshape(tuple(out.shape))),
    "unpack_dual": _linear(lambda t, saved, out: t),  # (unpack_dual drops it at once)
    "unsafe_view": _linear(lambda t, saved, out: t.reshape(tuple(out.shape))),
    "expand": _linear(lambda t, saved, out: t.expand(tuple(out.shape))),
    "t": _linear(lambda t, saved, out: t.t()),
    "transpose": _linear(lambda t, saved, out: t.transpose(*saved)),
    "permute": _linear(lambda t, saved, out: t.permute(*saved[0])),
    "select": _linear(lambda t, saved, out: t.select(*saved[1:])),
    "unsqueeze": _linear(lambda t, saved, out: t.unsqueeze(saved[0])),
    "squeeze": _linear(lambda t, saved, out: t.reshape(tuple(out.shape))),
    "squeeze_dim": _linear(lambda t, saved, out: t.reshape(tuple(out.shape))),
    "squeeze_dims": _linear(lambda t, saved, out: t.reshape(tuple(out.shape))),
    "slice": _linear(lambda t, saved, out: t[(slice(None),) * saved[1]
                                             + (slice(*saved[2:]),)]),
    "flip": _linear(lambda t, saved, out: t.flip(saved[0])),
    "tril": _linear(lambda t, saved, out: t.tril(saved[0])),
    "triu": _linear(lambda t, saved, out: t.triu(saved[0])),
    "cumsum": _linear(lambda t, saved, out: t.cumsum(saved[0])),
    "repeat": _linear(lambda t, saved, out: t.repeat(*saved[1])),
    "mm": _product(lambda a, b: a.mm(b)),
    "bmm": _product(lambda a, b: a.bmm(b)),
    "mv": _product(lambda a, b: a.mv(b)),
    "dot": _product(lambda a, b: a.dot(b)),
    "addmm": _addmm,
    "cat": _joined(lambda parts, dim: _cat(parts, dim)),
    "stack": _joined(lambda parts, dim: _stack(parts, dim)),
    "log_softmax": _log_softmax,
}


def _cat(parts, dim):
    from ._shapes import cat

    return cat(parts, dim)


def _stack(parts, dim):
    from ._shapes import stack

    return stack(parts, dim)
