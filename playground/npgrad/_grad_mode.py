"""Whether autograd records operations: torch's no_grad / enable_grad / set_grad_enabled."""

from __future__ import annotations

import functools


class GradMode:
    """The one switch every op reads; a class attribute so no module global is rebound."""

    enabled = True


def is_grad_enabled() -> bool:
    return GradMode.enabled


class _GradModeContext:
    """Base of the context managers that also work as decorators, as in torch."""

    target = True

    def __enter__(self) -> None:
        self._previous = GradMode.enabled
        GradMode.enabled = self.target

    def __exit__(self, *exc_info) -> None:
        GradMode.enabled = self._previous

    def __call__(self, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return function(*args, **kwargs)

        return wrapper


class no_grad(_GradModeContext):
    """Disable gradient recording inside a ``with`` block or a decorated function."""

    target = False


class enable_grad(_GradModeContext):
    """Re-enable gradient recording inside a ``no_grad`` block."""

    target = True


class set_grad_enabled(_GradModeContext):
    """Set grad mode now (as a call) and restore it on exit (as a context manager)."""

    def __init__(self, mode: bool) -> None:
        self._previous = GradMode.enabled
        self.target = bool(mode)
        GradMode.enabled = self.target

    def __enter__(self) -> None:
        GradMode.enabled = self.target

    def __call__(self, function):
        GradMode.enabled = self._previous

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(self.target):
                return function(*args, **kwargs)

        return wrapper


class inference_mode(_GradModeContext):
    """torch.inference_mode: here no_grad (``inference_mode(False)`` changes nothing);
    its tensors are not marked as inference tensors."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode
        self.target = False if mode else GradMode.enabled

    def __enter__(self) -> None:
        self._previous = GradMode.enabled
        GradMode.enabled = False if self.mode else self._previous
        _InferenceMode.depth += bool(self.mode)

    def __exit__(self, *exc_info) -> None:
        GradMode.enabled = self._previous
        _InferenceMode.depth -= bool(self.mode)

    def __call__(self, function):
        mode = self.mode

        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return function(*args, **kwargs)

        return wrapper


class _InferenceMode:
    depth = 0


def is_inference_mode_enabled() -> bool:
    return _InferenceMode.depth > 0
