"""Record each backward()/autograd.grad() of user code as steps on live nodes (both engines).

Engines feed a TraceRecorder while user code runs; after the run, ``to_model`` turns the live
nodes into the ids of the run's Graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from playground.model import ArrayData, BackwardStep, BackwardTrace

# A training loop calls backward() once per step: only the latest calls are kept, so the
# graph shows their nodes (not 200 copies of the loss graph) and the run's result stays small.
KEPT_TRACES = 8
LOOP_CALLS = 3


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

    def __init__(self, array: Callable[[Any], ArrayData], keep: int = KEPT_TRACES) -> None:
        self.array = array
        self.keep = keep
        self.traces: list[LiveTrace] = []
        self.dropped = 0  # earlier calls no longer kept

    def optional_array(self, tensor) -> ArrayData | None:
        return None if tensor is None else self.array(tensor)

    def start(self, kind: str, roots: list) -> LiveTrace:
        trace = LiveTrace(kind, list(roots))
        self.traces.append(trace)
        if len(self.traces) > self.keep:
            del self.traces[0]
            self.dropped += 1
        return trace

    def kept(self) -> list[LiveTrace]:
        """The traces worth showing: of a loop's calls (three or more in a row that ran the
        same node names, like a training loop's backward() each step) only the last."""
        kept: list[LiveTrace] = []
        run: list[LiveTrace] = []
        for trace in [*self.traces, None]:
            if trace is not None and run and _signature(run[-1]) == _signature(trace):
                run.append(trace)
                continue
            if len(run) >= LOOP_CALLS:
                kept.append(run[-1])
                self.dropped += len(run) - 1
            else:
                kept.extend(run)
            run = [trace] if trace is not None else []
        self.traces = kept
        return kept

    def nodes(self) -> list:
        """Every node a kept trace names: the graph builder includes them all."""
        seen: dict[int, Any] = {}
        for trace in self.kept():
            for node in [*trace.roots, *(step.node for step in trace.steps)]:
                seen.setdefault(id(node), node)
        return list(seen.values())

    def to_model(self, ids: dict[int, str]) -> list[BackwardTrace]:
        return [
            BackwardTrace(trace.kind, [ids[id(root)] for root in trace.roots], [
                BackwardStep(ids[id(step.node)], type(step.node).__name__, step.incoming,
                             step.outgoing, step.grad_before, step.grad_after)
                for step in trace.steps])
            for trace in self.kept()
        ]


def _signature(trace: LiveTrace) -> tuple:
    return trace.kind, tuple(type(step.node).__name__ for step in trace.steps)
