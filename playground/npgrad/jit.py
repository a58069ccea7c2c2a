"""``torch.jit``'s questions and markers, which model code asks and wears whether or not it is
ever compiled (``if not torch.jit.is_scripting():``, ``@torch.jit.ignore``): answered and
worn as by eager torch. Compiling (script, trace, save, load) is in _scripted.py, loaded when
first asked for."""

from __future__ import annotations

import typing
import warnings

from ._missing import missing_attribute

Final = typing.Final


def is_scripting() -> bool:
    return False


def is_tracing() -> bool:
    return False


def annotate(the_type, the_value):
    return the_value


def export(function):
    return function


def unused(function):
    return function


def ignore(drop=False, **kwargs):
    """``@torch.jit.ignore`` or ``@torch.jit.ignore(drop=...)``: the function as it is."""
    if callable(drop):
        return drop
    if not isinstance(drop, bool):
        raise RuntimeError("Argument to @torch.jit.ignore must be a bool or a function but got "
                           f"{drop}")
    if drop or kwargs.get("drop_on_export"):
        warnings.warn("ignore(True) has been deprecated. TorchScript will now drop the function "
                      f"call on compilation. Use torch.jit.unused now. {kwargs}",
                      FutureWarning, stacklevel=2)
    return lambda function: function


_COMPILING = frozenset([
    "script", "trace", "trace_module", "freeze", "optimize_for_inference", "save", "load", "fork",
    "wait", "ScriptModule", "ScriptFunction", "RecursiveScriptModule", "TracedModule",
    "TopLevelTracedModule"])
_lacking = missing_attribute("torch.jit")


def script_if_tracing(function):
    return function


def __getattr__(name: str):
    if name in _COMPILING:
        from . import _scripted

        return getattr(_scripted, name)
    return _lacking(name)
