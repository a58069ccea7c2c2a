"""Whether autograd records operations: torch's no_grad / enable_grad / set_grad_enabled."""

from __future__ import annotations

import functools
import threading


class _GradModeSwitch(threading.local):
    """The one switch every op reads. Per thread, as torch's: a thread starts with grad
    mode on, and one thread's ``no_grad`` (or a backward running there) leaves the others
    recording."""

    enabled = True


GradMode = _GradModeSwitch()


def is_grad_enabled() -> bool:
    return GradMode.enabled


class _GradModeContext:
    """Base of the context managers that also work as decorators, as in torch."""

    target = True

    def __enter__(self) -> None:
        self.prev = GradMode.enabled  # (torch's name: an __exit__ without __enter__ says it)
        GradMode.enabled = self.target

    def __exit__(self, *exc_info) -> None:
        GradMode.enabled = self.prev

    def __call__(self, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return function(*args, **kwargs)

        return wrapper


class no_grad(_GradModeContext):
    """Disable gradient recording inside a ``with`` block or a decorated function."""

    target = False

    def __init__(self) -> None:
        self.prev = False  # (as torch's: an exit without an entry turns grad mode off)


class enable_grad(_GradModeContext):
    """Re-enable gradient recording inside a ``no_grad`` block."""

    target = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode now (as a call) and restore it on exit (as a context manager)."""

    def __init__(self, mode: bool) -> None:
        self.prev = GradMode.enabled
        self.target = bool(mode)
        GradMode.enabled = self.target

    def __enter__(self) -> None:
        GradMode.enabled = self.target

    def __repr__(self) -> str:  # (torch's, unlike its other modes')
        return f"torch.autograd.grad_mode.set_grad_enabled(mode={self.target})"

    def __call__(self, function):
        GradMode.enabled = self.prev

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(self.target):
                return function(*args, **kwargs)

        return wrapper


class inference_mode(_GradModeContext):
    """torch.inference_mode: grad mode off, and the tensors made inside are inference tensors
    (``is_inference()``); ``inference_mode(False)`` turns both back, as torch's guard does."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        from ._tensor import set_inference_mode  # _tensor imports this module

        self._previous = GradMode.enabled
        GradMode.enabled = not self.mode
        self._previous_inference = set_inference_mode(self.mode)

    def __exit__(self, *exc_info) -> None:
        from ._tensor import set_inference_mode

        GradMode.enabled = self._previous
        set_inference_mode(self._previous_inference)

    def __call__(self, function):
        mode = self.mode

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return function(*args, **kwargs)

        return wrapper


def is_inference_mode_enabled() -> bool:
    from ._tensor import inference_mode_on

    return inference_mode_on()
