"""``torch.utils.hooks``: the handle every ``register_*hook`` returns."""

from .._hook_lists import RemovableHandle
from .._missing import missing_attribute

__all__ = ["RemovableHandle"]

__getattr__ = missing_attribute("torch.utils.hooks")
