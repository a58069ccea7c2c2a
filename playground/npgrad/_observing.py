"""What a backward tells about itself: the steps observers hear (BackwardStep) and the
entries a logged call writes, for the player's recording (engines/trace_recorder.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class BackwardStep:
    """What one executed node did, as handed to observers: the data of one animation step."""

    __slots__ = ("node", "incoming", "outgoing", "grad_before", "grad_after")

    def __init__(self, node, incoming, outgoing, grad_before=None, grad_after=None) -> None:
        self.node = node
        self.incoming = incoming
        self.outgoing = outgoing
        self.grad_before = grad_before
        self.grad_after = grad_after

    def __repr__(self) -> str:
        return f"BackwardStep({self.node.name()})"


class Observers:
    """Callbacks told about every executed node of every backward pass (see ``observe``)."""

    callbacks: list[Callable[[BackwardStep], None]] = []
    backward_started: list[Callable[[Any], None]] = []
    backward_finished: list[Callable[[Any], None]] = []


def grad_copy(leaf):
    """A leaf's .grad values as they are now (None without one)."""
    return None if leaf._grad is None else leaf._grad._data.copy()


def logged(step: BackwardStep) -> tuple:
    """An observers' step as the plain loop logs one (arrays; the leaf's grads copied)."""
    def arrays(tensors):
        return tuple(None if tensor is None else tensor._data for tensor in tensors)

    return (step.node, arrays(step.incoming), arrays(step.outgoing),
            *arrays((step.grad_before, step.grad_after)))
