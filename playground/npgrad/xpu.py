"""``torch.xpu`` for code that asks for an Intel GPU: the NumPy engine never has one, so it
answers as a torch built without XPU does."""

from __future__ import annotations

from ._missing import missing_attribute


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed) -> None:  # (ignored where there is no XPU, as torch ignores it)
    return None


manual_seed_all = manual_seed


def empty_cache() -> None:
    return None


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with XPU enabled")


synchronize = current_device = get_device_name = get_device_properties = set_device = \
    _not_compiled

__getattr__ = missing_attribute("torch.xpu")
