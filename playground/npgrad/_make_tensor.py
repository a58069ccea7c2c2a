"""torch.testing.make_tensor: a tensor of a shape and dtype drawn uniformly from [low, high),
drawing from the default generator as torch's does (randint, or uniform_ on the values)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

from . import _dtype as dtypes

# the range a dtype's kind draws from when none is given: [low, high)
_DEFAULT_RANGE = {"bool": (0, 2), "unsigned": (0, 10), "signed": (-9, 10), "float": (-9, 9)}


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad: bool = False,
                noncontiguous: bool = False, exclude_zero: bool = False,
                memory_format=None):
    """Uniform values in [low, high) (defaults by dtype: bool [0, 2), unsigned [0, 10),
    signed [-9, 10), floating and complex [-9, 9)), clamped to what the dtype holds."""
    import playground.npgrad as torch

    if len(shape) == 1 and isinstance(shape[0], Sequence):
        shape = shape[0]
    shape = tuple(shape)
    kind = _kind_of(dtype)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually "
                         f"exclusive, but got noncontiguous={noncontiguous!r} and "
                         f"memory_format={memory_format!r}")
    if requires_grad and kind in ("bool", "unsigned", "signed"):
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral "
                         f"dtypes, but got dtype={dtype}")
    # (a tensor of one element has no other layout)
    noncontiguous = noncontiguous and math.prod(shape) > 1
    drawn_shape = (*shape[:-1], 2 * shape[-1]) if noncontiguous else shape
    low, high = _range(low, high, dtype, kind)
    if kind != "float":
        result = torch.randint(low, high, drawn_shape, device=device, dtype=dtype)
    else:
        result = torch.empty(drawn_shape, device=device, dtype=dtype)
        values = torch.view_as_real(result) if result.is_complex() else result
        if high - low >= torch.finfo(dtype).max:  # the width itself would overflow
            values.uniform_(low / 2, high / 2).mul_(2)
        else:
            values.uniform_(low, high)
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = torch.finfo(dtype).tiny if kind == "float" else 1
    if kind == "float":
        result.requires_grad = requires_grad
    return result


def _kind_of(dtype) -> str:
    """bool, unsigned, signed or float (complex included); TypeError for another dtype."""
    if dtype is dtypes.bool:
        return "bool"
    if dtype.is_floating_point or dtype.is_complex:
        return "float"
    if dtype in (dtypes.uint8, getattr(dtypes, "uint16", None), getattr(dtypes, "uint32", None),
                 getattr(dtypes, "uint64", None)):
        return "unsigned"
    if dtype in (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64):
        return "signed"
    raise TypeError(f"The requested dtype '{dtype}' is not supported by "
                    f"torch.testing.make_tensor(). To request support, file an issue at: "
                    f"https://github.com/pytorch/pytorch/issues")


def _range(low, high, dtype, kind: str) -> tuple:
    """[low, high) as given (or the kind's default), checked as torch checks it, clamped to
    the dtype's finite values; whole numbers (rounded up) for bool and integers."""
    import playground.npgrad as torch

    default_low, default_high = _DEFAULT_RANGE[kind]
    low = default_low if low is None else low
    high = default_high if high is None else high
    if kind == "bool":
        lowest, highest = 0, 2
    elif kind == "float":
        lowest, highest = torch.finfo(dtype).min, torch.finfo(dtype).max
    else:  # (int64's largest is excluded: its range cannot reach one past it)
        info = torch.iinfo(dtype)
        lowest, highest = info.min, info.max + (dtype is not dtypes.int64)
    if any(isinstance(value, float) and math.isnan(value) for value in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and kind == "float":
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or "
                      "complex types is deprecated since 2.1 and will be removed in 2.3. Use "
                      "`torch.full(...)` instead.", FutureWarning, stacklevel=4)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, "
                         f"{high}), but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if kind != "float":
        return math.ceil(low), math.ceil(high)
    return low, high
