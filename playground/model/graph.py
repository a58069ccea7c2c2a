"""Graph: the tensors and grad_fn nodes of a run, with edges in the direction backward flows.

JSON schema (``"schema": "autograd-playground/graph", "version": 3``)::

    {"schema": ..., "version": 3, "file": "chain_rule.py" | null,   # the code that ran
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
                "module": "model.layers.0.self_attn" | null,  # the innermost nn.Module whose
                                                      # forward made it (a parameter: its owner)
                "line": 7 | null,                     # the user's line that made it (1-based)
                "expression": "w3 * b" | null},       # and the expression there, as written
               ...],
     "edges": [{"source": "n0", "target": "n1", "kind": "output" | "next" | "accumulate",
                "input": 0}, ...],
     "modules": {"model.layers.0.self_attn": {"class": "MultiheadAttention",
                 "parameters": 4224,                  # elements, its submodules' included
                 "inputs": [[4, 10, 32], ...], "outputs": [[4, 10, 32], ...],  # tensors' shapes
                 "weights": [{"name": "in_proj_weight", "shape": [96, 32],   # at its last call
                              "grad_norm": 0.25 | null}, ...]}, ...]}

Edges follow the gradient: a tensor to the function that produced it ("output"), a function to
the function of its input number ``input`` ("next"), an AccumulateGrad to its leaf
("accumulate"). ArrayData is ``{"shape", "dtype", "values" (nested lists, or null when
summarised), "preview", "min", "max", "mean"}`` with inf/nan as strings and a complex element
as ``{"real": float, "imag": float}``.

Version 3 added ``"file"``, ``"line"`` and ``"expression"``: a node made by the user's code
has the line of the statement that made it (a node made inside a function the user wrote, the
function's line; one made inside a library, the user's line that called it) and, where it can
be told, the operation there (``w3 * b``, ``x.sum()``, ``model(x)``); a tensor, its grad_fn's;
a leaf, the top-level statement that assigns its name. Version 2 added ``"module"`` and
``"modules"``; older files read as graphs without them.
A module's path starts with the user's variable that holds it (``model``); one no variable
holds is named by its class. ``"modules"`` lists every module a node names and their parents.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import ClassVar

from playground.model.arrays import (
    ArrayData,
    PointDensity,
    optional_array,
    read_record,
    shared,
)

SCHEMA = "autograd-playground/graph"
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
KINDS = ("leaf", "tensor", "constant", "function", "accumulate")
EDGE_KINDS = ("output", "next", "accumulate")


@dataclass(slots=True)
class GraphNode:
    """A tensor (leaf, named intermediate, constant) or a backward function node."""

    WIRE_TAG: ClassVar[str] = "$N"
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
    module: str | None = None  # the path of the nn.Module that made it (Graph.modules)
    line: int | None = None  # the line of the user's code that made it
    expression: str | None = None  # the expression there that made it: "w3 * b"

    @property
    def is_tensor(self) -> bool:
        return self.kind in ("leaf", "tensor", "constant")

    def to_json(self, raw: bool = False) -> dict:
        """The schema's dict; with ``raw``, the wire's form (arrays.json_keys)."""
        if raw:
            return {self.WIRE_TAG: [
                self.id, self.kind, self.label, self.names,
                None if self.shape is None else list(self.shape), self.dtype, self.device,
                self.requires_grad, self.is_leaf,
                None if self.value is None else self.value.to_json(True),
                None if self.grad is None else self.grad.to_json(True),
                {name: array.to_json(True) for name, array in self.saved.items()}, self.rule,
                None if self.density is None else self.density.to_json(True),
                self.module, self.line, self.expression]}
        return {
            "id": self.id, "kind": self.kind, "label": self.label, "names": list(self.names),
            "shape": None if self.shape is None else list(self.shape), "dtype": self.dtype,
            "device": self.device, "requires_grad": self.requires_grad, "is_leaf": self.is_leaf,
            "value": None if self.value is None else self.value.to_json(),
            "grad": None if self.grad is None else self.grad.to_json(),
            "saved": {name: array.to_json() for name, array in self.saved.items()},
            "rule": self.rule,
            "density": None if self.density is None else self.density.to_json(),
            "module": self.module, "line": self.line, "expression": self.expression,
        }

    @classmethod
    def from_json(cls, data: dict | GraphNode) -> GraphNode:
        return read_record(cls, data, _NODE_OPTIONAL)

    @classmethod
    def from_wire(cls, items: list) -> GraphNode:
        (node_id, kind, label, names, shape, dtype, device, requires_grad, is_leaf, value,
         grad, saved, rule, density, module, line, expression) = items
        # (positional, in the fields' order: a large result makes 10^5 of them)
        return cls(
            shared(node_id), shared(kind), shared(label), [shared(name) for name in names],
            None if shape is None else tuple(shape), shared(dtype), shared(device),
            requires_grad, is_leaf, optional_array(value), optional_array(grad),
            {name: ArrayData.from_json(a) for name, a in saved.items()} if saved else {},
            shared(rule), None if density is None else PointDensity.from_json(density),
            shared(module), line, expression,
        )


# what a node of a version 1 or 2 file may lack
_NODE_OPTIONAL = frozenset({"rule", "density", "module", "line", "expression"})


@dataclass(frozen=True, slots=True)
class GraphEdge:
    """Gradient flows from ``source`` to ``target``; ``input`` is the position at the source."""

    WIRE_TAG: ClassVar[str] = "$E"
    source: str
    target: str
    kind: str
    input: int = 0

    def to_json(self, raw: bool = False) -> dict:
        """The schema's dict; with ``raw``, the wire's form (arrays.json_keys)."""
        if raw:
            return {self.WIRE_TAG: [self.source, self.target, self.kind, self.input]}
        return {"source": self.source, "target": self.target, "kind": self.kind,
                "input": self.input}

    @classmethod
    def from_json(cls, data: dict | GraphEdge) -> GraphEdge:
        return read_record(cls, data)

    @classmethod
    def from_wire(cls, items: list) -> GraphEdge:
        source, target, kind, index = items
        return cls(shared(source), shared(target), shared(kind), index)



@dataclass(frozen=True, slots=True)
class ModuleWeight:
    """One parameter of a module, and how large its gradient is."""

    name: str  # relative to the module: "linear1.weight"
    shape: tuple[int, ...]
    grad_norm: float | None  # None: no gradient

    def to_json(self) -> dict:
        return {"name": self.name, "shape": list(self.shape), "grad_norm": self.grad_norm}

    @classmethod
    def from_json(cls, data: dict) -> ModuleWeight:
        norm = data["grad_norm"]
        return cls(str(data["name"]), tuple(int(size) for size in data["shape"]),
                   None if norm is None else float(norm))


@dataclass(frozen=True, slots=True)
class GraphModule:
    """An nn.Module some nodes were made in: its class, size and the shapes through it."""

    class_name: str
    parameters: int = 0
    inputs: tuple[tuple[int, ...], ...] = ()
    outputs: tuple[tuple[int, ...], ...] = ()
    weights: tuple[ModuleWeight, ...] = ()

    def to_json(self) -> dict:
        return {"class": self.class_name, "parameters": self.parameters,
                "inputs": [list(shape) for shape in self.inputs],
                "outputs": [list(shape) for shape in self.outputs],
                "weights": [weight.to_json() for weight in self.weights]}

    @classmethod
    def from_json(cls, data: dict) -> GraphModule:
        return cls(str(data["class"]), int(data["parameters"]), _shapes(data["inputs"]),
                   _shapes(data["outputs"]),
                   tuple(ModuleWeight.from_json(weight) for weight in data["weights"]))


def _shapes(data: list) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(size) for size in shape) for shape in data)


def with_parents(paths) -> list[str]:
    """The module paths (None: no module) and all their parents, parents first."""
    every: set[str] = set()
    for path in paths:
        while path is not None and path not in every:
            every.add(path)
            path = parent_path(path)
    return sorted(every, key=lambda path: (path.count("."), path))


def parent_path(path: str) -> str | None:
    """``model.layers.0`` → ``model.layers``; a root's parent is None."""
    head, dot, _ = path.rpartition(".")
    return head if dot else None


