"""Meta tensors: a shape and a dtype without values, as ``Module.to('meta')`` and
``torch.empty(..., device='meta')`` make them (torch.func's tutorials keep a stateless copy of
a model so). The NumPy engine keeps, prints, copies and moves them; computing with one is not
in it, and every NumPy operation on its storage says so."""

from __future__ import annotations

import functools
import math

import numpy as np

COMPUTING = ("computing with meta tensors (device='meta': a shape without values) is not in "
             "the built-in NumPy engine; switch the engine to torch")


class RefusedStorage:
    """A tensor's storage that NumPy must not compute with: reading it as an array, or any
    array attribute its class does not give, raises ``refusal`` (which names the torch
    engine)."""

    __slots__ = ()
    refusal = COMPUTING

    def __array__(self, *args, **kwargs):
        raise NotImplementedError(self.refusal)

    def __getattr__(self, name: str):
        if name.startswith("__"):  # (copy, pickle and NumPy probe for their protocols)
            raise AttributeError(name)
        raise NotImplementedError(self.refusal)


class NoValues(RefusedStorage):
    """A meta tensor's storage: its shape and dtype, read as an array's are."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: tuple, dtype) -> None:
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.itemsize

    def astype(self, dtype, copy: bool = True) -> NoValues:
        """The same shape in another dtype (``model.to(torch.float64)`` on the meta device)."""
        return NoValues(self.shape, dtype)


def to_meta(tensor, dtype=None):
    """A meta tensor of ``tensor``'s shape and dtype, or ``dtype`` (requiring grad where it
    did)."""
    from ._tensor import Tensor

    moved = Tensor._make(NoValues(tensor.shape, tensor._data.dtype if dtype is None else dtype))
    moved._rg = tensor._rg
    return moved


def has_no_values(tensor) -> bool:
    return tensor._data.__class__ is NoValues


def shape_only(method):
    """An in-place fill or write: on a meta tensor it has nothing to change (and draws no
    random numbers), as torch's does; elsewhere ``method`` itself."""

    @functools.wraps(method)
    def write(self, *args, **kwargs):
        if has_no_values(self):
            return self
        return method(self, *args, **kwargs)

    return write
