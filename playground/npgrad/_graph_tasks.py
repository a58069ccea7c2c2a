"""The backward call now running on this thread (torch's current graph task): its id, and
whether it will run a given node, which ``register_multi_grad_hook`` asks."""

from __future__ import annotations

import itertools
import threading

from ._graph_order import count_dependencies
from ._nodes import Node

LEAF_UNDER_GRAD = ("A leaf node was passed to _will_engine_execute_node but we are currently "
                   "running autograd.grad(). This is currently not supported.")

_ids = itertools.count()
_running = threading.local()  # .tasks: the calls on this thread, innermost last


class GraphTask:
    """One backward()/grad() call: the root it starts from, and, when it runs only part of
    the graph, the nodes it needs and those whose gradient it only captures."""

    __slots__ = ("id", "root", "needed", "captured", "_in_graph")

    def __init__(self, root: Node, needed: set | None, captured) -> None:
        self.id = next(_ids)
        self.root = root
        self.needed = needed
        self.captured = captured
        self._in_graph: dict | None = None

    def will_execute(self, node: Node | None) -> bool:
        """torch's _will_engine_execute_node: reachable from the root and, in a call with
        inputs, needed for them or captured (a captured leaf is refused, as torch does)."""
        if self._in_graph is None:
            self._in_graph = count_dependencies(self.root)
        if node is None or (node is not self.root and node not in self._in_graph):
            return False
        if self.needed is None:
            return True
        if node in self.needed:
            return True
        if node not in self.captured:
            return False
        if not any(next_node is not None for next_node in node._next):
            raise RuntimeError(LEAF_UNDER_GRAD)
        return True


def start(root: Node, needed: set | None, captured) -> GraphTask:
    """Mark a backward call as running on this thread until ``finish``."""
    task = GraphTask(root, needed, captured)
    tasks = getattr(_running, "tasks", None)
    if tasks is None:
        tasks = _running.tasks = []
    tasks.append(task)
    return task


def finish() -> None:
    _running.tasks.pop()


def current() -> GraphTask | None:
    tasks = getattr(_running, "tasks", None)
    return tasks[-1] if tasks else None


def current_id() -> int:
    """torch._C._current_graph_task_id: -1 outside a backward call."""
    task = current()
    return -1 if task is None else task.id
