"""torch.tensor's reading of nested data (lists and tuples of numbers, arrays and tensors): the
shape from the first elements, the dtype by torch's promotion, each element stored as torch
stores it (a tensor inside a list is one number), and torch's errors for data that is not a
box of numbers. NumPy reads the common case; the rest is read here, element by element."""

from __future__ import annotations

import operator

import numpy as np

from . import _dtype as dtypes
from ._deprecations import warn_once
from ._operands import refuse_beyond_64_bits
from ._tensor import Tensor

MAX_DIMS = 64  # torch's limit on a tensor's dimensions
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made in Python, named by its __name__


def nested_array(data, dtype: dtypes.dtype | None) -> np.ndarray:
    """``data`` (a list or tuple) as ``torch.tensor(data, dtype=dtype)`` reads it; ``dtype``
    None: inferred as torch infers it. In torch's order: the shape, the dtype, the values."""
    sizes = shape_of(data)
    if dtype is None:
        dtype = inferred_dtype(data)
    plain, holds_arrays, holds_single_floats = _contents(data)
    if holds_arrays:
        warn_once("list of ndarrays")
    if 0 in sizes:  # nothing to store, nothing checked (torch: ``[[], [1]]`` is 2 x 0)
        return np.empty(sizes, dtype=dtype.numpy)
    if plain and _numpy_reads_as_torch(dtype, holds_single_floats):
        try:
            array = _numpy_read(data, dtype)
            if list(array.shape) == sizes:
                return array
        except (ValueError, TypeError, OverflowError, FloatingPointError):
            pass  # read below, for torch's error (or torch's reading of odd data)
    values: list = []
    _store(data, sizes, 0, _converter(dtype), values)
    return np.array(values, dtype=dtype.numpy).reshape(sizes)


def _numpy_reads_as_torch(dtype: dtypes.dtype, holds_single_floats: bool) -> bool:
    """Whether NumPy reads plain numbers into ``dtype`` as torch does. Into floats, yes; into
    int64 and bool too, but for NumPy float32 and float16 scalars (torch refuses them there);
    into narrower integers NumPy wraps what torch refuses (300 into uint8), so no."""
    if dtype.is_floating_point or dtype.is_complex:
        return True
    return dtype in (dtypes.int64, dtypes.bool) and not holds_single_floats


def _numpy_read(data, dtype: dtypes.dtype) -> np.ndarray:
    """NumPy's reading; into an integer type, a NaN or a number out of range raises (torch
    refuses it, in its words, below) where NumPy would store anything."""
    if dtype.is_floating_point or dtype.is_complex:
        return np.array(data, dtype=dtype.numpy)
    with np.errstate(invalid="raise", over="raise"):
        return np.array(data, dtype=dtype.numpy)


def shape_of(data) -> list[int]:
    """The sizes torch reads: each dimension's length from the first element of the last."""
    sizes = []
    item = data
    while is_sequence(item):
        length = len(item)
        sizes.append(length)
        if len(sizes) > MAX_DIMS:
            raise ValueError(f"too many dimensions '{type_name(item)}'")
        if length == 0:
            break
        item = item[0]
    return sizes


def inferred_dtype(item) -> dtypes.dtype:
    """torch's dtype for ``item``: NumPy's scalars and arrays keep theirs, Python numbers take
    the defaults, a tensor its own, a sequence the promotion of all of its elements."""
    if isinstance(item, np.generic):  # (before float: np.float64 is one)
        return dtypes.from_numpy_dtype(item.dtype)
    if isinstance(item, float):
        return dtypes.get_default_dtype()
    if isinstance(item, bool):
        return dtypes.bool
    if isinstance(item, int):
        return dtypes.int64
    if isinstance(item, complex):
        return dtypes.get_default_dtype().to_complex()
    if isinstance(item, Tensor):
        return item.dtype
    if isinstance(item, str | bytes):
        raise TypeError(f"new(): invalid data type '{type_name(item)}'")
    if isinstance(item, np.ndarray):
        return dtypes.from_numpy_dtype(item.dtype)
    if is_sequence(item):
        return _sequence_dtype(item)
    raise RuntimeError(f"Could not infer dtype of {type_name(item)}")


def _sequence_dtype(sequence) -> dtypes.dtype:
    if len(sequence) == 0:
        return dtypes.get_default_dtype()
    found = None
    for item in sequence:
        if item is sequence:
            raise TypeError("new(): self-referential lists are incompatible")
        kind = inferred_dtype(item)
        found = kind if found is None or found is kind else dtypes.promote_types(found, kind)
        if found is dtypes.complex128:  # (nothing promotes past it: torch stops looking)
            return found
    return found


def is_sequence(item) -> bool:
    """Python's test for a sequence, which torch uses: lists, tuples, ranges, strings, arrays;
    not a tensor (torch reads one as a number), nor a dict or a NumPy scalar."""
    kind = type(item)
    if kind is list or kind is tuple:
        return True
    return hasattr(kind, "__getitem__") and hasattr(kind, "__len__") and \
        not issubclass(kind, Tensor | dict)


_NUMBERS = (float, int, bool, complex)


