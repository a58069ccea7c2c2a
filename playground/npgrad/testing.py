"""``torch.testing``: ``assert_close``, tensors, numbers and sequences of them compared as torch
compares them (attributes first, then values within a tolerance for the dtype), failing with
torch's message."""

from __future__ import annotations

import math

import numpy as np

from ._make_tensor import make_tensor
from ._tensor import Tensor

# torch's defaults: (rtol, atol) by dtype; integers and bools are compared exactly
_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7), "complex64": (1.3e-6, 1e-5),
               "complex128": (1e-7, 1e-7)}


def assert_close(actual, expected, *, allow_subclasses: bool = True, rtol=None, atol=None,
                 equal_nan: bool = False, check_device: bool = True, check_dtype: bool = True,
                 check_layout: bool = True, check_stride: bool = False, msg=None) -> None:
    """Raise AssertionError (as torch words it) unless ``actual`` is close to ``expected``."""
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got "
                         f"no {'rtol' if rtol is None else 'atol'}.")
    failure = _compare(actual, expected, rtol, atol, equal_nan, check_dtype, "")
    if failure is None:
        return
    exception, text = failure
    if msg is not None:
        text = msg(text) if callable(msg) else msg
    raise exception(text)


def _compare(actual, expected, rtol, atol, equal_nan, check_dtype, where):
    """None when close; else (exception type, message)."""
    if isinstance(actual, list | tuple) and isinstance(expected, list | tuple):
        if len(actual) != len(expected):
            return AssertionError, (f"The length of the sequences mismatch: {len(actual)} != "
                                    f"{len(expected)}{_item_note(where)}")
        for index, (mine, theirs) in enumerate(zip(actual, expected, strict=True)):
            failure = _compare(mine, theirs, rtol, atol, equal_nan, check_dtype,
                               f"{where}[{index}]")
            if failure is not None:
                return failure
        return None
    if isinstance(actual, Tensor) and isinstance(expected, Tensor):
        return _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, where)
    if _is_number(actual) and _is_number(expected):
        return _compare_numbers(actual, expected, rtol, atol, equal_nan, where)
    return TypeError, (f"No comparison pair was able to handle inputs of type "
                       f"{_type_name(actual)} and {_type_name(expected)}.")


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_dtype, where):
    for name, mine, theirs in (("shape", actual.shape, expected.shape),
                               ("dtype", actual.dtype, expected.dtype)):
        if (name != "dtype" or check_dtype) and mine != theirs:
            return AssertionError, (f"The values for attribute '{name}' do not match: {mine} "
                                    f"!= {theirs}.{_item_note(where)}")
    a, b = actual._data, expected._data
    if rtol is None:  # the looser of the two dtypes'
        pairs = [_TOLERANCES.get(str(x.dtype), (0.0, 0.0)) for x in (a, b)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    if a.dtype != b.dtype:
        kind = np.result_type(a, b)
        a, b = a.astype(kind), b.astype(kind)
    matches = _close(a, b, rtol, atol, equal_nan)
    if matches.all():
        return None
    return AssertionError, _tensor_message(a, b, matches, rtol, atol) + _item_note(where)


def _close(a: np.ndarray, b: np.ndarray, rtol: float, atol: float, equal_nan: bool):
    """torch.isclose: |a - b| <= atol + rtol |b| in the dtype, equal infinities close."""
    if a.dtype.kind in "biu":
        return a == b
    kind = a.dtype.type
    with np.errstate(invalid="ignore", over="ignore"):
        allowed = kind(atol) + np.abs(kind(rtol) * b)
        close = (a == b) | (np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= allowed))
    if equal_nan:
        close |= np.isnan(a) & np.isnan(b)
    return close


def _tensor_message(a, b, matches, rtol, atol) -> str:
    mismatched, total = int(matches.size - matches.sum()), matches.size
    if a.dtype.kind in "biu":
        a, b = a.astype(np.int64), b.astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        absolute = np.abs(a - b).reshape(-1)
        absolute[matches.reshape(-1)] = 0
        relative = (absolute / np.abs(b.reshape(-1))).astype(
            absolute.dtype if absolute.dtype.kind in "fc" else np.float32)
        relative[matches.reshape(-1)] = 0
    equal = rtol == 0 and atol == 0
    lines = [f"Tensor-likes are not {'equal' if equal else 'close'}!", "",
             f"Mismatched elements: {mismatched} / {total} ({mismatched / total:.1%})",
             _difference("absolute", absolute, a.shape, atol),
             _difference("relative", relative, a.shape, rtol)]
    return "\n".join(lines)


def _difference(kind: str, values: np.ndarray, shape: tuple, tolerance: float) -> str:
    """torch.max over the differences (a NaN wins), with where it is."""
    nans = np.isnan(values) if values.dtype.kind == "f" else np.zeros(values.shape, bool)
    place = int(np.argmax(nans)) if nans.any() else int(np.argmax(values))
    index = tuple(int(i) for i in np.unravel_index(place, shape)) if shape else ()
    text = f"Greatest {kind} difference: {values[place].item()} at index {index}"
    return text + (f" (up to {tolerance} allowed)" if tolerance > 0 else "")


def _compare_numbers(actual, expected, rtol, atol, equal_nan, where):
    if rtol is None:
        exact = isinstance(actual, int) and isinstance(expected, int)
        rtol, atol = (0.0, 0.0) if exact else (1e-7, 1e-7)
    if actual == expected or (equal_nan and _nan(actual) and _nan(expected)) or (
            math.isfinite(actual) and math.isfinite(expected) and
            abs(actual - expected) <= atol + rtol * abs(expected)):
        return None
    difference = abs(actual - expected)
    relative = difference / abs(expected) if expected else math.inf
    equal = rtol == 0 and atol == 0
    lines = [f"Scalars are not {'equal' if equal else 'close'}!", "",
             f"Expected {expected} but got {actual}.",
             f"Absolute difference: {difference}" + (f" (up to {atol} allowed)" if atol else ""),
             f"Relative difference: {relative}" + (f" (up to {rtol} allowed)" if rtol else "")]
    return AssertionError, "\n".join(lines) + _item_note(where)


def _is_number(value) -> bool:
    return isinstance(value, int | float | complex)  # (bools are ints)


def _nan(value) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _type_name(value) -> str:
    return "<class 'torch.Tensor'>" if isinstance(value, Tensor) else str(type(value))


def _item_note(where: str) -> str:
    return f"\n\nThe failure occurred for item {where}" if where else ""


__all__ = ["assert_close", "make_tensor"]
