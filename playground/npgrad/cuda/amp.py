"""``torch.cuda.amp``: torch.amp's autocast and GradScaler for CUDA, under their deprecated
names (torch says so, then that CUDA is not available)."""

from __future__ import annotations

from .. import amp as _amp
from .._missing import missing_attribute

GradScaler, autocast = _amp.deprecated_forms("cuda")


def custom_fwd(fwd=None, *, cast_inputs=None):
    _amp.warn_at_user_code("`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
                           "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.",
                           FutureWarning)
    return _amp.custom_fwd(fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd=None):
    _amp.warn_at_user_code("`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use "
                           "`torch.amp.custom_bwd(args..., device_type='cuda')` instead.",
                           FutureWarning)
    return _amp.custom_bwd(bwd, device_type="cuda")

__getattr__ = missing_attribute("torch.cuda.amp")
