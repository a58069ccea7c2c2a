"""Average pooling on arrays (NCHW), fixed and adaptive windows: forward and the input
gradient, in the order torch's CPU kernels add (each window's elements row by row)."""

from __future__ import annotations

import numpy as np


def _out_size(size: int, kernel: int, stride: int, padding: int, ceil_mode: bool) -> int:
    """torch's pooling output size: a last window that starts inside the padded input
    counts under ceil_mode, one that starts in the right padding does not."""
    span = size + 2 * padding - kernel
    out = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (out - 1) * stride >= size + padding:
        out -= 1
    return out


def _bounds(out: int, size: int, kernel: int, stride: int, padding: int) -> tuple:
    """Per output index along one axis: the window's start and end clipped to the input,
    and its extent clipped only to the padded input (what count_include_pad divides by)."""
    start = np.arange(out) * stride - padding
    padded_end = np.minimum(start + kernel, size + padding)
    return np.maximum(start, 0), np.minimum(padded_end, size), padded_end - start


class Windows:
    """An average pool's windows: along each axis the outputs' starts and ends clipped to
    the input, and each output's divisor. Fixed windows (avg_pool2d) also keep their kernel,
    stride and padding, so that sums run over all outputs at once."""

    def __init__(self, rows: tuple, columns: tuple, divisor: np.ndarray,
                 fixed: tuple | None = None) -> None:
        self.rows, self.columns, self.divisor, self.fixed = rows, columns, divisor, fixed

    @property
    def out_shape(self) -> tuple[int, int]:
        return self.rows[0].size, self.columns[0].size


def avg_pool2d_windows(shape: tuple, kernel, stride, padding, ceil_mode: bool,
                       count_include_pad: bool, divisor_override) -> Windows:
    rows = _bounds(_out_size(shape[-2], kernel[0], stride[0], padding[0], ceil_mode),
                   shape[-2], kernel[0], stride[0], padding[0])
    columns = _bounds(_out_size(shape[-1], kernel[1], stride[1], padding[1], ceil_mode),
                      shape[-1], kernel[1], stride[1], padding[1])
    if divisor_override:
        divisor = np.full((rows[0].size, columns[0].size), divisor_override)
    elif count_include_pad:
        divisor = np.outer(rows[2], columns[2])
    else:
        divisor = np.outer(rows[1] - rows[0], columns[1] - columns[0])
    return Windows(rows[:2], columns[:2], divisor, (tuple(kernel), tuple(stride),
                                                    tuple(padding)))


def adaptive_windows(shape: tuple, output_size: tuple) -> Windows:
    """Output i of an axis of n reads [⌊i·size/n⌋, ⌈(i+1)·size/n⌉) of it."""
    bounds = []
    for size, out in zip(shape[-2:], output_size, strict=True):
        index = np.arange(out)
        bounds.append((index * size // out, -(-(index + 1) * size // out)))
    rows, columns = bounds
    return Windows(rows, columns, np.outer(rows[1] - rows[0], columns[1] - columns[0]))


def _grid(data: np.ndarray, windows: Windows) -> np.ndarray:
    """The input zero-padded so that every fixed window lies inside it."""
    (kernel, stride, padding), (rows, columns) = windows.fixed, windows.out_shape
    height = max(data.shape[-2] + padding[0], (rows - 1) * stride[0] + kernel[0] - padding[0])
    width = max(data.shape[-1] + padding[1], (columns - 1) * stride[1] + kernel[1] - padding[1])
    widths = [(0, 0)] * (data.ndim - 2) + [(padding[0], height - data.shape[-2]),
                                           (padding[1], width - data.shape[-1])]
    return np.pad(data, widths)


def pool_forward(data: np.ndarray, windows: Windows) -> np.ndarray:
    """Each window's sum, its elements added row by row as torch's kernel adds them (a
    padded zero changes no sum), over its divisor; an adaptive window's sum is divided by
    its height, then by its width, as torch's kernel divides."""
    rows, columns = windows.out_shape
    if windows.fixed is None:
        out = np.zeros((*data.shape[:-2], rows, columns), data.dtype)
        (top, bottom), (left, right) = windows.rows, windows.columns
        for i in range(rows):
            for j in range(columns):
                total = _sequential_sum(data[..., top[i]:bottom[i], left[j]:right[j]])
                out[..., i, j] = total / data.dtype.type(bottom[i] - top[i]) / \
                    data.dtype.type(right[j] - left[j])
        return out
    (kernel, stride, _), grid = windows.fixed, _grid(data, windows)
    total = np.zeros((*data.shape[:-2], rows, columns), data.dtype)
    for row in range(kernel[0]):
        for column in range(kernel[1]):
            total = total + grid[..., row:row + stride[0] * rows:stride[0],
                                 column:column + stride[1] * columns:stride[1]]
    return total / windows.divisor.astype(data.dtype)


def _sequential_sum(window: np.ndarray) -> np.ndarray:
    total = np.zeros(window.shape[:-2], window.dtype)
    for row in range(window.shape[-2]):
        for column in range(window.shape[-1]):
            total = total + window[..., row, column]
    return total


def pool_backward(grad: np.ndarray, shape: tuple, windows: Windows) -> np.ndarray:
    """Each output's gradient over its divisor, added to every input its window read."""
    rows, columns = windows.out_shape
    if windows.fixed is None:  # (adaptive: over the height, then the width)
        result = np.zeros((*grad.shape[:-2], *shape[-2:]), grad.dtype)
        (top, bottom), (left, right) = windows.rows, windows.columns
        for i in range(rows):
            for j in range(columns):
                share = grad[..., i, j] / grad.dtype.type(bottom[i] - top[i]) / \
                    grad.dtype.type(right[j] - left[j])
                result[..., top[i]:bottom[i], left[j]:right[j]] += share[..., None, None]
        return result
    (kernel, stride, padding) = windows.fixed
    share = grad / windows.divisor.astype(grad.dtype)
    grid = _grid(np.zeros((*grad.shape[:-2], *shape[-2:]), grad.dtype), windows)
    # where windows overlap, an input hears from the outputs in their order, as torch's
    # loop adds them: a later output reads it at an earlier offset
    for row in reversed(range(kernel[0])):
        for column in reversed(range(kernel[1])):
            grid[..., row:row + stride[0] * rows:stride[0],
                 column:column + stride[1] * columns:stride[1]] += share
    return np.ascontiguousarray(grid[..., padding[0]:padding[0] + shape[-2],
                                     padding[1]:padding[1] + shape[-1]])
