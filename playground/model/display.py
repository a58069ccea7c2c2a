"""What the graph view draws: repeated chains folded into "×N" nodes, stable keys, paths."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from playground.model.graph import Graph, GraphEdge, GraphModule, GraphNode
from playground.model.module_folding import AUTOMATIC, collapsed_modules, module_group_id

try:  # hashlib's own BLAKE2, without the OpenSSL library that importing hashlib loads
    from _blake2 import blake2b  # (10 ms of the window's start)
except ImportError:  # (a Python built without it)
    from hashlib import blake2b

# A run of at least this many identical backward nodes in a row folds into one "×N" node.
MIN_REPEAT = 4


@dataclass
class Group:
    """Nodes shown as one: consecutive identical function nodes ("MulBackward0 ×10"), or
    everything a collapsed nn.Module made (``module`` is its path)."""

    id: str
    label: str
    members: list[str]
    module: str | None = None
    info: GraphModule | None = None

    @property
    def title(self) -> str:
        if self.module is not None:
            return self.module
        return f"{self.label} ×{len(self.members)}"


@dataclass
class DisplayGraph:
    """The nodes and edges to draw: graph nodes, plus groups standing for folded chains and
    collapsed modules; the open modules as frames around what is drawn of them."""

    graph: Graph
    node_ids: list[str] = field(default_factory=list)
    edges: list[GraphEdge] = field(default_factory=list)
    groups: dict[str, Group] = field(default_factory=dict)
    group_of: dict[str, str] = field(default_factory=dict)  # member id -> group id
    frames: dict[str, list[str]] = field(default_factory=dict)  # open module -> drawn ids
    depth: int | None = None  # modules this deep or deeper start collapsed (None: none)

    def node(self, node_id: str) -> GraphNode | Group:
        return self.groups[node_id] if node_id in self.groups else self.graph.node(node_id)


def repeated_chains(graph: Graph) -> list[list[str]]:
    """Maximal runs of identical function nodes made in one module, each the only child of
    the one before."""
    nodes = {node.id: node for node in graph.nodes}
    outgoing: dict[str, list[str]] = {node.id: [] for node in graph.nodes}
    parents: dict[str, list[str]] = {node.id: [] for node in graph.nodes}
    for edge in graph.edges:
        outgoing[edge.source].append(edge.target)
        parents[edge.target].append(edge.source)
    incoming = {node_id: len(sources) for node_id, sources in parents.items()}

    def continues(a: str, b: str) -> bool:
        return (len(outgoing[a]) == 1 and incoming[b] == 1 and nodes[b].kind == "function"
                and nodes[b].label == nodes[a].label and nodes[b].module == nodes[a].module)

    chains, taken = [], set()
    for node in graph.nodes:
        start = node.id
        if node.kind != "function" or start in taken:
            continue
        # only start where the run really begins
        if incoming[start] == 1 and continues(parents[start][0], start):
            continue
        run = [start]
        while outgoing[run[-1]] and continues(run[-1], outgoing[run[-1]][0]):
            run.append(outgoing[run[-1]][0])
        if len(run) >= MIN_REPEAT:
            chains.append(run)
            taken.update(run)
    return chains


def fold(graph: Graph, expanded: set[str] = frozenset(),
         depth: int | None = AUTOMATIC) -> DisplayGraph:
    """The graph with every repeated chain folded and the modules ``depth`` deep or deeper
    collapsed (AUTOMATIC: as deep as keeps a large graph readable), except the groups whose
    id is in ``expanded``, which show the other way round."""
    display = DisplayGraph(graph)
    collapsed, display.depth, frames = collapsed_modules(graph, expanded, depth)
    for path, members in collapsed.items():
        group = Group(module_group_id(path), path, members, path, graph.modules.get(path))
        display.groups[group.id] = group
        for member in members:
            display.group_of[member] = group.id
    for run in repeated_chains(graph):
        group = Group(f"group:{run[0]}", graph.node(run[0]).label, run)
        if group.id in expanded or run[0] in display.group_of:
            continue
        display.groups[group.id] = group
        for member in run:
            display.group_of[member] = group.id
    for node in graph.nodes:
        if node.id not in display.group_of:
            display.node_ids.append(node.id)
    display.node_ids.extend(display.groups)
    display.frames = {path: list(dict.fromkeys(display.group_of.get(member, member)
                                               for member in members))
                      for path, members in frames.items()}
    seen = set()
    for edge in graph.edges:
        source = display.group_of.get(edge.source, edge.source)
        target = display.group_of.get(edge.target, edge.target)
        folded = (source, target) != (edge.source, edge.target)
        if source == target or (folded and (source, target) in seen):
            continue
        seen.add((source, target))
        display.edges.append(GraphEdge(source, target, edge.kind, edge.input))
    return display


def stable_keys(graph: Graph) -> dict[str, str]:
    """Keys that survive a re-run: tensors by variable name, functions by their path from one.

    Node ids are discovery numbers and change when the code changes; these keys let the view
    keep a node in place across runs.
    """
    keys: dict[str, str] = {}
    queue: deque[str] = deque()
    for node in graph.nodes:
        if node.is_tensor and node.names:
            keys[node.id] = f"tensor:{node.label}"
            queue.append(node.id)
    outgoing: dict[str, list[GraphEdge]] = {node.id: [] for node in graph.nodes}
    for edge in graph.edges:
        outgoing[edge.source].append(edge)
        # a named leaf's AccumulateGrad is its own, however the backward reached it: by
        # path its key changed with every pass more of a loop before it
        if edge.kind == "accumulate" and edge.target in keys:
            keys[edge.source] = f"accumulate:{keys[edge.target]}"
    while queue:
        source = queue.popleft()
        for edge in outgoing[source]:
            if edge.target not in keys:
                keys[edge.target] = _path_key(keys[source], edge.input,
                                              graph.node(edge.target).label)
                queue.append(edge.target)
    for node in graph.nodes:  # unreachable and unnamed: by position, the best there is
        keys.setdefault(node.id, f"node:{node.label}:{node.id}")
    return keys


PATH_KEY_LENGTH = 160


def _path_key(parent: str, input_index: int, label: str) -> str:
    """The parent's key plus one step; a long one is replaced by its digest, which is as stable
    across runs and keeps a 10^5-node chain's keys from adding up to gigabytes of text."""
    key = f"{parent}/{input_index}:{label}"
    if len(key) <= PATH_KEY_LENGTH:
        return key
    return "path:" + blake2b(key.encode(), digest_size=16).hexdigest()


