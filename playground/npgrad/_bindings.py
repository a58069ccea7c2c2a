"""The binding table: which forward is which Tensor method and which ``torch.*`` function.

Each op declares its names where its forward is defined, so that the forward and its names are
one declaration::

    @binds("clamp", "clip")       # x.clamp(...), x.clip(...), torch.clamp(...), torch.clip(...)
    def clamp(self, min=None, max=None): ...

    @binds("view", function=False)                  # a Tensor method only
    @binds("cat", "concat", method=False)           # a torch function only

``unary`` (``_pointwise.py``) and ``arithmetic`` (``_arithmetic.py``) declare theirs from one
line each. The table has two columns, ``METHODS`` and ``FUNCTIONS``: ``bind_tensor_methods``
makes the first into Tensor's methods and ``playground/npgrad/__init__.py`` exports the second.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

from ._complex_refusals import refusing_complex
from ._out_argument import accepting_out, called_with_out
from ._tensor import Tensor

METHODS: dict[str, Callable] = {}
FUNCTIONS: dict[str, Callable] = {}


def _enter(column: dict[str, Callable], name: str, forward: Callable) -> None:
    if name in column:
        raise ValueError(f"{name!r} is bound twice (to {column[name]!r} and {forward!r})")
    column[name] = forward


def bind_method(name: str, forward) -> None:
    """``Tensor.<name>`` is ``forward`` (a function taking the tensor first, or a property)."""
    _enter(METHODS, name, forward)


def bind_function(name: str, forward: Callable) -> None:
    """``torch.<name>`` is ``forward``."""
    _enter(FUNCTIONS, name, forward)


def binds(*names: str, method: bool = True, function: bool = True):
    """Declare the forward below as ``Tensor.<name>`` and ``torch.<name>`` for each name."""

    def declare(forward: Callable) -> Callable:
        for name in names:
            if method:
                bind_method(name, forward)
            if function:
                bind_function(name, forward)
        return forward

    return declare


def bind_tensor_methods() -> None:
    """Make the method column Tensor's methods (once every op family has been imported)."""
    for name, forward in METHODS.items():
        setattr(Tensor, name, refusing_complex(name, torch_keywords(forward, as_function=False)))


# Functions of one tensor (torch.sqrt, torch.relu...) whose argument parser refuses anything
# else in torch's words (``torch.sqrt(2.0)``), where NumPy would fail in its own
TENSOR_FIRST: set[str] = set()


def exported_functions() -> dict[str, Callable]:
    """The function column, each taking torch's keyword names and its ``out=`` too."""
    exported = {}
    for name, forward in FUNCTIONS.items():
        keyed = torch_keywords(forward, as_function=True, tensor_first=name in TENSOR_FIRST,
                               name=name)
        if keyed is forward:  # (no wrapper of torch's keywords to take out= in)
            keyed = accepting_out(name, forward)
        exported[name] = refusing_complex(name, keyed)
    return exported


def torch_keywords(forward, as_function: bool, tensor_first: bool = False, name: str = ""):
    """``forward``, also taking the keywords torch's documentation uses where ours differ:
    ``input=`` for the tensor of a function (``torch.sum(input=x)``), NumPy's ``keepdims`` for
    ``keepdim`` and ``axis`` for ``dim`` (torch's argument parser takes both), ``size=`` for
    the sizes of a factory (``torch.zeros(size=(2, 3))``), and a function's ``out=``
    (_out_argument.py). Forwards that need none of them are returned as they are (no call in
    between)."""
    if not callable(forward) or isinstance(forward, type):
        return forward
    try:
        parameters = inspect.signature(forward).parameters
    except (TypeError, ValueError):
        return forward
    names = list(parameters)
    takes_input = as_function and bool(names) and names[0] == "self"
    takes_keepdim = "keepdim" in parameters
    takes_dim = "dim" in parameters
    takes_sizes = any(p.kind is p.VAR_POSITIONAL and p.name == "size"
                      for p in parameters.values())
    if not (takes_input or takes_keepdim or takes_dim or takes_sizes):
        return forward

    own_name = forward.__name__
    name = name or own_name

    @functools.wraps(forward)
    def with_torch_keywords(*args, **kwargs):
        if tensor_first and args and not isinstance(args[0], Tensor):
            raise TypeError(f"{own_name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(args[0]).__name__}")
        if kwargs:
            out = kwargs.pop("out", None) if as_function else None
            if takes_input and "input" in kwargs:
                args = (kwargs.pop("input"), *args)
            if takes_keepdim and "keepdims" in kwargs:
                kwargs["keepdim"] = kwargs.pop("keepdims")
            if takes_dim and "axis" in kwargs:
                kwargs["dim"] = kwargs.pop("axis")
            if takes_sizes and "size" in kwargs:
                size = kwargs.pop("size")
                args = (*args, *(size if isinstance(size, tuple | list) else (size,)))
            if out is not None:
                return called_with_out(name, forward, args, kwargs, out)
        return forward(*args, **kwargs)

    return with_torch_keywords
