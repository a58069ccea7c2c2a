"""Meta tensors: a shape and a dtype without values, as ``Module.to('meta')`` and
``torch.empty(..., device='meta')`` make them (torch.func's tutorials keep a stateless copy of
a model so). The NumPy engine keeps, prints, copies and moves them; computing with one is not
in it, and every NumPy operation on its storage says so."""

from __future__ import annotations

import functools
import math

import numpy as np

from ._bfloat16 import BFloat16Array

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
    """A meta tensor's storage: its shape and dtype, read as an array's are (a bfloat16
    tensor's dtype: float32, as its values' would be, and ``bfloat16``)."""

    __slots__ = ("shape", "dtype", "bfloat16")

    def __init__(self, shape: tuple, dtype, bfloat16: bool = False) -> None:
        self.shape, self.dtype, self.bfloat16 = tuple(shape), np.dtype(dtype), bfloat16

    @classmethod
    def of(cls, data) -> NoValues:
        """The shape and dtype of ``data`` (an array, a bfloat16 one, another's NoValues)."""
        bfloat16 = data.__class__ is BFloat16Array or getattr(data, "bfloat16", False)
        return cls(data.shape, data.dtype, bfloat16)

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


def to_meta(tensor, dtype=None, bfloat16: bool = False):
    """A meta tensor of ``tensor``'s shape and dtype, or ``dtype`` (a NumPy dtype, with
    ``bfloat16`` for that one's), requiring grad where it did."""
    from ._tensor import Tensor

    moved = Tensor._make(NoValues.of(tensor._data) if dtype is None else
                         NoValues(tensor.shape, dtype, bfloat16))
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