@dataclass
class Paths:
    """Every path from one node to another: the nodes and edges on them, and how many."""

    start: str
    end: str
    nodes: set[str]
    edges: set[tuple[str, str]]
    count: int
    examples: list[list[str]]


def paths_between(graph: Graph, first: str, second: str, limit: int = 8) -> Paths | None:
    """Paths along the gradient's direction between two nodes, in whichever order they lie."""
    for start, end in ((first, second), (second, first)):
        found = _paths(graph, start, end, limit)
        if found is not None:
            return found
    return None


def _paths(graph: Graph, start: str, end: str, limit: int) -> Paths | None:
    outgoing: dict[str, list[str]] = {node.id: [] for node in graph.nodes}
    incoming: dict[str, list[str]] = {node.id: [] for node in graph.nodes}
    for edge in graph.edges:
        outgoing[edge.source].append(edge.target)
        incoming[edge.target].append(edge.source)
    ahead = _reachable(start, outgoing)
    if end not in ahead:
        return None
    behind = _reachable(end, incoming)
    on_path = ahead & behind
    edges = {(e.source, e.target) for e in graph.edges
             if e.source in on_path and e.target in on_path}
    counts = _count_paths(start, end, on_path, outgoing)
    examples: list[list[str]] = []
    stack = [[start]]
    while stack and len(examples) < limit:
        path = stack.pop()
        if path[-1] == end:
            examples.append(path)
            continue
        stack.extend(path + [nxt] for nxt in reversed(outgoing[path[-1]]) if nxt in on_path)
    return Paths(start, end, on_path, edges, counts, examples)


def _reachable(start: str, neighbours: dict[str, list[str]]) -> set[str]:
    seen = {start}
    stack = [start]
    while stack:
        for nxt in neighbours[stack.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def _count_paths(start: str, end: str, on_path: set[str],
                 outgoing: dict[str, list[str]]) -> int:
    """Paths from start to end, by counting in reverse topological order (no recursion)."""
    order: list[str] = []
    state: dict[str, int] = {}
    stack = [(start, 0)]
    state[start] = 1
    while stack:
        node, i = stack[-1]
        children = [c for c in outgoing[node] if c in on_path]
        if i < len(children):
            stack[-1] = (node, i + 1)
            if children[i] not in state:
                state[children[i]] = 1
                stack.append((children[i], 0))
        else:
            stack.pop()
            order.append(node)
    ways = {node: 0 for node in order}
    ways[end] = 1
    for node in order:
        if node != end:
            ways[node] = sum(ways[c] for c in outgoing[node] if c in on_path)
    return ways[start]
