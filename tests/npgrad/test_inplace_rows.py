"""Every in-place name in the rule table is bound and records its row's node, as torch's does.

The rows of ``_rules.py`` say which in-place methods record them (``mul_`` and ``x *= y`` for
MulBackward0); ``_inplace.py`` binds its forwards under those names. Each one is called here on
both engines, and the node it leaves and the gradients through it are compared with torch's.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import playground.npgrad as npgrad
from playground.npgrad._bindings import METHODS
from playground.npgrad._everyday_ops import TESTED_APART
from playground.npgrad._rules import TABLE

torch = pytest.importorskip("torch")

_AUGMENTED = re.compile(r"__i(add|sub|mul|truediv|floordiv|mod|pow|and|or|xor|matmul)__")


def _other(m):
    return m.tensor([0.5, 0.25, 2.0], requires_grad=True)


# Per row: the arguments of its in-place call (after self), made with module m (torch or npgrad).
_ARGUMENTS = {
    "add": lambda m: (_other(m),),
    "sub": lambda m: (_other(m),),
    "mul": lambda m: (_other(m),),
    "div": lambda m: (_other(m),),
    "neg": lambda m: (),
    "pow": lambda m: (2.0,),
    "clamp_min": lambda m: (0.4,),
    "clamp_max": lambda m: (0.5,),
    "pow_tensor": lambda m: (_other(m),),
    "lerp": lambda m: (_other(m), 0.3),
    "lerp_tensor": lambda m: (_other(m), m.tensor([0.1, 0.5, 0.9], requires_grad=True)),
    "addcmul": lambda m: (_other(m), m.tensor([1.5, -1.0, 0.5], requires_grad=True)),
    "addcdiv": lambda m: (_other(m), m.tensor([1.5, -1.0, 0.5], requires_grad=True)),
    "clamp": lambda m: (0.3, 0.6),
    "masked_fill": lambda m: (m.tensor([True, False, True]), 0.5),
    "masked_scatter": lambda m: (m.tensor([True, False, True]),
                                 m.tensor([1.5, -2.0], requires_grad=True)),
    "zero_": lambda m: (),
    "fill_": lambda m: (2.0,),
    "copy": lambda m: (m.tensor([0.75], requires_grad=True),),
    "copy_slices": lambda m: (slice(0, 2), m.tensor([3.0, 4.0], requires_grad=True)),
    "index_add": lambda m: (0, m.tensor([0, 2]), m.tensor([1.0, 2.0], requires_grad=True)),
    "index_copy": lambda m: (0, m.tensor([2, 0]), m.tensor([1.0, 2.0], requires_grad=True)),
    "index_fill": lambda m: (0, m.tensor([1]), -1.0),
    "index_put": lambda m: ((m.tensor([2, 0]),), m.tensor([1.5, -1.0], requires_grad=True)),
    "index_put_accumulate": lambda m: ((m.tensor([2, 0, 2]),),
                                       m.tensor([1.5, -1.0, 0.5], requires_grad=True), True),
    "scatter": lambda m: (0, m.tensor([2, 0]), m.tensor([1.5, -1.0], requires_grad=True)),
    "scatter_value": lambda m: (0, m.tensor([2, 0]), 4.0),
    "scatter_add": lambda m: (0, m.tensor([2, 0, 2]), m.tensor([1.5, -1.0, 0.5],
                                                             requires_grad=True)),
    "scatter_reduce": lambda m: (0, m.tensor([2, 0, 2]), m.tensor([1.5, -1.0, 0.5],
                                                               requires_grad=True), "prod"),
    "cauchy_": lambda m: (0.5, 2.0),
    "log_normal_": lambda m: (0.25, 0.5),
    "geometric_": lambda m: (0.3,),
    "index_reduce": lambda m: (0, m.tensor([2, 0, 2]), m.tensor([1.5, -1.0, 0.5],
                                                             requires_grad=True), "mean"),
    "normal_": lambda m: (),
    "uniform_": lambda m: (),
    "exponential_": lambda m: (),
    "random_": lambda m: (0, 5),
    "bernoulli_": lambda m: (0.5,),
    "bernoulli_tensor": lambda m: (m.tensor([0.1, 0.5, 0.9], requires_grad=True),),
}

CALLS = [(rule, name) for rule in TABLE for name in rule.inplace]


def _arguments(m, op: str) -> tuple:
    if op in _ARGUMENTS:
        return _ARGUMENTS[op](m)
    assert len(TABLE_BY_OP[op].inputs) == 1, (
        f"the row {op!r} names in-place methods: give this test their arguments")
    return ()  # a function of one tensor (sin_, relu_...)


TABLE_BY_OP = {rule.op: rule for rule in TABLE}


def _call(m, op: str, name: str):
    """x (a leaf) times 1, then the in-place call; the node left, and every leaf's gradient."""
    m.manual_seed(0)
    x = m.tensor([0.2, 0.45, 0.7], requires_grad=True)
    arguments = _arguments(m, op)
    y = x * 1
    getattr(y, name)(*arguments)
    node = type(y.grad_fn).__name__
    try:
        (y * m.tensor([1.0, -2.0, 3.0])).sum().backward()
    except (RuntimeError, NotImplementedError) as error:
        return node, f"{type(error).__name__}: {error}"
    leaves = [x, *(a for a in arguments if isinstance(a, m.Tensor) and a.requires_grad)]
    grads = [None if t.grad is None else t.grad.detach().numpy().copy() for t in leaves]
    return node, grads


