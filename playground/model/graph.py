"""Graph: the tensors and grad_fn nodes of a run, with edges in the direction backward flows.

JSON schema (``"schema": "autograd-playground/graph", "version": 1``)::

    {"schema": ..., "version": 1,
     "nodes": [{"id": "n0", "kind": "leaf" | "tensor" | "constant" | "function" | "accumulate",
                "label": "x" | "MulBackward0" | "AccumulateGrad",
                "names": ["x", "weights[2]"],          # variables bound to a tensor node
                "shape": [2, 2], "dtype": "torch.float32", "device": "cpu",
                "requires_grad": true, "is_leaf": true,
                "value": ArrayData | null, "grad": ArrayData | null,
                "saved": {"self": ArrayData, ...},     # function nodes: tensors saved for backward
                "rule": "MulBackward0: grad_self = grad * other; ..." | null,  # function nodes
                "density": {"counts": [[int, ...], ...], "x_range": [lo, hi],  # a plotted
                            "y_range": [lo, hi], "points": int, "skipped": int} | null},
                            # tensor too large to send every point of
               ...],
     "edges": [{"source": "n0", "target": "n1", "kind": "output" | "next" | "accumulate",
                "input": 0}, ...]}

Edges follow the gradient: a tensor to the function that produced it ("output"), a function to
the function of its input number ``input`` ("next"), an AccumulateGrad to its leaf
("accumulate"). ArrayData is ``{"shape", "dtype", "values" (nested lists, or null when
summarised), "preview", "min", "max", "mean"}`` with inf/nan as strings and a complex element
as ``{"real": float, "imag": float}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from playground.model.arrays import ArrayData, PointDensity, shared

SCHEMA = "autograd-playground/graph"
VERSION = 1
KINDS = ("leaf", "tensor", "constant", "function", "accumulate")
EDGE_KINDS = ("output", "next", "accumulate")


@dataclass(slots=True)
class GraphNode:
    """A tensor (leaf, named intermediate, constant) or a backward function node."""

    id: str
    kind: str
    label: str
    names: list[str] = field(default_factory=list)
    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    device: str | None = None
    requires_grad: bool = False
    is_leaf: bool = False
    value: ArrayData | None = None
    grad: ArrayData | None = None
    saved: dict[str, ArrayData] = field(default_factory=dict)
    rule: str | None = None
    # a plotted tensor above SCATTER_LIMIT elements: all its (value, gradient) points, binned
    density: PointDensity | None = None

    @property
    def is_tensor(self) -> bool:
        return self.kind in ("leaf", "tensor", "constant")

    def to_json(self, raw: bool = False) -> dict:
        return {
            "id": self.id, "kind": self.kind, "label": self.label, "names": list(self.names),
            "shape": None if self.shape is None else list(self.shape), "dtype": self.dtype,
            "device": self.device, "requires_grad": self.requires_grad, "is_leaf": self.is_leaf,
            "value": None if self.value is None else self.value.to_json(raw),
            "grad": None if self.grad is None else self.grad.to_json(raw),
            "saved": {name: array.to_json(raw) for name, array in self.saved.items()},
            "rule": self.rule,
            "density": None if self.density is None else self.density.to_json(raw),
        }

    @classmethod
    def from_json(cls, data: dict | GraphNode) -> GraphNode:
        if isinstance(data, GraphNode):  # made while decoding: run_result.reply_hook
            return data
        return cls(
            id=shared(data["id"]), kind=shared(data["kind"]), label=shared(data["label"]),
            names=[shared(name) for name in data["names"]],
            shape=None if data["shape"] is None else tuple(data["shape"]),
            dtype=shared(data["dtype"]), device=shared(data["device"]),
            requires_grad=data["requires_grad"], is_leaf=data["is_leaf"],
            value=None if data["value"] is None else ArrayData.from_json(data["value"]),
            grad=None if data["grad"] is None else ArrayData.from_json(data["grad"]),
            saved={name: ArrayData.from_json(a) for name, a in data["saved"].items()},
            rule=shared(data.get("rule")),
            density=None if data.get("density") is None else
            PointDensity.from_json(data["density"]),
        )


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """Gradient flows from ``source`` to ``target``; ``input`` is the position at the source."""

    source: str
    target: str
    kind: str
    input: int = 0

    def to_json(self, raw: bool = False) -> dict:  # (``raw`` as every record: no arrays)
        return {"source": self.source, "target": self.target, "kind": self.kind,
                "input": self.input}

    @classmethod
    def from_json(cls, data: dict | GraphEdge) -> GraphEdge:
        if isinstance(data, GraphEdge):
            return data
        return cls(shared(data["source"]), shared(data["target"]), shared(data["kind"]),
                   data["input"])


@dataclass
class Graph:
    """The nodes and edges of one run, in discovery order."""

    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)

    def node(self, node_id: str) -> GraphNode:
        return self._index()[node_id]

    def node_ids(self) -> set[str]:
        return set(self._index())

    def _index(self) -> dict[str, GraphNode]:
        """id -> node, rebuilt only when nodes were added (views look nodes up per item)."""
        index = self.__dict__.get("_by_id")
        if index is None or len(index) != len(self.nodes):
            index = {node.id: node for node in self.nodes}
            self.__dict__["_by_id"] = index
        return index

    def by_name(self, name: str) -> GraphNode:
        """The tensor node a variable of the user's code is bound to."""
        for node in self.nodes:
            if name in node.names:
                return node
        raise KeyError(name)

    def to_json(self, raw: bool = False) -> dict:
        """The documented schema; ``raw`` keeps arrays as ndarrays for the kernel's wire."""
        return {"schema": SCHEMA, "version": VERSION,
                "nodes": [node.to_json(raw) for node in self.nodes],
                "edges": [edge.to_json() for edge in self.edges]}

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def from_json(cls, data: dict) -> Graph:
        if data.get("schema") != SCHEMA:
            raise ValueError("not an Autograd Playground graph (missing or wrong 'schema')")
        if data.get("version") != VERSION:
            raise ValueError(f"graph schema version {data.get('version')} is not supported; "
                             f"this version reads {VERSION}")
        return cls([GraphNode.from_json(n) for n in data["nodes"]],
                   [GraphEdge.from_json(e) for e in data["edges"]])

    @classmethod
    def loads(cls, text: str) -> Graph:
        return cls.from_json(json.loads(text))

    def to_dot(self) -> str:
        """Graphviz DOT: output at the top, leaves at the bottom, seed-tutorial colours."""
        lines = ["digraph autograd {", '  graph [rankdir=TB, fontname="Helvetica"];',
                 '  node [fontname="Helvetica", fontsize=11];']
        for node in self.nodes:
            lines.append(f"  {node.id} [{_dot_attributes(node)}];")
        for edge in self.edges:
            lines.append(f"  {edge.source} -> {edge.target};")
        lines.append("}")
        return "\n".join(lines) + "\n"


_DOT_STYLE = {
    "leaf": 'shape=box, style="rounded,filled", fillcolor="#b9e4b0"',
    "tensor": 'shape=box, style="rounded,filled", fillcolor="#fbe7a1"',
    "constant": 'shape=box, style="rounded,dashed"',
    "function": 'shape=box, style=filled, fillcolor="#d6e2f5"',
    "accumulate": 'shape=box, style=filled, fillcolor="#e4e4e4"',
}


def _dot_attributes(node: GraphNode) -> str:
    label = node.label
    if node.is_tensor and node.shape is not None:
        label += "\\n" + "(" + ", ".join(str(s) for s in node.shape) + ")"
    label = label.replace('"', '\\"')
    return f'label="{label}", {_DOT_STYLE[node.kind]}'