def _contents(data) -> tuple[bool, bool, bool]:
    """What ``data`` holds, anywhere inside: only numbers and NumPy arrays and scalars of
    numbers (no tensor, no None, no text...); any array; any NumPy scalar float that is no
    Python float (float32, float16)."""
    plain, arrays, single_floats = True, False, False
    stack = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind in _NUMBERS:
            continue
        if kind is list or kind is tuple:
            stack.extend(item)
        elif isinstance(item, np.ndarray):
            arrays = True
            plain = plain and item.dtype.kind in "biufc"
        elif isinstance(item, np.generic):
            plain = plain and item.dtype.kind in "biufc"
            single_floats = single_floats or (item.dtype.kind == "f" and
                                              not isinstance(item, float))
        elif not isinstance(item, _NUMBERS):  # (a tensor, None, a str, a range...)
            plain = False
    return plain, arrays, single_floats


def _store(item, sizes: list[int], dim: int, convert, values: list) -> None:
    """``item``'s numbers onto ``values``, in order, each converted as torch stores it."""
    if dim == len(sizes):
        values.append(convert(item))
        return
    length = sizes[dim]
    try:
        items = item if type(item) is list or type(item) is tuple else list(item)
    except TypeError:
        raise TypeError("not a sequence") from None
    if len(items) != length:
        raise ValueError(f"expected sequence of length {length} at dim {dim} "
                         f"(got {len(items)})")
    for element in items:
        _store(element, sizes, dim + 1, convert, values)


def _converter(dtype: dtypes.dtype):
    if dtype.is_complex:
        return _complex_of
    if dtype.is_floating_point:
        return _real_of
    if dtype is dtypes.bool:
        return _bool_of
    info = np.iinfo(dtype.numpy)
    return lambda item: _integer_of(item, info, str(dtype).removeprefix("torch."))


def _real_of(item) -> float:
    """As C reads a double: a float, else the number's __float__ (a tensor's: its own
    errors), else its __index__."""
    if isinstance(item, float):
        return item
    kind = type(item)
    if hasattr(kind, "__float__"):
        return kind.__float__(item)
    if hasattr(kind, "__index__"):
        return float(kind.__index__(item))
    raise TypeError(f"must be real number, not {type_name(item)}")


def _complex_of(item) -> complex:
    if isinstance(item, complex):
        return item
    kind = type(item)
    if hasattr(kind, "__complex__"):
        return kind.__complex__(item)
    return complex(_real_of(item))


def _long_of(item) -> int:
    value = operator.index(item)  # "'list' object cannot be interpreted as an integer"
    if not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return value


def _bool_of(item) -> bool:
    if isinstance(item, float | complex):
        return bool(item)
    value = operator.index(item)
    return bool(value)  # (beyond 64 bits torch says True too)


def _integer_of(item, info: np.iinfo, name: str) -> int:
    """A float truncated, an integer as it is, either refused past the type's range; an
    unsigned type takes negative integers (not floats) down to minus its maximum, wrapped,
    as torch's checked cast does."""
    if isinstance(item, float):  # compared as doubles: 2.0 ** 63 passes for int64
        if not float(info.min) <= item <= float(info.max):  # (False for NaN too)
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")
        whole = int(item)
        return whole if whole <= info.max else info.min  # (x86's answer for 2.0 ** 63)
    value = _long_of(item)
    lowest = -info.max if info.min == 0 else info.min
    if not lowest <= value <= info.max:
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    return value % (info.max + 1) if info.min == 0 else value


# c10's names for the integer types, in its "value cannot be converted to type ..." error
_C_INTEGER_NAMES = {np.dtype(np.int8): "int8_t", np.dtype(np.uint8): "uint8_t",
                    np.dtype(np.int16): "int16_t", np.dtype(np.int32): "int",
                    np.dtype(np.int64): "int64_t"}


def checked_fill(value, dtype: np.dtype):
    """A number to fill a tensor of NumPy ``dtype`` with (full, fill_, masked_fill...), checked
    as torch's checked convert does for an integer type: its error past the type's range (a
    float truncated, NaN refused; an unsigned type takes negative integers down to minus its
    maximum, wrapped); a Python int beyond 64 bits refused as torch refuses it."""
    name = _C_INTEGER_NAMES.get(dtype)
    if name is None or isinstance(value, bool | np.bool_):
        return value
    if isinstance(value, int) and not -2 ** 63 <= value < 2 ** 63:
        refuse_beyond_64_bits(value)  # (a uint64 is past every integer type's range here)
        raise RuntimeError(f"value cannot be converted to type {name} without overflow")
    if isinstance(value, int | float | np.integer | np.floating):
        return _integer_of(value.item() if isinstance(value, np.generic) else value,
                           np.iinfo(dtype), name)
    return value


def type_name(item) -> str:
    """How Python's C code names ``item``'s type: a Python class by its name, a type of C
    code by its full name (``numpy.ndarray``), a builtin by its own (``list``)."""
    kind = type(item)
    if kind.__flags__ & _HEAP_TYPE or kind.__module__ == "builtins":
        return kind.__name__
    return f"{kind.__module__}.{kind.__qualname__}"
