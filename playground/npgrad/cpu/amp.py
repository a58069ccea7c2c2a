"""``torch.cpu.amp``: torch.amp's autocast and GradScaler for the CPU, under their deprecated
names (torch says so)."""

from __future__ import annotations

from .. import amp as _amp
from .._missing import missing_attribute
from .._user_warnings import warn_at_user_code


class GradScaler(_amp.GradScaler):
    __module__ = "torch.cpu.amp.grad_scaler"

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000,
                 enabled: bool = True) -> None:
        warn_at_user_code("`torch.cpu.amp.GradScaler(args...)` is deprecated. Please use "
                          "`torch.amp.GradScaler('cpu', args...)` instead.", FutureWarning)
        super().__init__("cpu", init_scale, growth_factor, backoff_factor, growth_interval,
                         enabled)


class autocast(_amp.autocast):
    __module__ = "torch.cpu.amp.autocast_mode"

    def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True) -> None:
        warn_at_user_code("`torch.cpu.amp.autocast(args...)` is deprecated. Please use "
                          "`torch.amp.autocast('cpu', args...)` instead.", FutureWarning)
        super().__init__("cpu", dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


__getattr__ = missing_attribute("torch.cpu.amp")
