"""``torch.cpu.amp``: torch.amp's autocast and GradScaler for the CPU, under their deprecated
names (torch says so)."""

from __future__ import annotations

from .. import amp as _amp
from .._missing import missing_attribute

GradScaler, autocast = _amp.deprecated_forms("cpu")

__getattr__ = missing_attribute("torch.cpu.amp")
