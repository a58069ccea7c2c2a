"""Record each backward()/autograd.grad() of user code as steps on live nodes (both engines).

Engines feed a TraceRecorder while user code runs; after the run, ``to_model`` turns the live
nodes into the ids of the run's Graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.model import ArrayData, BackwardStep, BackwardTrace


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
    kind: str
    roots: list[Any]
    steps: list[LiveStep] = field(default_factory=list)


class TraceRecorder:
    """Collects the traces of one run; ``array`` turns an engine tensor into ArrayData."""

    def __init__(self, array: Callable[[Any], ArrayData]) -> None:
        self.array = array
        self.traces: list[LiveTrace] = []

    def optional_array(self, tensor) -> ArrayData | None:
        return None if tensor is None else self.array(tensor)

    def start(self, kind: str, roots: list) -> LiveTrace:
        trace = LiveTrace(kind, list(roots))
        self.traces.append(trace)
        return trace

    def nodes(self) -> list:
        """Every node a trace names: the graph builder includes them all."""
        seen: dict[int, Any] = {}
        for trace in self.traces:
            for node in [*trace.roots, *(step.node for step in trace.steps)]:
                seen.setdefault(id(node), node)
        return list(seen.values())

    def to_model(self, ids: dict[int, str]) -> list[BackwardTrace]:
        return [
            BackwardTrace(trace.kind, [ids[id(root)] for root in trace.roots], [
                BackwardStep(ids[id(step.node)], type(step.node).__name__, step.incoming,
                             step.outgoing, step.grad_before, step.grad_after)
                for step in trace.steps])
            for trace in self.traces
        ]
