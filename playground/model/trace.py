"""BackwardTrace: what one backward()/autograd.grad() call did, node by node, in order.

JSON schema (``"schema": "autograd-playground/trace", "version": 1``)::

    {"schema": ..., "version": 1, "traces": [
        {"kind": "backward" | "grad", "roots": ["n3"],
         "steps": [{"node": "n3", "name": "MulBackward0",
                    "incoming": [ArrayData | null, ...],
                    "outgoing": [ArrayData | null, ...],     # one per next edge, in order
                    "grad_before": ArrayData | null,         # AccumulateGrad only
                    "grad_after": ArrayData | null}, ...],
         "call": 7}]}                                # which backward call of the run

Node ids are those of the run's Graph, so a step can be drawn on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import ClassVar

from playground.model.arrays import ArrayData, optional_array, read_record, shared

SCHEMA = "autograd-playground/trace"
VERSION = 1


def _optional(array: ArrayData | None, raw: bool = False):
    return None if array is None else array.to_json(raw)


@dataclass(slots=True)
class BackwardStep:
    """One executed node: the gradient it received and what it sent along each edge."""

    WIRE_TAG: ClassVar[str] = "$S"
    node: str
    name: str
    incoming: list[ArrayData | None]
    outgoing: list[ArrayData | None]
    grad_before: ArrayData | None = None
    grad_after: ArrayData | None = None

    def to_json(self, raw: bool = False) -> dict:
        """The schema's dict; with ``raw``, the wire's form (arrays.json_keys)."""
        incoming = [_optional(a, raw) for a in self.incoming]
        outgoing = [_optional(a, raw) for a in self.outgoing]
        before, after = _optional(self.grad_before, raw), _optional(self.grad_after, raw)
        if raw:
            return {self.WIRE_TAG: [self.node, self.name, incoming, outgoing, before, after]}
        return {"node": self.node, "name": self.name, "incoming": incoming,
                "outgoing": outgoing, "grad_before": before, "grad_after": after}

    @classmethod
    def from_json(cls, data: dict | BackwardStep) -> BackwardStep:
        return read_record(cls, data)

    @classmethod
    def from_wire(cls, items: list) -> BackwardStep:
        node, name, incoming, outgoing, before, after = items
        return cls(shared(node), shared(name), [optional_array(a) for a in incoming],
                   [optional_array(a) for a in outgoing], optional_array(before),
                   optional_array(after))


@dataclass
class BackwardTrace:
    """One backward() or autograd.grad() call of the user's code."""

    kind: str
    roots: list[str]
    steps: list[BackwardStep] = field(default_factory=list)
    call: int = 0  # which backward call of its run it was (1: the first; 0: not known)
    failed: str = ""  # the error that ended the call at its last step ("" if it completed)

    def to_json(self, raw: bool = False) -> dict:
        return {"kind": self.kind, "roots": list(self.roots),
                "steps": [step.to_json(raw) for step in self.steps], "call": self.call,
                "failed": self.failed}

    @classmethod
    def from_json(cls, data: dict) -> BackwardTrace:
        return cls(data["kind"], list(data["roots"]),
                   [BackwardStep.from_json(s) for s in data["steps"]], int(data.get("call", 0)),
                   str(data.get("failed", "")))


def traces_to_json(traces: list[BackwardTrace], raw: bool = False) -> dict:
    return {"schema": SCHEMA, "version": VERSION,
            "traces": [t.to_json(raw) for t in traces]}


def traces_from_json(data: dict) -> list[BackwardTrace]:
    if data.get("schema") != SCHEMA or data.get("version") != VERSION:
        raise ValueError("not a version-1 Autograd Playground trace file")
    return [BackwardTrace.from_json(t) for t in data["traces"]]


def dumps(traces: list[BackwardTrace]) -> str:
    return json.dumps(traces_to_json(traces))
