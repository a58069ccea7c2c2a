"""Record each backward()/autograd.grad() of user code as steps on live nodes (both engines).

Engines feed a TraceRecorder while user code runs; after the run, ``to_model`` turns the live
nodes into the ids of the run's Graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.model import ArrayData, BackwardStep, BackwardTrace

# A training loop calls backward() once per step: every call is kept (the player lists each
# iteration) up to these limits, the latest ones; the run's result says how many were dropped.
KEPT_TRACES = 300
KEPT_STEPS = 30_000


@dataclass
class LiveStep:
    """A step still holding its node object (so its id stays valid until the graph exists)."""

    node: Any
    incoming: list[ArrayData | None]
    outgoing: list[ArrayData | None] = field(default_factory=list)
    grad_before: ArrayData | None = None
    grad_after: ArrayData | None = None


@dataclass
class LiveTrace:
    """One call's steps. ``follows``: a later call that ran the same nodes' kinds in the same
    order (the next iteration of a loop); this call is drawn on that one's nodes, so the graph
    holds one copy of a loop's graph, not one per iteration, and no old graph is kept alive."""

    kind: str
    roots: list[Any]
    steps: list[LiveStep] = field(default_factory=list)
    follows: LiveTrace | None = None
    names: tuple | None = None  # the steps' node names, kept when the nodes are let go


class TraceRecorder:
    """Collects the traces of one run; ``array`` turns an engine tensor into ArrayData."""

    def __init__(self, array: Callable[[Any], ArrayData], keep: int = KEPT_TRACES,
                 keep_steps: int = KEPT_STEPS) -> None:
        self.array = array
        self.keep = keep
        self.keep_steps = keep_steps
        self.traces: list[LiveTrace] = []
        self.dropped = 0  # earlier calls no longer kept
        self._steps = 0
        self._folded_all = False

    def optional_array(self, tensor) -> ArrayData | None:
        return None if tensor is None else self.array(tensor)

    def start(self, kind: str, roots: list) -> LiveTrace:
        if len(self.traces) >= 2:
            self._fold_into_next(self.traces[-2], self.traces[-1])
        trace = LiveTrace(kind, list(roots))
        self.traces.append(trace)
        self._folded_all = False
        self._steps = sum(len(t.steps) for t in self.traces)
        while len(self.traces) > self.keep or (self._steps > self.keep_steps
                                               and len(self.traces) > 1):
            self._steps -= len(self.traces[0].steps)
            del self.traces[0]
            self.dropped += 1
        return trace

    @staticmethod
    def _fold_into_next(earlier: LiveTrace, later: LiveTrace) -> None:
        """Let a loop's earlier call point at the next one's nodes instead of its own."""
        if earlier.follows is None and _signature(earlier) == _signature(later):
            earlier.names = _signature(earlier)
            earlier.follows = later
            earlier.roots = []
            for step in earlier.steps:
                step.node = None

    def _fold_all(self) -> None:
        """At the end of the run: the last calls of a loop fold too (start() folds a call
        only when the one after the next begins). Once: nodes() and to_model() both ask."""
        if self._folded_all:
            return
        for earlier, later in reversed(list(zip(self.traces, self.traces[1:], strict=False))):
            self._fold_into_next(earlier, later)
        self._folded_all = True

    def nodes(self) -> list:
        """Every node a trace names itself: the graph builder includes them all."""
        self._fold_all()
        seen: dict[int, Any] = {}
        for trace in self.traces:
            if trace.follows is None:
                for node in [*trace.roots, *(step.node for step in trace.steps)]:
                    seen.setdefault(id(node), node)
        return list(seen.values())

    def to_model(self, ids: dict[int, str]) -> list[BackwardTrace]:
        self._fold_all()
        return [self._model(trace, ids) for trace in self.traces]

    @staticmethod
    def _model(trace: LiveTrace, ids: dict[int, str]) -> BackwardTrace:
        drawn_on = trace
        while drawn_on.follows is not None:
            drawn_on = drawn_on.follows
        names = [type(step.node).__name__ for step in drawn_on.steps]
        return BackwardTrace(trace.kind, [ids[id(root)] for root in drawn_on.roots], [
            BackwardStep(ids[id(on.node)], name, step.incoming, step.outgoing,
                         step.grad_before, step.grad_after)
            for step, on, name in zip(trace.steps, drawn_on.steps, names, strict=True)])


def _signature(trace: LiveTrace) -> tuple:
    if trace.names is not None:
        return trace.names
    return trace.kind, tuple(type(step.node).__name__ for step in trace.steps)
