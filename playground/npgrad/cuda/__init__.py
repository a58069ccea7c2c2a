"""``torch.cuda`` for code that asks: the NumPy engine never has a GPU. What a CPU build of
torch answers without one, it answers (is_available, device_count, the seeds and caches it
ignores, no memory in use); torch.cuda.amp is torch.amp's, disabled."""

from __future__ import annotations

from .._missing import missing_attribute
from . import amp  # noqa: F401  (torch.cuda.amp)


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return False


# (torch ignores these where there is no GPU, and so does a script run here)
def manual_seed(value) -> None:
    return None


manual_seed_all = manual_seed


def empty_cache() -> None:
    return None


def memory_allocated(device=None) -> int:
    return 0


max_memory_allocated = memory_reserved = max_memory_reserved = memory_allocated


def _not_compiled(*args, **kwargs):
    raise AssertionError("Torch not compiled with CUDA enabled")


synchronize = current_device = get_device_name = get_device_properties = set_device = \
    _not_compiled

__getattr__ = missing_attribute("torch.cuda")
