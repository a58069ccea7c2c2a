"""Compare two engines' graphs and traces: structure exactly, arrays to float tolerance."""

from __future__ import annotations

import numpy as np

from playground.model import ArrayData, Graph
from playground.model.trace import BackwardTrace


def assert_arrays_close(actual: ArrayData | None, expected: ArrayData | None, where: str) -> None:
    assert (actual is None) == (expected is None), where
    if actual is None:
        return
    assert actual.shape == expected.shape and actual.dtype == expected.dtype, where
    if expected.values is not None:
        np.testing.assert_allclose(actual.values, expected.values, rtol=2e-5, atol=1e-6,
                                   err_msg=where)


STRUCTURE = ("id", "kind", "label", "names", "shape", "dtype", "device", "requires_grad",
             "is_leaf", "module", "line", "expression")


def assert_same_graph(actual: Graph, expected: Graph) -> None:
    assert [tuple(getattr(n, f) for f in STRUCTURE) for n in actual.nodes] == [
        tuple(getattr(n, f) for f in STRUCTURE) for n in expected.nodes]
    assert actual.edges == expected.edges
    for mine, theirs in zip(actual.nodes, expected.nodes, strict=True):
        assert_arrays_close(mine.value, theirs.value, f"value of {mine.id} {mine.label}")
        assert_arrays_close(mine.grad, theirs.grad, f"grad of {mine.id} {mine.label}")


def assert_same_traces(actual: list[BackwardTrace], expected: list[BackwardTrace]) -> None:
    assert [(t.kind, t.roots, [(s.node, s.name) for s in t.steps]) for t in actual] == [
        (t.kind, t.roots, [(s.node, s.name) for s in t.steps]) for t in expected]
    for mine, theirs in zip(actual, expected, strict=True):
        for step, other in zip(mine.steps, theirs.steps, strict=True):
            where = f"{step.name} at {step.node}"
            assert len(step.incoming) == len(other.incoming), where
            assert len(step.outgoing) == len(other.outgoing), where
            for a, b in zip(step.incoming + step.outgoing, other.incoming + other.outgoing,
                            strict=True):
                assert_arrays_close(a, b, where)
            assert_arrays_close(step.grad_before, other.grad_before, where)
            assert_arrays_close(step.grad_after, other.grad_after, where)
