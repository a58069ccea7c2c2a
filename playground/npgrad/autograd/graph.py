"""``torch.autograd.graph``: the Node type of grad_fn objects, the saved-tensor hooks and the
hook over several tensors' gradients."""

from __future__ import annotations

from .. import _saved_hooks
from .._missing import missing_attribute
from .._nodes import Node
from ._multi_grad_hook import _MultiHandle, register_multi_grad_hook

saved_tensors_hooks = _saved_hooks.saved_tensors_hooks
save_on_cpu = _saved_hooks.save_on_cpu
disable_saved_tensors_hooks = _saved_hooks.disable_saved_tensors_hooks

__all__ = ["Node", "saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks",
           "register_multi_grad_hook", "_MultiHandle"]

__getattr__ = missing_attribute("torch.autograd.graph")
