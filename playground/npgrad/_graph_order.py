"""The order a backward runs its nodes in, as torch's CPU engine does: the ready queue (a
``std::priority_queue`` by sequence number, ties broken as libstdc++'s heap breaks them) and
the walks over the graph (dependency counts, a topological order, what ``grad()`` needs)."""

from __future__ import annotations

from ._nodes import Node


def heap_push(items: list[Node], node: Node) -> None:
    """std::push_heap on a max-heap keyed by sequence number (libstdc++'s algorithm)."""
    items.append(node)
    _sift_up(items, len(items) - 1, node)


def _sift_up(items: list[Node], hole: int, node: Node) -> None:
    """std::__push_heap: move parents down until ``node`` fits at ``hole``."""
    key = node._seq
    while hole > 0:
        parent = (hole - 1) // 2
        if items[parent]._seq < key:
            items[hole] = items[parent]
            hole = parent
        else:
            break
    items[hole] = node


def heap_pop(items: list[Node]) -> Node:
    """std::pop_heap: equal keys (AccumulateGrad) come out in libstdc++'s order, as in torch."""
    top = items[0]
    value = items.pop()
    length = len(items)
    if not length:
        return top
    # std::__adjust_heap: walk the hole down to a leaf, then push the value back up.
    hole = 0
    child = 0
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if items[child]._seq < items[child - 1]._seq:
            child -= 1
        items[hole] = items[child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[hole] = items[child - 1]
        hole = child - 1
    _sift_up(items, hole, value)
    return top


class ReadyQueue:
    """torch's ready queue: ``std::priority_queue`` by sequence number, latest first."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[Node] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def push(self, node: Node) -> None:
        heap_push(self.items, node)

    def pop(self) -> Node:
        return heap_pop(self.items)


def count_dependencies(root: Node) -> dict[Node, int]:
    """How many edges point at each node reachable from ``root`` (iterative, no recursion)."""
    dependencies: dict[Node, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        arity = node.arity
        if arity == 1:
            edges = (node._n0,)
        elif arity == 2:
            edges = (node._n0, node._n1)
        elif arity == 0:
            continue
        else:
            edges = node._nx
        for next_node in edges:
            if next_node is None:
                continue
            if next_node in dependencies:
                dependencies[next_node] += 1
            else:
                # A DAG: the root is never an input, so "has a count" means "already visited".
                dependencies[next_node] = 1
                stack.append(next_node)
    return dependencies


def topological_order(root: Node) -> list[Node]:
    """Nodes reachable from ``root``, each before every node it feeds (Kahn's algorithm)."""
    dependencies = count_dependencies(root)
    order = []
    ready = [root]
    while ready:
        node = ready.pop()
        order.append(node)
        for next_node in node._next:
            if next_node is None:
                continue
            dependencies[next_node] -= 1
            if dependencies[next_node] == 0:
                ready.append(next_node)
    return order


def needed_nodes(root: Node, targets: set[Node]) -> set[Node]:
    """Nodes with a path to a target (targets excluded): the only ones ``grad()`` must run."""
    needed: set[Node] = set()
    for node in reversed(topological_order(root)):
        if any(nxt in needed or nxt in targets for nxt in node._next):
            needed.add(node)
    return needed
