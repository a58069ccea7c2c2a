"""torch.asarray (a tensor over what it is given, sharing its memory where it can),
torch.empty_strided and Tensor.new_empty_strided (a tensor of the strides asked for),
split_with_sizes, and the elementwise Python callbacks Tensor.apply_ and Tensor.map_."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_method, binds
from ._deprecations import warn_once
from ._factories import _finish, from_numpy, tensor
from ._shapes import split
from ._tensor import Tensor


@binds("asarray", method=False)
def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None) -> Tensor:
    """``obj`` as a tensor: a tensor itself (or a NumPy array's memory) when no other dtype
    and no copy is asked for; otherwise a new tensor, of Python data's inferred dtype. A
    tensor's requires_grad is kept unless one is given (which torch sets on the tensor
    itself), with torch's warning once when it needs grad."""
    if requires_grad is None and isinstance(obj, Tensor) and obj.requires_grad:
        warn_once("asarray requires_grad")
    wanted = None if dtype is None else dtypes.to_dtype(dtype)
    if isinstance(obj, Tensor):
        result = obj if wanted is None or wanted == obj.dtype else obj.to(wanted)
        result = result.clone() if copy and result is obj else result
    elif isinstance(obj, np.ndarray) and not copy and (
            wanted is None or wanted.numpy == obj.dtype):
        result = from_numpy(obj)
    else:
        result = tensor(obj, dtype=wanted)
    if requires_grad is not None:
        result.requires_grad_(requires_grad)
    return result


@binds("empty_strided", method=False)
def empty_strided(size, stride, *, dtype=None, layout=None, device=None,
                  requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """A tensor of ``size`` whose element (i, j, ...) lies ``i*stride[0] + j*stride[1] + ...``
    elements into its own memory (zeros here: torch leaves it unset)."""
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride):
        raise RuntimeError(f"dimensionality of sizes ({len(size)}) must match dimensionality "
                           f"of strides ({len(stride)})")
    numpy_dtype = (dtypes.to_dtype(dtype) if dtype is not None
                   else dtypes.get_default_dtype()).numpy
    extent = 1 + sum((length - 1) * step for length, step in zip(size, stride, strict=True)) \
        if all(size) else 0
    memory = np.zeros(extent, numpy_dtype)
    data = np.lib.stride_tricks.as_strided(
        memory, size, tuple(step * memory.itemsize for step in stride))
    return _finish(data, requires_grad, device)


@binds("new_empty_strided", function=False)
def new_empty_strided(self: Tensor, size, stride, *, dtype=None, layout=None, device=None,
                      requires_grad: bool = False, pin_memory: bool = False) -> Tensor:
    """empty_strided in this tensor's dtype unless told."""
    return empty_strided(size, stride, dtype=dtype or self.dtype, device=device,
                         requires_grad=requires_grad)


def _python_callback_target(self: Tensor, method: str) -> None:
    if self.requires_grad:
        raise RuntimeError(f"Can't call {method}() on Variable that requires grad. Use "
                           f"var.detach().{method}() instead.")


@binds("apply_", function=False)
def apply_(self: Tensor, callable) -> Tensor:
    """Each element replaced by ``callable(element)`` (a Python number each), in place."""
    _python_callback_target(self, "apply_")
    values = [callable(value) for value in self._data.ravel().tolist()]
    self._data[...] = np.asarray(values).reshape(self._data.shape)
    return self  # (torch counts no version for these: they refuse tensors autograd tracks)


@binds("map_", function=False)
def map_(self: Tensor, tensor: Tensor, callable) -> Tensor:
    """Each element replaced by ``callable(element, other's element)``, ``tensor``
    broadcast to this tensor's shape, in place."""
    _python_callback_target(self, "map_")
    others = np.broadcast_to(tensor._data, self._data.shape).ravel().tolist()
    values = [callable(a, b) for a, b in zip(self._data.ravel().tolist(), others, strict=True)]
    self._data[...] = np.asarray(values).reshape(self._data.shape)
    return self  # (torch counts no version for these: they refuse tensors autograd tracks)


bind_method("is_nested", property(lambda self: False))  # (no nested tensors here)


@binds("split_with_sizes")
def split_with_sizes(self: Tensor, split_sizes, dim: int = 0) -> tuple[Tensor, ...]:
    """split with the sizes given (SplitWithSizesBackward0)."""
    return split(self, list(split_sizes), dim)
