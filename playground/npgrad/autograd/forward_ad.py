"""``torch.autograd.forward_ad``: dual levels, make_dual and unpack_dual (the engine's part
is ``_forward.py``)."""

from __future__ import annotations

import functools
from typing import NamedTuple

from .. import _forward
from .._recording import output
from .._tensor import Tensor, shared_counter

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]


def enter_dual_level() -> int:
    """Open the (one) forward-mode level; returns its number."""
    return _forward.enter()


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the level: its tangents go."""
    _forward.exit_level(_forward.DualLevel.current if level is None else level)


def _size(tensor: Tensor) -> str:
    return "[" + ", ".join(str(s) for s in tensor.shape) + "]"


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of ``tensor`` carrying ``tangent`` (as it is) at the level."""
    level = _forward.DualLevel.current if level is None else level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    for name, value in (("primal", tensor), ("tangent", tangent)):
        if not value.is_floating_point():
            raise ValueError(f"Expected {name} to be floating point or complex, but got: "
                             f"{value.dtype}")
    if level != _forward.DualLevel.current:
        raise RuntimeError("Invalid level given to _make_dual")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {_size(tensor)} while "
            f"the given forward gradient is of size {_size(tangent)}.")
    if _forward.tangent_of(tensor) is not None:
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward "
                           f"gradient at the same level {level} is not supported.")
    dual = _view(tensor, "view")  # (torch's make_dual: a view, ViewBackward0)
    _forward.set_tangent(dual, tangent)
    _forward.note_dual_view(tensor, dual)
    return dual


def _view(tensor: Tensor, op: str) -> Tensor:
    """A view of the whole tensor, differentiable (``op``: make_dual's ViewBackward0, or
    unpack_dual's Identity), without a tangent."""
    saved = (tensor._data.shape,) if op == "view" else ()
    view = output(op, tensor._data.view(), (tensor,), saved, shared_counter(tensor),
                  tensor._base if tensor._base is not None else tensor)
    _forward.drop_tangent(view)
    return view


class UnpackedDualTensor(NamedTuple):
    """What unpack_dual returns: the primal and the tangent (None when there is none)."""

    primal: Tensor
    tangent: Tensor | None


UnpackedDualTensor.__module__ = "torch.autograd.forward_ad"


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """The tensor's primal (a view without the tangent) and its tangent, as it is."""
    level = _forward.DualLevel.current if level is None else level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    return UnpackedDualTensor(_view(tensor, "unpack_dual"), _forward.tangent_of(tensor))


class dual_level:
    """``with dual_level():`` opens a level and closes it after; also a decorator."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc_info) -> None:
        exit_dual_level()

    def __call__(self, function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            with dual_level():
                return function(*args, **kwargs)

        return wrapper
