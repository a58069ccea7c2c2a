"""torch's ``out=`` argument: a function's result written into a tensor the caller gives.

As torch does it: the inputs must not need a gradient (autograd does not record such a
call); the result is cast into ``out``'s dtype where the cast keeps its kind (floats into an
integer tensor are refused in torch's words); an ``out`` of another shape is resized, with
torch's warning unless it was empty; a view given as ``out`` writes into its base's memory;
the call returns ``out`` itself (a tuple of them for ``torch.sort`` and the like, as
``torch.return_types.sort_out``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import numpy as np

from . import _dtype as dtypes
from ._grad_mode import GradMode
from ._tensor import Tensor, bump_version
from ._user_warnings import warn_at_user_code

_RESIZED = ("An output with one or more elements was resized since it had shape {old}, which "
            "does not match the required output shape {new}. This behavior is deprecated, and "
            "in a future PyTorch release outputs will not be resized unless they have zero "
            "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to "
            "zero elements with t.resize_(0). (Triggered internally at "
            "/__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)")


def accepting_out(name: str, forward: Callable) -> Callable:
    """``forward`` taking torch's ``out=`` too (a forward that declares ``out`` itself gets
    None for it: the result is written here). _bindings.torch_keywords takes it in its own
    wrapper, where it makes one: a call without ``out`` then costs nothing more."""
    if not callable(forward) or isinstance(forward, type):
        return forward

    @functools.wraps(forward)
    def with_out(*args, out=None, **kwargs):
        if out is None:
            return forward(*args, **kwargs)
        return called_with_out(name, forward, args, kwargs, out)

    return with_out


def called_with_out(name: str, forward: Callable, args: tuple, kwargs: dict, out):
    """``forward(*args, **kwargs)`` written into ``out`` (a tensor, or a tuple of them)."""
    if GradMode.enabled and _needs_grad((args, kwargs, out)):
        raise RuntimeError(f"{getattr(forward, '__name__', name)}(): functions with out=... "
                           "arguments don't support automatic differentiation, but one of the "
                           "arguments requires grad.")
    result = forward(*args, **kwargs)
    if isinstance(result, Tensor) and isinstance(out, Tensor) and \
            not any(result is arg for arg in args):  # (an in-place function takes none)
        return write_out(result, out)
    if isinstance(result, tuple) and isinstance(out, tuple | list) and \
            len(result) == len(out) and all(isinstance(t, Tensor) for t in (*result, *out)):
        written = [write_out(value, target) for value, target in zip(result, out, strict=True)]
        return _out_type(result)(*written) if hasattr(result, "_fields") else tuple(written)
    raise TypeError(f"{name}() got an unexpected keyword argument 'out'")


def _needs_grad(value) -> bool:
    if isinstance(value, Tensor):
        return value.requires_grad
    if isinstance(value, tuple | list):
        return any(_needs_grad(item) for item in value)
    if isinstance(value, dict):
        return any(_needs_grad(item) for item in value.values())
    return False


def write_out(result: Tensor, out: Tensor) -> Tensor:
    """``result``'s values in ``out``'s memory (resized to its shape), in ``out``'s dtype."""
    values = result._data
    target = out._data.dtype
    if values.dtype != target and not dtypes.castable(values.dtype, target):
        raise RuntimeError(f"result type {_kind(values.dtype)} can't be cast to the desired "
                           f"output type {_kind(target)}")
    if values.shape != out._data.shape:
        if out._data.size:
            warn_at_user_code(_RESIZED.format(old=list(out._data.shape),
                                              new=list(values.shape)))
        out._data = np.empty(values.shape, target)
    elif not out._data.flags.writeable:
        out._data = out._data.copy()
    np.copyto(out._data, values, casting="unsafe")
    bump_version(out)
    return out


def _kind(numpy_dtype) -> str:
    return dtypes.from_numpy_dtype(numpy_dtype).legacy_name.replace("Tensor", "")


@functools.cache
def _out_type_named(name: str, fields: tuple[str, ...]):
    """torch.return_types.<name>_out."""
    from ._reductions import _return_type  # (the reductions import this module's users)

    return _return_type(f"{name}_out", fields)


def _out_type(result: tuple):
    return _out_type_named(type(result).__name__, tuple(result._fields))


def accept_out_in(namespace: dict) -> None:
    """Every public function of a torch submodule (``torch.linalg``, ``torch.special``...)
    taking ``out=`` too: call it at the end of the module, with its ``globals()``."""
    for name, value in list(namespace.items()):
        if not name.startswith("_") and inspect.isfunction(value) and \
                value.__module__.startswith("playground.npgrad"):
            namespace[name] = accepting_out(name, value)
