"""Turn the live tensors of a run into a model Graph (works on torch and npgrad alike).

Both engines expose torch's graph API (``grad_fn``, ``next_functions``, ``AccumulateGrad
.variable``), so one walk serves both; the engine only says how to read an array. The walk is
iterative: a 100,000-node graph builds without recursion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from playground.model import ArrayData, Graph, GraphEdge, GraphNode
from playground.model.arrays import (
    FULL_VALUES_LIMIT,
    PLOTTED_TENSORS,
    SCATTER_LIMIT,
    PointDensity,
)
from playground.npgrad.autograd import describe_rule
from playground.npgrad.autograd.function import custom_rule_text

# Containers whose tensor items get names like ``weights[2]`` or ``params['w']``.
_SEQUENCES = (list, tuple)
# A result is bounded as it is built, never built whole and refused after (a list of a million
# rows became a million nodes and gigabytes; backprop through 3,000 steps, a 512 MB reply):
CONTAINER_TENSORS = 1000       # tensors drawn from one list, tuple or dict (its first ones)
GRAPH_NODES = 100_000          # nodes of one graph (the window draws this many)
GRAPH_VALUES = 2_000_000       # elements kept whole in a graph's values; past them, summaries


# What a user's object may raise when the graph builder looks at it after the run: anything
# but the Stop button's KeyboardInterrupt (a named_parameters() that raised SystemExit ended
# the kernel after the script had finished, where python exits 0)
USER_ERRORS = (Exception, SystemExit, GeneratorExit)


def grad_fn_of(tensor):
    """The tensor's grad_fn; None where torch refuses to say (a view made under no_grad
    whose base was written since: its repr shows ``grad_fn=<Invalid>``)."""
    try:
        return tensor.grad_fn
    except RuntimeError:
        return None


class EngineView:
    """What the builder needs from an engine: which objects are tensors, and their arrays."""

    def __init__(self, is_tensor: Callable[[Any], bool],
                 to_numpy: Callable[[Any], np.ndarray]) -> None:
        self.is_tensor = is_tensor
        self.to_numpy = to_numpy
        self.values_left = GRAPH_VALUES  # elements ``array`` may still keep whole

    def array(self, tensor) -> ArrayData:
        """The tensor's values (whole while the run's budget lasts, else a summary); one
        that cannot be read as a plain array (meta, sparse, bfloat16 on some builds, no
        memory left to summarise) keeps its shape and dtype."""
        try:
            values = self.to_numpy(tensor)
            limit = FULL_VALUES_LIMIT if values.size <= self.values_left else 0
            if values.size <= limit:
                self.values_left -= values.size
            return ArrayData.from_array(values, str(tensor.dtype), limit=limit)
        except USER_ERRORS:  # any tensor the user made must not end the run
            return unreadable_array(tensor)

    def snapshot(self, tensor) -> ArrayData | Snapshot:
        """The tensor's values as they are now, for the trace recorder to summarise later: a
        small one is only copied (2 µs, where a summary costs 15), since most of a loop's
        recorded calls are let go unread."""
        try:
            array = self.to_numpy(tensor)
            if array.size > FULL_VALUES_LIMIT:
                return ArrayData.from_array(array, str(tensor.dtype))
            return Snapshot(array.copy(), tensor.dtype)
        except USER_ERRORS:  # as in ``array``
            return unreadable_array(tensor)

    def safe_is_tensor(self, value) -> bool:
        """``is_tensor``, for objects whose ``__class__`` raises too."""
        try:
            return bool(self.is_tensor(value))
        except USER_ERRORS:  # a user's object: not a tensor
            return False


class Snapshot:
    """A copy of a small tensor's values and its dtype, not yet summarised."""

    __slots__ = ("array", "dtype")

    def __init__(self, array: np.ndarray, dtype) -> None:
        self.array, self.dtype = array, dtype


def unreadable_array(tensor) -> ArrayData:
    """What is known of a tensor whose values cannot be read: its shape and dtype."""
    try:
        shape = tuple(int(size) for size in tensor.shape)
    except USER_ERRORS:
        shape = ()
    try:
        dtype = str(tensor.dtype)
    except USER_ERRORS:
        dtype = "?"
    return ArrayData(shape, dtype, None, [], None, None, None)


def _torch_saved(fn) -> dict[str, Any]:
    """torch exposes what a node saved as ``_saved_<name>`` attributes (until they are freed)."""
    values = {}
    for attribute in dir(fn):
        if attribute.startswith("_saved_"):
            try:
                values[attribute[len("_saved_"):]] = getattr(fn, attribute)
            except RuntimeError:  # freed by a backward without retain_graph
                continue
    return values


