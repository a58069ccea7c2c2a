"""``torch.autograd.graph.register_multi_grad_hook``: one hook over the gradients of several
tensors, called once per backward call, when all of them (mode "all") or the first (mode
"any") have arrived."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from .. import _graph_tasks
from .._hook_lists import RemovableHandle
from .._tensor import Tensor

MODES = ("all", "any")
OUTSIDE_BACKWARD = "expected this hook to be called inside a backward call"


class _MultiHandle(RemovableHandle):
    """The handles of the tensor hooks one multi-grad hook is made of; removes them all."""

    __slots__ = ("handles",)

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __getstate__(self) -> tuple:
        return self.handles

    def __setstate__(self, state: tuple) -> None:
        self.handles = state


def register_multi_grad_hook(tensors: Sequence[Tensor], fn: Callable, *,
                             mode: str = "all") -> _MultiHandle:
    """Call ``fn`` with the tensors' gradients (None for those this backward does not
    compute) once all it computes have arrived; or, in mode "any", with the first one."""
    if mode not in MODES:
        raise ValueError(f"Expects mode to be one of {MODES} but got {mode}")
    if mode == "any":
        return _MultiHandle(_first_gradient_hooks(tensors, fn))
    return _MultiHandle(_all_gradients_hooks(tensors, fn))


def _task_id() -> int:
    task_id = _graph_tasks.current_id()
    if task_id == -1:
        raise AssertionError(OUTSIDE_BACKWARD)
    return task_id


def _node_of(tensor: Tensor):
    """The node a tensor's gradient reaches (its grad_fn, or a leaf's AccumulateGrad)."""
    node = tensor._grad_edge()[0]
    if node is None:
        raise AssertionError("Expected gradient function to be set")
    return node


def _all_gradients_hooks(tensors: Sequence[Tensor], fn: Callable) -> tuple:
    nodes = [_node_of(tensor) for tensor in tensors]
    lock = threading.Lock()
    arrived: dict[int, int] = {}   # per backward call: how many gradients came
    gradients: dict[int, list] = {}
    expected = [0]  # counted at the first gradient of a call, as torch counts it

    def hook_for(position: int) -> Callable:
        def collect(grad: Tensor) -> None:
            task_id = _task_id()
            with lock:
                so_far = arrived.get(task_id, 0)
                arrived[task_id] = so_far + 1
                slots = gradients.setdefault(task_id, [None] * len(nodes))
                if so_far == 0:
                    task = _graph_tasks.current()
                    expected[0] = sum(task.will_execute(node) for node in nodes)
            slots[position] = grad
            if so_far == expected[0] - 1:
                del arrived[task_id], gradients[task_id]
                fn(slots)
        return collect

    return tuple(tensor.register_hook(hook_for(position))
                 for position, tensor in enumerate(tensors))


def _first_gradient_hooks(tensors: Sequence[Tensor], fn: Callable) -> tuple:
    lock = threading.Lock()
    called_in: set[int] = set()

    def first(grad: Tensor) -> None:
        task_id = _task_id()
        with lock:
            if task_id in called_in:
                return
            called_in.add(task_id)
        fn(grad)

    return tuple(tensor.register_hook(first) for tensor in tensors if tensor.requires_grad)
