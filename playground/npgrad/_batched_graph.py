"""vmap's graph: the graphs of a function's calls on each sample joined into one graph of
batched nodes, as torch's vmap records one node per op of the batched call.

``vmap`` calls the function once per sample. Where those calls recorded the same ops (the
same node types, joined the same way), their nodes are joined position by position into a
``BatchedNode`` named as the op's node: its gradient is the samples' gradients side by side,
and its backward runs each sample's node on its own row. A node the samples share (a
parameter's AccumulateGrad, a value computed before the map) stays one node and gets the
sum of the samples' gradients. The slices ``vmap`` made of a mapped input are joined back
into that input (moved to the front first: torch's PermuteBackward0 for ``in_dims`` other
than 0). Calls whose graphs differ keep the stacked results (StackBackward0).
"""

from __future__ import annotations

import numpy as np

from ._nodes import AccumulateGrad, GraphRoot, Node, NodeOutput, new_sequence_number, release_saved

# An op on all of a sample's elements is, on the batch, the same op over all dimensions
# but the batch's, and a squeeze of one dimension a squeeze of a list of them: torch's
# batched node is that overload's.
_BATCHED_NAMES = {"SumBackward0": "SumBackward1", "MeanBackward0": "MeanBackward1",
                  "SqueezeBackward4": "SqueezeBackward5"}
_CLASSES: dict[tuple[str, str], type] = {}


class UnjoinableError(Exception):
    """The calls' graphs differ: their results are stacked instead."""


class BatchedNode(Node):
    """One op of the batched call: the samples' nodes of that op, run row by row."""

    custom = True
    plain = False
    arity = -1
    __module__ = "torch"
    __slots__ = ("members", "shared")

    def __init__(self, members: tuple, edges: tuple, shared: tuple) -> None:
        first = members[0]
        self._nx = edges
        self._saved = self._versions = ()
        self._shape = (len(members), *first._shape)
        self._np_dtype = first._np_dtype
        self._hooks = self._deps = self._pending = None
        self._exact = False
        self._seq = new_sequence_number()
        self.members, self.shared = members, shared

    def name(self) -> str:
        return self.member_name

    def rule_text(self) -> str:
        """What the inspector shows: the op's own rule, row by row of the batch."""
        rule = getattr(self.members[0], "rule", None)
        own = rule.describe() if rule is not None else self.members[0].name()
        return (f"vmap's batch of {len(self.members)}: each row through its own call's "
                f"node, {own}")

    def run_backward(self, grad, as_tensors: bool) -> tuple:
        from ._engine import _apply_function, _conform_value  # (the engine imports nodes)

        rows = [[] for _ in self._nx]
        for index, member in enumerate(self.members):
            sent = _apply_function(member, grad[index], as_tensors)
            for position, (edge, out) in enumerate(zip(member._next, sent, strict=False)):
                rows[position].append(_conform_value(out, edge, as_tensors))
        return tuple(self._joined(position, row, as_tensors) for position, row in
                     enumerate(rows))

    def _joined(self, position: int, row: list, as_tensors: bool):
        """The gradient for one input: the samples' side by side, or summed where shared."""
        if self._nx[position] is None or all(g is None for g in row):
            return None
        edges = [member._next[position] for member in self.members]
        row = [_zeros(edge, as_tensors) if g is None else g for g, edge in zip(row, edges,
                                                                                 strict=True)]
        if self.shared[position]:
            total = row[0]
            for g in row[1:]:
                total = total + g
            return total
        if as_tensors:
            from ._shapes import stack

            return stack(row)
        return np.stack(row)

    def release(self) -> None:
        """The samples' nodes free what they saved, as this node's would be freed."""
        for member in self.members:
            release_saved(member)


def _zeros(edge: Node, as_tensors: bool):
    values = np.zeros(edge._shape, edge._np_dtype)
    if as_tensors:
        from ._tensor import Tensor

        return Tensor._make(values)
    return values


def _batched_class(member: Node) -> type:
    """The BatchedNode subclass named as the op's batched node (one per name)."""
    name = member.name()
    batched = _BATCHED_NAMES.get(name, name)
    key = (type(member).__name__, batched)
    if key not in _CLASSES:
        class_name = _BATCHED_NAMES.get(key[0], key[0])
        _CLASSES[key] = type(class_name, (BatchedNode,),
                             {"__slots__": (), "member_name": batched, "__module__": "torch"})
    return _CLASSES[key]


class Joiner:
    """Joins the samples' graphs; ``slices`` holds the nodes of the slices vmap cut from the
    mapped inputs (by id: the node and which sample it is)."""

    def __init__(self) -> None:
        self.slices: dict[int, tuple[Node, int]] = {}
        self.joined: dict[tuple[int, ...], tuple[Node, bool]] = {}

    def note_slice(self, node: Node | None, index: int) -> None:
        if node is not None:
            self.slices[id(node)] = (node, index)

    def root(self, members: tuple) -> Node:
        """The batched node of the samples' results' nodes (each result's own op)."""
        node, shared = self.edge(members)
        if shared or not isinstance(node, BatchedNode):
            raise UnjoinableError
        return node

    def edge(self, members: tuple) -> tuple[Node | None, bool]:
        """The batched graph's node for these samples' nodes, and whether it is shared."""
        first = members[0]
        if all(member is first for member in members):
            return first, True
        if any(member is None for member in members):
            raise UnjoinableError
        key = tuple(id(member) for member in members)
        if key not in self.joined:
            self.joined[key] = (self._sliced(members) or self._joined(members), False)
        return self.joined[key]

    def _sliced(self, members: tuple) -> Node | None:
        """The mapped input's node, where these are the slices vmap cut from it in order."""
        for index, member in enumerate(members):
            noted = self.slices.get(id(member))
            if noted is None or noted[0] is not member or noted[1] != index or \
                    member._next[0] is not members[0]._next[0]:
                return None
        return members[0]._next[0]

    def _joined(self, members: tuple) -> Node:
        first = members[0]
        kind = type(first)
        if kind in (AccumulateGrad, GraphRoot, NodeOutput) or any(
                type(member) is not kind or member._hooks is not None
                or member._shape != first._shape or len(member._next) != len(first._next)
                for member in members):
            raise UnjoinableError
        edges, shared = [], []
        for position in range(len(first._next)):
            node, is_shared = self.edge(tuple(member._next[position] for member in members))
            edges.append(node)
            shared.append(is_shared)
        return _batched_class(first)(members, tuple(edges), tuple(shared))
