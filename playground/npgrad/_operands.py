"""Operands of an op: arrays cast to torch's result dtype, and torch's broadcasting errors."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._tensor import TENSOR_CLASSES, Tensor

_make = Tensor._make
_PY_SCALARS = (int, float, bool, complex)
_LOWEST, _BEYOND = -(1 << 63), 1 << 64  # the Python ints torch takes: int64's and uint64's


def typed_scalar(value, dtype: np.dtype) -> np.ndarray:
    """A number as the 0-d array of ``dtype`` torch computes with: an integer out of an
    integer dtype's range wrapped into it, as its static cast does (an int8 tensor times 200
    is times -56; NumPy refuses); a Python int beyond 64 bits refused with torch's error."""
    if value.__class__ is int:
        refuse_beyond_64_bits(value)
    try:
        return np.asarray(value, dtype)
    except OverflowError:  # (an integer out of an integer dtype's range: NumPy 2 refuses it)
        return np.asarray(int(value) % _BEYOND, np.uint64).astype(dtype)


def refuse_beyond_64_bits(value: int) -> None:
    """torch's refusal of a Python int neither int64 nor uint64 can hold."""
    if not _LOWEST <= value < _BEYOND:
        raise OverflowError("int too big to convert" if value > 0 else
                            "can't convert negative int to unsigned")


def torch_dtype(array) -> dtypes.dtype:
    return dtypes.from_numpy_dtype(array.dtype)


def as_tensor_operand(value) -> Tensor:
    if isinstance(value, Tensor):
        return value
    from ._factories import tensor

    return tensor(value)


def operands(a: Tensor, b):
    """The two arrays (or array and scalar) to compute with, cast to torch's result dtype.

    Returns NotImplemented for operand types a tensor does not combine with.
    """
    a_data = a._data
    if isinstance(b, np.ndarray):
        b = _make(b)
    if b.__class__ in TENSOR_CLASSES:
        b_data = b._data
        if a_data.dtype == b_data.dtype:
            return a_data, b_data
        target = dtypes.result_type(
            torch_dtype(a_data), a_data.ndim, torch_dtype(b_data), b_data.ndim
        ).numpy
        return a_data.astype(target, copy=False), b_data.astype(target, copy=False)
    if isinstance(b, (*_PY_SCALARS, np.generic)):
        target = dtypes.result_type_scalar(torch_dtype(a_data), b).numpy
        if target != a_data.dtype:
            return a_data.astype(target), typed_scalar(b, target)
        return a_data, typed_scalar(b, target)
    return NotImplemented


def scalar_operand(a: np.ndarray, value):
    """A Python number as a 0-d array of the tensor's dtype when no promotion is involved.

    Multiplying by a 0-d array is twice as fast in NumPy as by a Python float, and the value is
    what torch computes with (the number cast to the tensor's dtype).
    """
    cls = value.__class__
    kind = a.dtype.kind
    if cls is float and kind == "f":
        return np.asarray(value, a.dtype)
    if cls is int and kind in "fiu":
        return typed_scalar(value, a.dtype)
    return None


def binary_arrays(self: Tensor, other):
    """(a, b, other tensor or None) for an arithmetic op; fast paths first."""
    a = self._data
    if other.__class__ in TENSOR_CLASSES:
        b = other._data
        if a.dtype is not b.dtype:
            a, b = operands(self, other)
        return a, b, other
    b = scalar_operand(a, other)
    if b is not None:
        return a, b, None
    cast = operands(self, other)
    if cast is NotImplemented:
        return None
    a, b = cast
    return a, b, tensor_or_none(other)


def common_shape(*shapes: tuple) -> tuple:
    """The shapes broadcast together, or torch's refusal: the shape so far against the next
    one, as torch folds them."""
    shape = ()
    for next_shape in shapes:
        try:
            shape = np.broadcast_shapes(shape, next_shape)
        except ValueError:
            raise broadcast_error(shape, next_shape) from None
    return shape


def broadcast_error(a_shape: tuple, b_shape: tuple) -> RuntimeError:
    ndim = max(len(a_shape), len(b_shape))
    for i in range(ndim - 1, -1, -1):
        offset = ndim - 1 - i
        size_a = a_shape[len(a_shape) - 1 - offset] if offset < len(a_shape) else 1
        size_b = b_shape[len(b_shape) - 1 - offset] if offset < len(b_shape) else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            return RuntimeError(
                f"The size of tensor a ({size_a}) must match the size of tensor b ({size_b}) at "
                f"non-singleton dimension {i}"
            )
    return RuntimeError("shapes cannot be broadcast together")


def compute(function, a_data, b_data, a_shape):
    try:
        return function(a_data, b_data)
    except ValueError:
        raise broadcast_error(a_shape, np.shape(b_data)) from None


def float_operands(a: Tensor, b):
    """(a, b, b tensor) like binary_arrays, but integers become the default float dtype."""
    cast = operands(a, b)
    if cast is NotImplemented:
        return None
    a_data, b_data = cast
    if np.result_type(a_data, b_data).kind not in "fc":
        floating = dtypes.get_default_dtype().numpy
        a_data, b_data = a_data.astype(floating), np.asarray(b_data, dtype=floating)
    return a_data, b_data, tensor_or_none(b)


def tensor_or_none(value):
    return value if value.__class__ in TENSOR_CLASSES else None



def data_or_none(tensor: Tensor | None) -> np.ndarray | None:
    """A tensor's array, or None for an optional operand not given (a norm's weight)."""
    return None if tensor is None else tensor._data


def floating(self: Tensor) -> np.ndarray:
    """The tensor's values, integers and bools as the default float dtype (torch's exp(int))."""
    data = self._data
    if data.dtype.kind not in "fc":
        return data.astype(dtypes.get_default_dtype().numpy)
    return data