@pytest.mark.parametrize(("rule", "name"), CALLS, ids=[f"{r.op}-{n}" for r, n in CALLS])
def test_an_inplace_name_records_its_rows_node_as_torch_does(rule, name):
    ours_node, ours_grads = _call(npgrad, rule.op, name)
    torch_node, torch_grads = _call(torch, rule.op, name)
    assert ours_node == torch_node == rule.node_name
    if isinstance(torch_grads, str):  # a node torch has no derivative for
        assert ours_grads == torch_grads
        return
    for ours, theirs in zip(ours_grads, torch_grads, strict=True):
        if theirs is None:
            assert ours is None
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)


def test_every_bound_inplace_method_is_named_by_a_row():
    """A new in-place forward bound outside a row (``@binds("foo_")``) fails here: its node,
    derivative and torch's name belong in the row of the op it records."""
    named = {name for rule in TABLE for name in rule.inplace}
    bound = {name for name in METHODS
             if (name.endswith("_") and not name.startswith("__")) or _AUGMENTED.fullmatch(name)
             or name == "__setitem__"}
    assert bound - TESTED_APART == named, (bound - TESTED_APART - named, named - bound)


def _call_through_view(m, op: str, name: str):
    """The same call on a strided view of a base: torch's CopySlices on the base, an
    as_strided view, and the gradients of every leaf through the base and the view."""
    m.manual_seed(0)
    x = m.tensor([0.2, 0.45, 0.7], requires_grad=True)
    arguments = _arguments(m, op)
    base = m.cat([x, x * 0.5]) * 1
    view = base[::2]
    getattr(view, name)(*arguments)
    nodes = (type(base.grad_fn).__name__, type(view.grad_fn).__name__)
    try:
        ((base * m.tensor([1.0, -2.0, 3.0, 0.5, 1.5, -1.0])).sum()
         + (view * m.tensor([2.0, 1.0, -1.0])).sum()).backward()
    except (RuntimeError, NotImplementedError) as error:
        return nodes, f"{type(error).__name__}: {error}", None
    leaves = [x, *(a for a in arguments if isinstance(a, m.Tensor) and a.requires_grad)]
    grads = [None if t.grad is None else t.grad.detach().numpy().copy() for t in leaves]
    return nodes, grads, base.detach().numpy().copy()


@pytest.mark.parametrize(("rule", "name"), CALLS, ids=[f"{r.op}-{n}" for r, n in CALLS])
def test_an_inplace_write_through_a_view_rebases_the_base_as_torch_does(rule, name):
    """``base[::2].mul_(a)``: the base's grad_fn becomes CopySlices and the view's
    AsStridedBackward0; gradients reach the base's history and the op's other inputs."""
    ours_nodes, ours_grads, ours_values = _call_through_view(npgrad, rule.op, name)
    torch_nodes, torch_grads, torch_values = _call_through_view(torch, rule.op, name)
    assert ours_nodes == torch_nodes == ("CopySlices", "AsStridedBackward0")
    if isinstance(torch_grads, str):
        assert ours_grads == torch_grads
        return
    np.testing.assert_allclose(ours_values, torch_values, rtol=1e-6)
    for ours, theirs in zip(ours_grads, torch_grads, strict=True):
        if theirs is None:
            assert ours is None
        else:
            np.testing.assert_allclose(ours, theirs, rtol=1e-6, atol=1e-7)
