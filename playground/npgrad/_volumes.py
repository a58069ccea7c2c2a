"""Convolution and pooling of volumes (N, C, D, H, W) on arrays: forward and the gradients
torch gives (conv3d's input and weight gradients, max pooling's window maxima and where each
came from, average pooling's windows)."""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ._convolution import window_maxima

DIMS = 3


def triple(value) -> tuple[int, int, int]:
    return (value,) * DIMS if isinstance(value, int) else tuple(value)


def padded(data: np.ndarray, padding: tuple, value: float = 0.0) -> np.ndarray:
    if not any(padding):
        return data
    return np.pad(data, ((0, 0), (0, 0), *((side, side) for side in padding)),
                  constant_values=value)


def windows(data: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """(N, C, OD, OH, OW, KD, KH, KW) views of the (padded) input under each output."""
    span = tuple((k - 1) * d + 1 for k, d in zip(kernel, dilation, strict=True))
    views = sliding_window_view(data, span, axis=(2, 3, 4))
    return views[(slice(None), slice(None), *(slice(None, None, s) for s in stride),
                  *(slice(None, None, d) for d in dilation))]


def _grouped(function, groups: int, *splits, axis_of=None, out_axis: int = 1):
    """``function`` on each group's slices (each split along its axis), joined."""
    axes = axis_of or (1,) * len(splits)
    parts = zip(*(np.split(array, groups, axis=axis)
                  for array, axis in zip(splits, axes, strict=True)), strict=True)
    return np.concatenate([function(*part) for part in parts], axis=out_axis)


def conv3d(data: np.ndarray, weight: np.ndarray, stride, padding, dilation,
           groups: int = 1) -> np.ndarray:
    if groups > 1:
        return _grouped(lambda x, w: conv3d(x, w, stride, padding, dilation), groups, data,
                        weight, axis_of=(1, 0))
    cols = windows(padded(data, padding), weight.shape[2:], stride, dilation)
    out = np.tensordot(cols, weight, axes=([1, 5, 6, 7], [1, 2, 3, 4]))  # (N, OD, OH, OW, O)
    return np.ascontiguousarray(np.moveaxis(out, -1, 1))


def conv3d_input_grad(grad: np.ndarray, shape: tuple, weight: np.ndarray, stride, padding,
                      dilation, groups: int = 1) -> np.ndarray:
    """Each output's gradient spread back over the inputs its window read."""
    if groups > 1:
        part = (shape[0], shape[1] // groups, *shape[2:])
        return _grouped(lambda g, w: conv3d_input_grad(g, part, w, stride, padding, dilation),
                        groups, grad, weight, axis_of=(1, 0))
    cols = np.tensordot(grad, weight, axes=([1], [0]))  # (N, OD, OH, OW, C, KD, KH, KW)
    full = tuple(size + 2 * pad for size, pad in zip(shape[2:], padding, strict=True))
    result = np.zeros((shape[0], shape[1], *full), grad.dtype)
    outs = grad.shape[2:]
    for offsets in np.ndindex(*weight.shape[2:]):
        starts = [o * d for o, d in zip(offsets, dilation, strict=True)]
        where = tuple(slice(start, start + s * count, s)
                      for start, s, count in zip(starts, stride, outs, strict=True))
        result[(slice(None), slice(None), *where)] += np.moveaxis(
            cols[(Ellipsis, *offsets)], -1, 1)
    inside = tuple(slice(pad, size - pad) for pad, size in zip(padding, full, strict=True))
    return np.ascontiguousarray(result[(slice(None), slice(None), *inside)])


def conv3d_weight_grad(grad: np.ndarray, data: np.ndarray, kernel: tuple, stride, padding,
                       dilation, groups: int = 1) -> np.ndarray:
    if groups > 1:
        return _grouped(lambda g, x: conv3d_weight_grad(g, x, kernel, stride, padding,
                                                        dilation),
                        groups, grad, data, out_axis=0)
    cols = windows(padded(data, padding), kernel, stride, dilation)
    return np.tensordot(grad, cols, axes=([0, 2, 3, 4], [0, 2, 3, 4]))  # (O, C, KD, KH, KW)


def max_pool3d(data: np.ndarray, kernel, stride, padding, dilation, extra=(0, 0, 0)):
    """The window maxima and where each came from (flat index into the input's D·H·W)."""
    floor = -np.inf if data.dtype.kind == "f" else np.iinfo(data.dtype).min
    wide = padded(data, padding, floor)
    if any(extra):
        wide = np.pad(wide, ((0, 0), (0, 0), *((0, e) for e in extra)), constant_values=floor)
    views = windows(wide, kernel, stride, dilation)
    picked, values = window_maxima(views.reshape(*views.shape[:5], int(np.prod(kernel))))
    offsets = np.unravel_index(picked, kernel)
    position = 0
    for axis in range(DIMS):
        places = np.arange(values.shape[2 + axis]).reshape(
            [-1 if a == axis else 1 for a in range(DIMS)])
        along = places * stride[axis] + offsets[axis] * dilation[axis] - padding[axis]
        position = position * data.shape[2 + axis] + along
    return values, position