@dataclass
class Graph:
    """The nodes and edges of one run, in discovery order, and the modules that made them."""

    nodes: list[GraphNode] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)
    modules: dict[str, GraphModule] = field(default_factory=dict)
    file: str | None = None  # the code that ran: its path, or "<cell>"

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
        return {"schema": SCHEMA, "version": VERSION, "file": self.file,
                "nodes": [node.to_json(raw) for node in self.nodes],
                "edges": [edge.to_json(raw) for edge in self.edges],
                "modules": {path: module.to_json() for path, module in self.modules.items()}}

    def dumps(self) -> str:
        return json.dumps(self.to_json())

    @classmethod
    def from_json(cls, data: dict) -> Graph:
        if data.get("schema") != SCHEMA:
            raise ValueError("not an Autograd Playground graph (missing or wrong 'schema')")
        if data.get("version") not in READABLE_VERSIONS:
            raise ValueError(f"graph schema version {data.get('version')} is not supported; "
                             f"this version reads {' and '.join(map(str, READABLE_VERSIONS))}")
        return cls([GraphNode.from_json(n) for n in data["nodes"]],
                   [GraphEdge.from_json(e) for e in data["edges"]],
                   {str(path): GraphModule.from_json(module)
                    for path, module in data.get("modules", {}).items()}, data.get("file"))

    @classmethod
    def loads(cls, text: str) -> Graph:
        return cls.from_json(json.loads(text))

    def to_dot(self) -> str:
        """Graphviz DOT: output at the top, leaves at the bottom, seed-tutorial colours; the
        nodes a module made inside its ``subgraph cluster_…``, nested as the modules are."""
        lines = ["digraph autograd {", '  graph [rankdir=TB, fontname="Helvetica"];',
                 '  node [fontname="Helvetica", fontsize=11];']
        members: dict[str | None, list[GraphNode]] = {}
        for node in self.nodes:
            members.setdefault(node.module, []).append(node)
        children: dict[str | None, list[str]] = {}
        for path in with_parents(members):
            children.setdefault(parent_path(path), []).append(path)
        _dot_cluster(self, None, members, children, lines, "  ")
        for edge in self.edges:
            lines.append(f"  {edge.source} -> {edge.target};")
        lines.append("}")
        return "\n".join(lines) + "\n"


def _dot_cluster(graph: Graph, path: str | None, members: dict, children: dict,
                 lines: list[str], indent: str) -> None:
    """The nodes of ``path`` (None: outside every module) and its submodules' clusters."""
    for node in members.get(path, ()):
        lines.append(f"{indent}{node.id} [{_dot_attributes(node)}];")
    for child in children.get(path, ()):
        module = graph.modules.get(child)
        label = child + ("" if module is None else f" · {module.class_name}")
        lines.append(f'{indent}subgraph "cluster_{_dot_text(child)}" {{')
        lines.append(f'{indent}  label="{_dot_text(label)}"; style="rounded,dashed"; '
                     'color="#8a94a6"; fontsize=10;')
        _dot_cluster(graph, child, members, children, lines, indent + "  ")
        lines.append(f"{indent}}}")


def _dot_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


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
