"""``torch.autograd.graph``: the Node type of grad_fn objects, the saved-tensor hooks, the hook
over several tensors' gradients, gradient edges and version counts."""

from __future__ import annotations

from .. import _saved_hooks
from .._missing import missing_attribute
from .._nodes import Node
from .._tensor import bump_version
from ._gradient_edges import GradientEdge, get_gradient_edge
from ._multi_grad_hook import _MultiHandle, register_multi_grad_hook
from ._mutation_on_saved import allow_mutation_on_saved_tensors

saved_tensors_hooks = _saved_hooks.saved_tensors_hooks
save_on_cpu = _saved_hooks.save_on_cpu
disable_saved_tensors_hooks = _saved_hooks.disable_saved_tensors_hooks

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "register_multi_grad_hook", "_MultiHandle", "GradientEdge", "get_gradient_edge",
           "increment_version", "allow_mutation_on_saved_tensors"]


def increment_version(tensor) -> None:
    """Count one more write into ``tensor`` (or each of several), as an in-place op would:
    saved values of it then refuse to unpack, for code that writes through .data."""
    for one in (tensor,) if hasattr(tensor, "_data") else tensor:
        bump_version(one)

__getattr__ = missing_attribute("torch.autograd.graph")
