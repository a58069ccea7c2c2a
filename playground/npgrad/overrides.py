"""``torch.overrides``: the helpers of code that extends torch with ``__torch_function__``
(has_torch_function, handle_torch_function, is_tensor_like...), over _torch_function.py."""

from __future__ import annotations

from ._missing import missing_attribute
from ._tensor import Tensor
from ._torch_function import handle, has_torch_function, overloaded_arguments, overrides


def has_torch_function_unary(value) -> bool:
    return has_torch_function((value,))


def has_torch_function_variadic(*args) -> bool:
    return has_torch_function(args)


def is_tensor_like(inp) -> bool:
    """A Tensor, or an object whose type has a ``__torch_function__``."""
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_tensor_method_or_property(func) -> bool:
    return bool(getattr(func, "_is_method", False))


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """What a Python-level function extended by ``__torch_function__`` returns for
    ``relevant_args`` holding overriding objects."""
    overloaded = overloaded_arguments(tuple(relevant_args), None)
    if not overloaded:
        return public_api(*args, **kwargs)
    return handle(public_api, overloaded, args, kwargs)


def get_ignored_functions() -> set:
    """Functions torch never hands to ``__torch_function__`` (those of no tensor)."""
    from . import _factories

    return {getattr(_factories, name) for name in (
        "tensor", "as_tensor", "empty", "zeros", "ones", "full", "arange", "linspace",
        "eye", "rand", "randn", "randint", "manual_seed", "from_numpy")
        if hasattr(_factories, name)}


def wrap_torch_function(dispatcher):
    """A decorator making a Python function dispatch on what ``dispatcher`` returns."""
    import functools

    def wrap(function):
        @functools.wraps(function)
        def wrapped(*args, **kwargs):
            relevant = dispatcher(*args, **kwargs)
            if any(overrides(type(value)) for value in relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return function(*args, **kwargs)

        return wrapped

    return wrap


__getattr__ = missing_attribute("torch.overrides")
