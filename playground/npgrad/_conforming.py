"""A gradient made to fit the input it flows into (broadcasting undone, cast), and the steps
the backward loop logs before they are: most logged calls are let go unread."""

from __future__ import annotations

from ._bfloat16 import BFloat16Array
from ._complex_nodes import cast_gradient
from ._formula_numpy import NUMPY_KIT
from ._nodes import Node


def conform(out, next_node: Node):
    """Undo broadcasting and cast, so a gradient matches the input it flows into."""
    if out.shape != next_node._shape:
        out = NUMPY_KIT.sum_to(out, next_node._shape)
    if out.dtype != next_node._np_dtype or out.__class__ is BFloat16Array:
        out = cast_gradient(out, next_node._np_dtype)  # (bfloat16 into float32: plain)
    return out


class Unconformed(tuple):
    """A logged step's outgoing gradients as its formulas gave them, before they were reduced
    to their next nodes' shapes and cast (``logged_outgoing`` does that when the step is
    read): conforming each step of every logged call cost a loop a tenth of its time."""

    edges: tuple

    def __new__(cls, edges: tuple, outputs: tuple) -> Unconformed:
        raw = super().__new__(cls, outputs)
        raw.edges = edges
        return raw


def logged_outgoing(outputs: tuple) -> tuple:
    """The outgoing gradients of a step ``_execute_plain`` logged, as the next nodes took
    them. (The loop never adds into a logged array nor into a view of one, so the raw arrays
    still hold what they held.)"""
    if outputs.__class__ is Unconformed:
        return _conformed(outputs.edges, tuple(outputs))
    return outputs


def _conformed(edges: tuple, outputs: tuple) -> tuple:
    """The outputs as the next nodes took them (reduced to their shapes, cast); the tuple
    itself when all fit. (Only steps of the calls kept are read: no count is checked here, the
    backward loop's strict zip checked it when the step ran.)"""
    conformed = outputs
    for index, (next_node, out) in enumerate(zip(edges, outputs, strict=False)):
        if next_node is not None and out is not None and (
                out.shape != next_node._shape or out.dtype != next_node._np_dtype
                or out.__class__ is BFloat16Array):
            conformed = list(outputs) if conformed is outputs else conformed
            conformed[index] = conform(out, next_node)
    return conformed if conformed is outputs else tuple(conformed)
