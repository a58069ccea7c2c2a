"""The lists of hooks nodes and leaves hold, the handles that take a hook out again, and the
dict a node keeps for its user (_nodes.py re-exports them: they are part of its graph
objects)."""

from __future__ import annotations

import weakref
from collections.abc import Callable

from . import _tensor

# grad_fn.metadata: made for the nodes that are asked for one (most never are), and gone
# with its node
_METADATA: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def node_metadata(node) -> dict:
    """The node's own dict, the same at each call (torch's ``grad_fn.metadata``)."""
    found = _METADATA.get(node)
    if found is None:
        found = _METADATA[node] = {}
    return found


class RemovableHandle:
    """Returned by every ``register_*hook``; ``remove()`` takes the hook out again."""

    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks: list, hook: Callable) -> None:
        self._hooks = hooks
        self._hook = hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info) -> None:
        self.remove()


class LeafHooks(list):
    """A leaf's tensor hooks (the list: each sees its gradient before it accumulates) and
    its post-accumulate-grad hooks (each sees the leaf after). True while it holds any, so
    the engine's fast path checks one attribute for both."""

    def __init__(self, hooks=()) -> None:
        super().__init__(hooks)
        self.post_accumulate: list[Callable] = []

    def __bool__(self) -> bool:
        return bool(self.post_accumulate) or len(self) > 0


def run_post_accumulate_hooks(leaf) -> None:
    hooks = getattr(leaf._hooks, "post_accumulate", ())
    for hook in list(hooks):
        result = hook(leaf)
        if result is None:
            continue
        if not isinstance(result, _tensor.Tensor):
            raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
        raise RuntimeError("Tensor post accumulate grad hooks should return None.")


class NodeHooks:
    """The rarely used hook lists of one node, kept apart so plain nodes stay small."""

    __slots__ = ("tensor_pre", "retain", "pre", "post")

    def __init__(self) -> None:
        self.tensor_pre: list[Callable] = []
        self.retain: weakref.ref | None = None
        self.pre: list[Callable] = []
        self.post: list[Callable] = []
