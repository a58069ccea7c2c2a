"""The in-place shape methods (unsqueeze_, squeeze_, t_, transpose_, swapaxes_, swapdims_):
the tensor itself takes the view's shape and strides, as torch's do. Done for tensors whose
history autograd does not record; where it does, torch's own in-place view nodes
(UnsqueezeBackward1, TBackward1...) are not in the engine, and it says so."""

from __future__ import annotations

from . import _shapes
from ._bindings import binds
from ._grad_mode import GradMode, no_grad
from ._missing import MISSING_HINT
from ._tensor import Tensor, bump_version


def _reshaped_in_place(name: str, view):
    def apply(self: Tensor, *args) -> Tensor:
        if GradMode.enabled and self.requires_grad:
            if self.grad_fn is None:
                raise RuntimeError("a leaf Variable that requires grad is being used in an "
                                   "in-place operation.")
            raise NotImplementedError(f"{name} of a tensor that requires grad is not "
                                      f"{MISSING_HINT}")
        with no_grad():
            self._data = view(self, *args)._data  # (a view of the same memory)
        bump_version(self)
        return self

    apply.__name__ = apply.__qualname__ = name
    return apply


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