def named_tensors(variables: dict[str, Any], view: EngineView,
                  notes: list[str] | None = None) -> list[tuple[str, Any]]:
    """(name, tensor) for every tensor the user's variables hold, in namespace order (from a
    container, its first CONTAINER_TENSORS; ``notes`` hears of the rest)."""
    found = []
    for name, value in list(variables.items()):
        if not isinstance(name, str) or name.startswith("_"):
            continue
        try:
            found.extend(_tensors_in(name, value, view, notes))
        except USER_ERRORS:  # a user's object that breaks when looked at: not drawn
            continue
    return found


def _tensors_in(name: str, value, view: EngineView,
                notes: list[str] | None) -> list[tuple[str, Any]]:
    is_tensor = view.safe_is_tensor
    if is_tensor(value):
        return [(name, value)]
    if isinstance(value, _SEQUENCES):
        items = ((f"{name}[{i}]", item) for i, item in enumerate(value))
    elif isinstance(value, dict):
        items = ((f"{name}[{_key_text(key)}]", item) for key, item in value.items())
    else:
        items = ((f"{name}.{key}", item) for key, item in _module_parameters(value))
    found = []
    for item_name, item in items:
        if is_tensor(item):
            if len(found) == CONTAINER_TENSORS:
                if notes is not None:
                    notes.append(f"{name} holds more than {CONTAINER_TENSORS:,} tensors: the "
                                 f"graph shows the first {CONTAINER_TENSORS:,}")
                break
            found.append((item_name, item))
    return found


def _key_text(key) -> str:
    try:
        return repr(key)
    except USER_ERRORS:  # a key whose repr raises
        return f"<{type(key).__name__} key>"


def is_module(value) -> bool:
    """An nn.Module of either engine, recognised by its methods."""
    try:
        return not isinstance(value, type) and callable(getattr(value, "named_modules", None)) \
            and callable(getattr(value, "named_parameters", None))
    except USER_ERRORS:  # a __getattr__ that raises anything at all
        return False


def _module_parameters(value) -> list[tuple[str, Any]]:
    """An nn.Module's parameters, else none."""
    if not is_module(value):
        return []
    try:
        return list(value.named_parameters())
    except USER_ERRORS:  # a user's object with a method of that name: not a module after all
        return []


class _Builder:
    """Holds the walk's state: graph being built and the id given to each live object."""

    def __init__(self, view: EngineView) -> None:
        self.view = view
        self.graph = Graph()
        self.cut = False  # the graph reached GRAPH_NODES and was not followed further
        self.ids: dict[int, str] = {}
        self.keep: list[Any] = []  # live objects whose id() is a key, so no id is reused
        self.plotted = 0  # tensors with a gradient so far: the first ones are plotted

    def _new_id(self, obj) -> str:
        node_id = f"n{len(self.graph.nodes)}"
        self.ids[id(obj)] = node_id
        self.keep.append(obj)
        return node_id

    def tensor(self, tensor, name: str | None = None) -> str:
        node_id = self.ids.get(id(tensor))
        if node_id is not None:
            node = self.graph.nodes[int(node_id[1:])]
            if name is not None and name not in node.names:
                node.names.append(name)
            return node_id
        node_id = self._new_id(tensor)
        made_by = grad_fn_of(tensor)
        kind = "tensor" if made_by is not None else (
            "leaf" if tensor.requires_grad else "constant")
        grad = tensor.grad if kind == "leaf" or getattr(tensor, "retains_grad", False) else None
        node = GraphNode(
            id=node_id, kind=kind, label=name or "", names=[name] if name else [],
            shape=tuple(int(s) for s in tensor.shape), dtype=str(tensor.dtype),
            device=str(tensor.device), requires_grad=bool(tensor.requires_grad),
            is_leaf=made_by is None)  # (torch's is_leaf, without its error for such views)
        if grad is not None and self.plotted < PLOTTED_TENSORS and "complex" not in node.dtype:
            self.plotted += 1
            self._plotted(node, tensor, grad)
        else:
            node.value = self.view.array(tensor)
            node.grad = None if grad is None else self.view.array(grad)
        self.graph.nodes.append(node)
        return node_id

    def _plotted(self, node: GraphNode, tensor, grad) -> None:
        """A tensor the plots show: every (value, gradient) point up to SCATTER_LIMIT, above
        it a density of all of them (the arrays are read once)."""
        try:
            values, grads = self.view.to_numpy(tensor), self.view.to_numpy(grad)
        except USER_ERRORS:  # values that cannot be read: shape and dtype only
            node.value, node.grad = self.view.array(tensor), self.view.array(grad)
            return
        node.value = ArrayData.from_array(values, str(tensor.dtype), limit=SCATTER_LIMIT)
        node.grad = ArrayData.from_array(grads, str(grad.dtype), limit=SCATTER_LIMIT)
        if node.value.summarised and values.dtype.kind in "biuf" and grads.dtype.kind in "biuf":
            node.density = PointDensity.of(values, grads)

    def function(self, fn) -> tuple[str, bool]:
        """The id of a grad_fn node, and whether it was new."""
        node_id = self.ids.get(id(fn))
        if node_id is not None:
            return node_id, False
        node_id = self._new_id(fn)
        name = type(fn).__name__
        kind = "accumulate" if name == "AccumulateGrad" else "function"
        self.graph.nodes.append(GraphNode(
            id=node_id, kind=kind, label=name, saved=self._saved(fn), rule=_rule_of(fn, name)))
        return node_id, True

    def _saved(self, fn) -> dict[str, ArrayData]:
        values = fn.saved_values() if hasattr(fn, "saved_values") else _torch_saved(fn)
        return {name: self.view.array(value) for name, value in values.items()
                if self.view.is_tensor(value)}

    def walk(self, start: list) -> None:
        """Add every node reachable from the function nodes in ``start`` (no recursion)."""
        stack = list(start)
        while stack:
            fn = stack.pop()
            source = self.ids[id(fn)]
            if type(fn).__name__ == "AccumulateGrad":
                leaf = self.tensor(fn.variable)
                self.graph.edges.append(GraphEdge(source, leaf, "accumulate"))
                continue
            pending = []
            for position, (next_fn, _) in enumerate(fn.next_functions):
                if next_fn is None:
                    continue
                if id(next_fn) not in self.ids and len(self.graph.nodes) >= GRAPH_NODES:
                    self.cut = True
                    continue
                target, is_new = self.function(next_fn)
                self.graph.edges.append(GraphEdge(source, target, "next", position))
                if is_new:
                    pending.append(next_fn)
            stack.extend(reversed(pending))


