"""``torch.cuda.amp``: torch.amp's autocast and GradScaler for CUDA, under their deprecated
names (torch says so, then that CUDA is not available)."""

from __future__ import annotations

from .. import amp as _amp
from .._missing import missing_attribute

GradScaler, autocast = _amp.deprecated_forms("cuda")

__getattr__ = missing_attribute("torch.cuda.amp")
