"""Memory formats: where a copy's elements lie (torch's clone, contiguous and to), and the
channels-last checks of ``is_contiguous``."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._strides import CHANNELS_LAST, element_strides, in_order, preserved
from ._type_info import channels_last, channels_last_3d, contiguous_format, preserve_format

# channels-last formats: their rank, and the dimensions from the outermost to the innermost
_LAST = {channels_last: (4, CHANNELS_LAST, "channels_last"),
         channels_last_3d: (5, (0, 2, 3, 4, 1), "channels_last_3d")}
LAST_ORDERS = {memory_format: order for memory_format, (_, order, _) in _LAST.items()}


def laid_out(data: np.ndarray, memory_format=None) -> np.ndarray:
    """A copy of ``data`` in ``memory_format``: torch's preserve_format (the default) keeps a
    dense tensor's strides and a strided one's order of dimensions; the others as named."""
    if memory_format is None or memory_format is preserve_format:
        return preserved(data)
    if memory_format is contiguous_format:
        return data.copy(order="C")
    return in_order(data, _channels_last_order(data, memory_format))


def _channels_last_order(data: np.ndarray, memory_format) -> tuple[int, ...]:
    check_rank(data, memory_format)
    return LAST_ORDERS[memory_format]


def check_rank(data: np.ndarray, memory_format) -> None:
    """torch's error for a channels-last format of a tensor of another rank."""
    rank, _, name = _LAST[memory_format]
    if data.ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {name} format")


def is_laid_out(data: np.ndarray, memory_format=None) -> bool:
    """``is_contiguous(memory_format)``: whether the strides are that format's (dimensions of
    one element are skipped, as torch skips them)."""
    if memory_format not in _LAST:  # (preserve_format: as contiguous_format, in torch too)
        return bool(data.flags.c_contiguous)
    rank, order, _ = _LAST[memory_format]
    if data.ndim != rank:
        return False
    strides, expected = element_strides(data), 1
    for dim in reversed(order):
        size = data.shape[dim]
        if size != 1:
            if strides[dim] != expected:
                return False
            expected *= size
    return True


def converted_in_place(tensors, dtype, memory_format) -> None:
    """Module.to's conversion of its parameters and buffers: the floating ones to ``dtype``
    (counters stay integers), the 4-d and 5-d ones to ``memory_format``, as torch's."""
    for tensor in tensors:
        data = tensor._data
        if dtype is not None and data.dtype.kind == "f":
            data = dtypes.values_as(data, dtype)
        if memory_format is not None and data.ndim in (4, 5):
            data = laid_out(data, memory_format)
        tensor._data = data
