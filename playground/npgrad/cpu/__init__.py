"""``torch.cpu``: the one device this engine computes on, as torch describes it (available,
one device, nothing to synchronize); torch.cpu.amp is torch.amp's for the CPU."""

from __future__ import annotations

from .._missing import missing_attribute
from . import amp  # noqa: F401  (torch.cpu.amp)


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def synchronize(device=None) -> None:
    return None


__getattr__ = missing_attribute("torch.cpu")
