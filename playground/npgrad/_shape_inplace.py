"""The in-place shape methods (unsqueeze_, squeeze_, t_, transpose_, swapaxes_, swapdims_):
the tensor itself takes the view's shape and strides, as torch's do; where autograd records
its history, torch's in-place view nodes (TBackward1, TransposeBackward1, SqueezeBackward3-5,
UnsqueezeBackward1) join it, a view's own history as much as any tensor's."""

from __future__ import annotations

from . import _shapes
from ._bindings import binds
from ._grad_mode import GradMode, no_grad
from ._inplace import _history, _recorded
from ._tensor import Tensor, _wrap_dim, bump_version


def _reshaped_in_place(name: str, view):
    def apply(self: Tensor, *args) -> Tensor:
        if GradMode.enabled and self.requires_grad:
            self._check_inplace()
            op, saved = _node_of(name, self, args)
            # (a view stays its base's view, with new strides: its node joins its own history,
            # not a CopySlices of the base's, which no value of the base changed)
            history = _history(self)
            _take_view(self, view, args)
            return _recorded(op, self, history, None, saved)
        _take_view(self, view, args)
        return self

    apply.__name__ = apply.__qualname__ = name
    return apply


def _take_view(self: Tensor, view, args: tuple) -> None:
    with no_grad():
        self._data = view(self, *args)._data  # (a view of the same memory)
    bump_version(self)


def _node_of(name: str, self: Tensor, args: tuple) -> tuple[str, tuple]:
    """The rule row of torch's node for this call, and what it saves."""
    if name == "t_":
        return "t_", ()
    if name in ("transpose_", "swapaxes_", "swapdims_"):
        return "transpose_", tuple(_wrap_dim(dim, self.ndim) for dim in args)
    if name == "unsqueeze_":
        return "selection_unsqueeze_", (_wrap_dim(args[0], self.ndim + 1),)
    shape = tuple(self.shape)
    if not args:
        return "squeeze_all_", (shape,)
    return ("squeeze_tuple_" if isinstance(args[0], tuple | list) else "squeeze_dims"), (shape,)


def _squeezed(self: Tensor, *dims) -> Tensor:
    return self.squeeze(*dims)


def _swapped(self: Tensor, dim0: int, dim1: int) -> Tensor:
    return self.transpose(dim0, dim1)


_VIEWS = {"unsqueeze_": _shapes.unsqueeze, "squeeze_": _squeezed, "t_": _shapes.t,
          "transpose_": _swapped, "swapaxes_": _swapped, "swapdims_": _swapped}
for _name, _view in _VIEWS.items():
    binds(_name, function=False)(_reshaped_in_place(_name, _view))

# (named by no rule row: their gradients are refused above; tests/npgrad/test_everyday_ops_
# vs_torch.py runs them against torch)
SHAPE_INPLACE = frozenset(_VIEWS)
