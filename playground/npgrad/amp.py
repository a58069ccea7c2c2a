"""``torch.amp``: mixed precision as a CPU build of torch has it. autocast to CUDA says it is
unavailable and steps aside (so do float32 targets on the CPU); on the CPU, to bfloat16 (its
default) or float16, the ops cast as torch's CPU autocast casts them (``_autocast``).
GradScaler scales losses and unscales gradients as torch's does (powers of two: exact), skips
steps whose gradients are not finite and grows or backs off its scale; for CUDA it says it is
disabled and passes through."""

from __future__ import annotations

import functools
import math
from collections import defaultdict

import numpy as np

from ._autocast import AutocastState, entered, left
from ._dtype import bfloat16, float16, float32
from ._missing import SaysWhatItLacks
from ._tensor import Tensor
from ._user_warnings import warn_at_user_code

DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")
NO_CUDA_AUTOCAST = "CUDA is not available or torch_xla is imported. Disabling autocast."
CPU_DTYPES = ("In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
              "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.")
NO_CUDA_SCALER = "torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling."


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for ``device_type`` (CUDA's when not given)."""
    if device_type is not None and device_type.split(":")[0] == "cpu":
        return AutocastState.cpu_enabled
    return AutocastState.cuda_enabled


def set_autocast_enabled(*args) -> None:
    """``(device_type, enabled)``, or ``(enabled)`` for CUDA: the flag autocast sets."""
    device_type, enabled = args if len(args) == 2 else ("cuda", *args)
    if device_type.split(":")[0] == "cpu":
        AutocastState.cpu_enabled = bool(enabled)
    else:
        AutocastState.cuda_enabled = bool(enabled)


def set_autocast_dtype(device_type: str, dtype) -> None:
    if device_type == "cpu":
        AutocastState.cpu_dtype = dtype


def autocast_increment_nesting() -> int:
    AutocastState.nesting += 1
    return AutocastState.nesting


def autocast_decrement_nesting() -> int:
    AutocastState.nesting -= 1
    return AutocastState.nesting


def clear_autocast_cache() -> None:
    AutocastState.cached.clear()


def is_autocast_cache_enabled() -> bool:
    return AutocastState.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    AutocastState.cache_enabled = bool(enabled)


def _cast_floating(value, dtype):
    """``value`` (tensors in lists, tuples and dicts) with its floating tensors in ``dtype``,
    as custom_fwd's ``cast_inputs`` casts them."""
    if isinstance(value, Tensor):
        return value.to(dtype) if value.is_floating_point() else value
    if isinstance(value, list | tuple):
        return type(value)(_cast_floating(v, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast_floating(v, dtype) for k, v in value.items()}
    return value


def custom_fwd(fwd=None, *, device_type: str, cast_inputs=None):
    """A custom Function's ``forward`` under autocast: with ``cast_inputs``, where autocast
    is on, its floating inputs cast to that dtype and autocast off inside; without, as it
    is. Either way it notes autocast's state for ``custom_bwd``."""
    _check_device_type(device_type)
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def forward(ctx, *args, **kwargs):
        ctx._dtype = get_autocast_dtype(device_type)
        on = is_autocast_enabled(device_type)
        ctx._fwd_used_autocast = on and cast_inputs is None
        if cast_inputs is None or not on:
            return fwd(ctx, *args, **kwargs)
        with autocast(device_type, enabled=False):
            return fwd(ctx, *_cast_floating(args, cast_inputs),
                       **_cast_floating(kwargs, cast_inputs))

    return forward


def _check_device_type(device_type) -> None:
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")


def custom_bwd(bwd=None, *, device_type: str):
    """A custom Function's ``backward`` under the autocast state its forward ran in."""
    _check_device_type(device_type)
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def backward(ctx, *grads):
        with autocast(device_type, enabled=ctx._fwd_used_autocast, dtype=ctx._dtype):
            return bwd(ctx, *grads)

    return backward


def is_autocast_cpu_enabled() -> bool:
    warn_at_user_code("torch.is_autocast_cpu_enabled() is deprecated. Please use "
                      "torch.is_autocast_enabled('cpu') instead. (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:883.)",
                      DeprecationWarning)
    return AutocastState.cpu_enabled


def is_autocast_available(device_type: str) -> bool:
    return device_type.split(":")[0] in DEVICE_TYPES


def get_autocast_dtype(device_type: str):
    """What autocast casts to on ``device_type`` unless told (the CPU's: the one it is on)."""
    return AutocastState.cpu_dtype if device_type == "cpu" else float16


def get_autocast_cpu_dtype():
    warn_at_user_code("torch.get_autocast_cpu_dtype() is deprecated. Please use "
                      "torch.get_autocast_dtype('cpu') instead. (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:1016.)",
                      DeprecationWarning)
    return AutocastState.cpu_dtype


def get_autocast_gpu_dtype():
    warn_at_user_code("torch.get_autocast_gpu_dtype() is deprecated. Please use "
                      "torch.get_autocast_dtype('cuda') instead. (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/autograd/init.cpp:1007.)",
                      DeprecationWarning)
    return float16


class autocast:
    """``with torch.autocast(device_type, dtype=None, enabled=True)`` (also a decorator)."""

    __module__ = "torch.amp.autocast_mode"

    def __init__(self, device_type: str, dtype=None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str) or device_type.split(":")[0] not in DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start "
                               f"of device string: {device_type}")
        self.device = device_type
        self.fast_dtype = get_autocast_dtype(device_type) if dtype is None else dtype
        self._enabled = bool(enabled)
        self._cache_enabled = cache_enabled
        self._before: list = []  # (a decorator's instance is entered once per call)
        if not self._enabled:
            return
        if device_type != "cpu":
            warn_at_user_code(NO_CUDA_AUTOCAST)
            self._enabled = False
        elif self.fast_dtype is not float16 and self.fast_dtype is not bfloat16:
            warn_at_user_code(CPU_DTYPES)
            self._enabled = False

    def __enter__(self):
        if self.device == "cpu":
            self._before.append(entered(self._enabled, self.fast_dtype, self._cache_enabled))
            autocast_increment_nesting()
        return self

    def __exit__(self, *exc_info) -> None:
        if self.device == "cpu":
            left(self._before.pop(), autocast_decrement_nesting() == 0)
        return None

    def __call__(self, function):
        @functools.wraps(function)
        def autocast_function(*args, **kwargs):
            with self:
                return function(*args, **kwargs)

        return autocast_function


_READY, _UNSCALED, _STEPPED = 0, 1, 2


def _fresh_optimizer_state() -> dict:
    return {"stage": _READY, "found_inf": False, "checked": False}


class GradScaler(SaysWhatItLacks):
    """``torch.amp.GradScaler(device="cuda", init_scale=2.**16, growth_factor=2.0,
    backoff_factor=0.5, growth_interval=2000, enabled=True)``."""

    __module__ = "torch.amp.grad_scaler"

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16,
                 growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = enabled
        if device == "cuda" and enabled:
            warn_at_user_code(NO_CUDA_SCALER)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._scale = float(init_scale)
            self._init_scale = init_scale
            self._growth_factor, self._backoff_factor = growth_factor, backoff_factor
            self._growth_interval = growth_interval
            self._growth_tracker = 0
            self._per_optimizer_states = defaultdict(_fresh_optimizer_state)

    def is_enabled(self) -> bool:
        return self._enabled

    def get_scale(self) -> float:
        return self._scale if self._enabled else 1.0

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def scale(self, outputs):
        """The loss (or losses) times the scale: a float32 0-d tensor, as torch multiplies."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            from ._factories import tensor

            return outputs * tensor(self._scale, dtype=float32)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(output) for output in outputs)
        raise ValueError("outputs must be a Tensor or an iterable of Tensors")

    def unscale_(self, optimizer) -> None:
        """Divide the optimizer's gradients by the scale, noting whether any is not finite."""
        if not self._enabled:
            return
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] == _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["stage"] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inverse = np.float32(1.0 / self._scale)  # (the scale's reciprocal, in float32)
        from ._grad_mode import no_grad

        with no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    if param.grad is None:
                        continue
                    if param.grad.dtype is float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if not np.isfinite(param.grad._data).all():
                        state["found_inf"] = True
                    param.grad.mul_(float(inverse))
        state["checked"] = True
        state["stage"] = _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """The optimizer's step unless a gradient was not finite (unscaled first if need be)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == _READY:
            self.unscale_(optimizer)
        result = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return result

    def update(self, new_scale=None) -> None:
        """Back off after a step with non-finite gradients, grow after growth_interval good
        ones (torch's _amp_update_scale_); or take ``new_scale``."""
        if not self._enabled:
            return
        if new_scale is not None:
            self._scale = float(new_scale.item() if isinstance(new_scale, Tensor) else new_scale)
        else:
            checked = [s for s in self._per_optimizer_states.values() if s["checked"]]
            if not checked:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(s["found_inf"] for s in checked):
                self._scale = float(np.float32(self._scale * self._backoff_factor))
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    grown = float(np.float32(self._scale * self._growth_factor))
                    if math.isfinite(grown):
                        self._scale = grown
                    self._growth_tracker = 0
        self._per_optimizer_states = defaultdict(_fresh_optimizer_state)

    def state_dict(self) -> dict:
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval,
                "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict: dict) -> None:
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._scale = float(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = int(state_dict["_growth_tracker"])




def deprecated_forms(device: str) -> tuple[type, type]:
    """``torch.<device>.amp``'s GradScaler and autocast: torch.amp's for ``device`` under
    their deprecated names, which torch names as such when one is made."""
    def deprecated(name: str, new: str) -> None:
        warn_at_user_code(f"`torch.{device}.amp.{name}(args...)` is deprecated. Please use "
                          f"`{new}('{device}', args...)` instead.", FutureWarning)

    class DeviceGradScaler(GradScaler):
        def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                     backoff_factor: float = 0.5, growth_interval: int = 2000,
                     enabled: bool = True) -> None:
            deprecated("GradScaler", "torch.amp.GradScaler")
            super().__init__(device, init_scale, growth_factor, backoff_factor,
                             growth_interval, enabled)

    class DeviceAutocast(autocast):
        def __init__(self, enabled: bool = True, dtype=None, cache_enabled: bool = True):
            deprecated("autocast", "torch.amp.autocast")
            super().__init__(device, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    for made, name, module in ((DeviceGradScaler, "GradScaler", "grad_scaler"),
                               (DeviceAutocast, "autocast", "autocast_mode")):
        made.__name__ = made.__qualname__ = name
        made.__module__ = f"torch.{device}.amp.{module}"
    return DeviceGradScaler, DeviceAutocast
