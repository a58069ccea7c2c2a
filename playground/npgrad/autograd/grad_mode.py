"""``torch.autograd.grad_mode``: the context managers that switch gradient recording."""

from .._grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .._missing import missing_attribute

__all__ = ["enable_grad", "inference_mode", "no_grad", "set_grad_enabled",
           "set_multithreading_enabled"]


class set_multithreading_enabled:
    """``with set_multithreading_enabled(False):`` torch's backward then runs on the calling
    thread only; the engine's always does, so the setting is kept and changes nothing."""

    enabled = True

    def __init__(self, mode: bool) -> None:
        self.previous = set_multithreading_enabled.enabled
        set_multithreading_enabled.enabled = bool(mode)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info) -> None:
        set_multithreading_enabled.enabled = self.previous


__getattr__ = missing_attribute("torch.autograd.grad_mode")
