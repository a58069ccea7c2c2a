"""``torch.compiler``: the NumPy engine compiles nothing, so code that asks is told it is not
compiling, and what would steer a compiler (``disable``, ``allow_in_graph``, ``reset``...)
leaves the code to run as written; the rest is said to be missing."""

from __future__ import annotations

from collections.abc import Callable

from ._compile import compile  # noqa: F401 - torch.compiler.compile
from ._missing import missing_attribute


def is_compiling() -> bool:
    return False


def is_dynamo_compiling() -> bool:
    return False


def is_exporting() -> bool:
    return False


def reset() -> None:
    """Forget what was compiled: nothing here."""


def cudagraph_mark_step_begin() -> None:
    """A new step for CUDA graphs: there are none here."""


def disable(fn: Callable | None = None, recursive: bool = True, *, reason=None):
    """``fn`` run as written (it always is here); bare, as a decorator."""
    if fn is None:
        return lambda function: function
    return fn


def allow_in_graph(fn: Callable) -> Callable:
    return fn


def assume_constant_result(fn: Callable) -> Callable:
    return fn


__getattr__ = missing_attribute("torch.compiler")
