"""The backward player's state at each step of a recorded trace: a pure function of the step.

Position 0 is "before backward"; position k (1..n) shows step k running, steps 1..k-1 done.
Everything drawn at a position (node states, the gradient on each edge, a node's rule with
numbers, every leaf's ``.grad``) is derived from the trace alone, so stepping back gives back
exactly the earlier state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playground.model.arrays import ArrayData, format_number
from playground.model.chain_words import ChainWords, step_words
from playground.model.graph import Graph
from playground.model.trace import BackwardStep, BackwardTrace

ORDER_EXPLAINED = (
    "Why this order: a node runs once every gradient flowing into it has arrived (its "
    "dependencies are counted first). Among the nodes that are ready, the one created last "
    "in the forward pass runs first (the highest sequence number), so backward retraces the "
    "forward pass in reverse; an AccumulateGrad runs as soon as it is ready.")


@dataclass
class EdgeFlow:
    """A gradient travelling (or having travelled) along one graph edge."""

    source: str
    target: str
    input: int
    value: ArrayData | None


@dataclass
class StepState:
    """What the views show at one position of the player."""

    position: int
    count: int
    running: str | None = None              # node id of the step being shown
    title: str = ""                         # "step 4 of 11 · MulBackward0"
    states: dict[str, str] = field(default_factory=dict)   # node id -> done/running/waiting
    arrived: list[EdgeFlow] = field(default_factory=list)  # sent, target not run yet
    moving: list[EdgeFlow] = field(default_factory=list)   # the running step's outputs
    explanation: list[str] = field(default_factory=list)   # the running step, in the
    # user's names (model/chain_words.py) ...
    torch_terms: list[str] = field(default_factory=list)   # ... and in torch's
    failure: str = ""  # the error the call raised at this step, whole (its last step only)
    leaf_grads: dict[str, ArrayData | None] = field(default_factory=dict)  # leaf id -> .grad
    step: BackwardStep | None = None
    glide_ms: int = 0  # how long the step's gradients glide along their edges (the player's)


class Playback:
    """Steps through one BackwardTrace drawn on its run's Graph."""

    def __init__(self, graph: Graph, trace: BackwardTrace) -> None:
        self.graph = graph
        self.trace = trace
        self.next_edges: dict[str, list] = {}
        self.leaf_of: dict[str, str] = {}
        for edge in graph.edges:
            if edge.kind == "next":
                self.next_edges.setdefault(edge.source, []).append(edge)
            elif edge.kind == "accumulate":
                self.leaf_of[edge.source] = edge.target
        for edges in self.next_edges.values():
            edges.sort(key=lambda e: e.input)
        self.members = {step.node for step in trace.steps}
        self.words = ChainWords(graph, trace)
        # Precomputed once, so that a step costs the same at step 5 and at step 800.
        steps = trace.steps
        self._step_flows = [self._flows(step) for step in steps]
        runs_at: dict[str, int] = {}
        for index, step in enumerate(steps):
            runs_at.setdefault(step.node, index)
        # each gradient is on its way from the step after its sender to the step its target runs
        self._in_flight = [(sent, runs_at.get(flow.target, len(steps)), flow)
                           for sent, flows in enumerate(self._step_flows) for flow in flows]
        self._accumulations = [(index, self.leaf_of[step.node], step)
                               for index, step in enumerate(steps)
                               if step.name == "AccumulateGrad" and step.node in self.leaf_of]

    @property
    def count(self) -> int:
        return len(self.trace.steps)

    def state(self, position: int) -> StepState:
        position = max(0, min(position, self.count))
        state = StepState(position, self.count)
        steps = self.trace.steps
        for index, step in enumerate(steps):
            if index < position - 1:
                state.states[step.node] = "done"
            elif index == position - 1:
                state.states[step.node] = "running"
            else:
                state.states.setdefault(step.node, "waiting")
        state.leaf_grads = self._leaf_grads(position)
        if position == 0:
            state.title = f"before backward: {self.count} steps" + (
            f" (it fails at step {self.count})" if self.trace.failed else "")
            state.explanation = [ORDER_EXPLAINED]
            return state
        now = position - 1
        step = steps[now]
        state.step = step
        state.running = step.node
        state.title = f"step {position} of {self.count} · {step.name}"
        state.arrived = [flow for sent, arrives, flow in self._in_flight
                         if sent < now <= arrives]
        state.moving = self._step_flows[now]
        state.torch_terms = self._explain(step)
        state.explanation = step_words(self.words, step, self.graph.node(step.node),
                                       self.next_edges.get(step.node, []))
        if self.trace.failed and position == self.count:
            # the node the call failed in: its step is the trace's last, and nothing flowed
            state.states[step.node] = "failed"
            state.title += " · the call failed here"
            state.moving = []
            state.failure = self.trace.failed
            kind = self.trace.failed.split(":", 1)[0]
            state.explanation = [f"{step.name} raised {kind}:",
                                 "the call stopped here (the console says why)"]
        return state

    def _flows(self, step: BackwardStep) -> list[EdgeFlow]:
        edges = self.next_edges.get(step.node, [])
        flows = []
        for edge in edges:
            value = step.outgoing[edge.input] if edge.input < len(step.outgoing) else None
            flows.append(EdgeFlow(edge.source, edge.target, edge.input, value))
        return flows

    def _leaf_grads(self, position: int) -> dict[str, ArrayData | None]:
        """Each leaf's .grad as it stands after ``position`` steps (before: as before)."""
        grads: dict[str, ArrayData | None] = {}
        for index, leaf, step in self._accumulations:
            if index < position:
                grads[leaf] = step.grad_after
            else:
                grads.setdefault(leaf, step.grad_before)
        return grads

    def _explain(self, step: BackwardStep) -> list[str]:
        """The running step in torch's terms (``grad_self = grad · other``), with numbers."""
        incoming = step.incoming[0] if step.incoming else None
        lines = [f"{step.name} receives grad = {brief(incoming)}"]
        if step.name == "AccumulateGrad":
            leaf = self.graph.node(self.leaf_of[step.node]) if step.node in self.leaf_of \
                else None
            name = leaf.label if leaf is not None else "leaf"
            lines.append(f"{name}.grad = {brief(step.grad_before)} + {brief(incoming)} "
                         f"= {brief(step.grad_after)}" if step.grad_before is not None else
                         f"{name}.grad = None + {brief(incoming)} = {brief(step.grad_after)}")
            return lines
        node = self.graph.node(step.node)
        formulas = _formulas(node.rule)
        for edge in self.next_edges.get(step.node, []):
            value = step.outgoing[edge.input] if edge.input < len(step.outgoing) else None
            target = self.graph.node(edge.target).label
            formula = formulas[edge.input] if edge.input < len(formulas) else \
                f"grad_{edge.input}"
            lines.append(f"{formula} = {brief(value)} → {target}")
        if not self.next_edges.get(step.node):
            lines.append("no input needs a gradient: nothing to send on")
        return lines


def _formulas(rule: str | None) -> list[str]:
    """``MulBackward0: grad_self = grad * other; ...`` -> ``["grad_self = grad · other", …]``."""
    if not rule or ": " not in rule or "\n" in rule:  # none, or a custom Function's own code
        return []
    return [readable(part.strip()) for part in rule.split(": ", 1)[1].split("; ")]


def readable(formula: str) -> str:
    """The table's helper calls as a student writes them: ``scale(grad, alpha)`` is
    ``alpha · grad``; products get a dot."""
    formula = re.sub(r"scale\((.+?), alpha\)", r"alpha · \1", formula)
    return formula.replace(" * ", " · ")


def brief(array: ArrayData | None, limit: int = 4) -> str:
    """``[0.2, 2.0, 0.0002]``: a gradient short enough for a label."""
    if array is None:
        return "None"
    values = array.preview[:limit]
    text = ", ".join(format_number(v) for v in values)
    size = 1
    for extent in array.shape:
        size *= extent
    if not array.shape:
        return text
    return f"[{text}{', …' if size > limit else ''}]"