def build_graph(variables: dict[str, Any], view: EngineView,
                extra_functions: Iterable = ()) -> tuple[Graph, dict[int, str]]:
    """The Graph of everything reachable from the variables (and from ``extra_functions``,
    the nodes a recorded backward ran); also returns id(live object) -> graph node id."""
    return graph_of(named_tensors(variables, view), view, extra_functions)


def graph_of(named: list[tuple[str, Any]], view: EngineView, extra_functions: Iterable = (),
             notes: list[str] | None = None,
             label: Callable[[Graph, list], None] | None = None) -> tuple[Graph, dict[int, str]]:
    """``build_graph`` from the variables' tensors already found (``named_tensors``);
    ``notes`` hears when the graph was cut at GRAPH_NODES; ``label(graph, objects)`` adds
    what is known of each node's live object (``objects[i]`` made ``graph.nodes[i]``)."""
    builder = _Builder(view)
    roots = []
    for name, tensor in named:
        tensor_id = builder.tensor(tensor, name)
        fn = grad_fn_of(tensor)
        if fn is not None:
            fn_id, is_new = builder.function(fn)
            builder.graph.edges.append(GraphEdge(tensor_id, fn_id, "output"))
            if is_new:
                roots.append(fn)
    for fn in extra_functions:
        if fn is not None and builder.ids.get(id(fn)) is None:
            builder.function(fn)
            roots.append(fn)
    builder.walk(list(reversed(roots)))
    _label_unnamed(builder.graph)
    if label is not None:
        label(builder.graph, builder.keep)
    if builder.cut and notes is not None:
        notes.append(f"the graph has more than {GRAPH_NODES:,} nodes: it is drawn up to "
                     "there from its outputs")
    return builder.graph, builder.ids


def _label_unnamed(graph: Graph) -> None:
    """A tensor's label is its plainest name (``w1`` over ``weights[0]``), else its kind."""
    for node in graph.nodes:
        if node.is_tensor:
            plain = [name for name in node.names if "[" not in name]
            node.label = (plain or node.names or [node.kind])[0]


def _rule_of(fn, name: str) -> str | None:
    """What the inspector shows as a node's rule: npgrad's own row, the backward the user
    wrote for a custom Function (both engines' nodes name its class), or torch's by name."""
    text = getattr(fn, "rule_text", None)  # npgrad's CopySlices: the write it wraps
    if callable(text):
        return text()
    rule = getattr(fn, "rule", None)
    if rule is not None:
        return rule.describe()
    function_class = getattr(fn, "_forward_cls", None)  # torch's custom Function nodes
    if isinstance(function_class, type):
        return custom_rule_text(function_class)
    return describe_rule(name)
