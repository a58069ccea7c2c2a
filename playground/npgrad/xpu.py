"""``torch.xpu`` for code that asks for an Intel GPU: the NumPy engine never has one, so it
answers as a torch built without XPU does (as torch.cuda answers without a GPU)."""

from __future__ import annotations

from ._missing import missing_attribute
from .cuda import device_count, empty_cache, is_available, is_initialized, manual_seed

__all__ = ["device_count", "empty_cache", "is_available", "is_initialized", "manual_seed",
           "manual_seed_all"]

manual_seed_all = manual_seed


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with XPU enabled")


synchronize = current_device = get_device_name = get_device_properties = set_device = \
    _not_compiled

__getattr__ = missing_attribute("torch.xpu")
