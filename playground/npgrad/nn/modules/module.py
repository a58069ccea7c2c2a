"""``torch.nn.modules.module``: the Module class, and the hooks of every module's forward."""

from ..._missing import missing_attribute
from .._hooks import (
    register_module_forward_hook,
    register_module_forward_pre_hook,
    register_module_full_backward_hook,
    register_module_full_backward_pre_hook,
)
from . import Module

__all__ = ["Module", "register_module_forward_hook", "register_module_forward_pre_hook",
           "register_module_full_backward_hook", "register_module_full_backward_pre_hook"]

__getattr__ = missing_attribute("torch.nn.modules.module")
