"""Memory formats: where a copy's elements lie (torch's clone, contiguous and to), and the
channels-last checks of ``is_contiguous``."""

from __future__ import annotations

import numpy as np

from ._strides import element_strides, in_order, preserved
from ._type_info import channels_last, channels_last_3d, contiguous_format, preserve_format

# channels-last formats: their rank, and the dimensions from the outermost to the innermost
_LAST = {channels_last: (4, (0, 2, 3, 1), "channels_last"),
         channels_last_3d: (5, (0, 2, 3, 4, 1), "channels_last_3d")}


def laid_out(data: np.ndarray, memory_format=None) -> np.ndarray:
    """A copy of ``data`` in ``memory_format``: torch's preserve_format (the default) keeps a
    dense tensor's strides and a strided one's order of dimensions; the others as named."""
    if memory_format is None or memory_format is preserve_format:
        return preserved(data)
    if memory_format is contiguous_format:
        return data.copy(order="C")
    return in_order(data, _channels_last_order(data, memory_format))


def _channels_last_order(data: np.ndarray, memory_format) -> tuple[int, ...]:
    rank, order, name = _LAST[memory_format]
    if data.ndim != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {name} format")
    return order


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
