"""2-D convolution (1-d as height 1) and max pooling on arrays (NCHW), forward and the gradients
torch gives; a transposed convolution's output size."""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view


def _pair(value) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else tuple(value)


def _windows(padded: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """(N, C, OH, OW, KH, KW) views of the input under each output position."""
    span = ((kernel[0] - 1) * dilation[0] + 1, (kernel[1] - 1) * dilation[1] + 1)
    views = sliding_window_view(padded, span, axis=(2, 3))
    return views[:, :, ::stride[0], ::stride[1], ::dilation[0], ::dilation[1]]


def _padded(data: np.ndarray, padding: tuple, value: float = 0.0) -> np.ndarray:
    if padding == (0, 0):
        return data
    widths = ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2)
    return np.pad(data, widths, constant_values=value)


def conv2d(data: np.ndarray, weight: np.ndarray, stride, padding, dilation,
           groups: int = 1, channels_last: bool = False) -> np.ndarray:
    """Each output channel's filter over its group's input channels (all when groups is 1),
    row-major, or channels-last as computed when ``channels_last`` asks for it."""
    if groups > 1:
        return np.concatenate([conv2d(part, filters, stride, padding, dilation)
                               for part, filters in zip(np.split(data, groups, axis=1),
                                                        np.split(weight, groups), strict=True)],
                              axis=1)
    cols = _windows(_padded(data, padding), weight.shape[2:], stride, dilation)
    out = np.tensordot(cols, weight, axes=([1, 4, 5], [1, 2, 3]))  # (N, OH, OW, O)
    out = out.transpose(0, 3, 1, 2)
    return out if channels_last else np.ascontiguousarray(out)


def conv2d_input_grad(grad: np.ndarray, shape: tuple, weight: np.ndarray, stride, padding,
                      dilation, groups: int = 1) -> np.ndarray:
    """Each output's gradient spread back over the inputs its window read (col2im)."""
    if groups > 1:
        part_shape = (shape[0], shape[1] // groups, *shape[2:])
        return np.concatenate([conv2d_input_grad(part, part_shape, filters, stride, padding,
                                                 dilation)
                               for part, filters in zip(np.split(grad, groups, axis=1),
                                                        np.split(weight, groups), strict=True)],
                              axis=1)
    cols = np.tensordot(grad, weight, axes=([1], [0]))  # (N, OH, OW, C, KH, KW)
    height, width = shape[2] + 2 * padding[0], shape[3] + 2 * padding[1]
    result = np.zeros((shape[0], shape[1], height, width), grad.dtype)
    rows, columns = grad.shape[2], grad.shape[3]
    for i in range(weight.shape[2]):
        for j in range(weight.shape[3]):
            top, left = i * dilation[0], j * dilation[1]
            result[:, :, top:top + stride[0] * rows:stride[0],
                   left:left + stride[1] * columns:stride[1]] += \
                cols[:, :, :, :, i, j].transpose(0, 3, 1, 2)
    return result[:, :, padding[0]:height - padding[0], padding[1]:width - padding[1]]


def conv2d_weight_grad(grad: np.ndarray, data: np.ndarray, kernel: tuple, stride, padding,
                       dilation, groups: int = 1) -> np.ndarray:
    if groups > 1:  # each group's filters from its own inputs and outputs
        return np.concatenate([conv2d_weight_grad(part, inputs, kernel, stride, padding,
                                                  dilation)
                               for part, inputs in zip(np.split(grad, groups, axis=1),
                                                       np.split(data, groups, axis=1),
                                                       strict=True)])
    cols = _windows(_padded(data, padding), kernel, stride, dilation)
    return np.tensordot(grad, cols, axes=([0, 2, 3], [0, 2, 3]))  # (O, C, KH, KW)


def conv1d(input, filters, stride, padding, dilation, groups):
    """A 1-d convolution of arrays: the 2-d one at height 1."""
    return conv2d(input[:, :, None], filters[:, :, None], (1, *stride), (0, *padding),
                  (1, *dilation), groups)[:, :, 0]


def conv1d_weight_grad(input, grad, size, stride, padding, dilation, groups):
    """A 1-d convolution's weight gradient, of arrays: the 2-d one's at height 1."""
    return conv2d_weight_grad(input[:, :, None], grad[:, :, None], (1, *size), (1, *stride),
                              (0, *padding), (1, *dilation), groups)[:, :, 0]


def transposed_size(input_shape, filter_shape, stride, padding, output_padding,
                    dilation) -> list[int]:
    """A transposed convolution's output sizes: each input step spreads its dilated filter
    `stride` apart, trimmed by the padding on both sides and extended by output_padding."""
    return [(size - 1) * step - 2 * pad + spacing * (kernel - 1) + extra + 1
            for size, kernel, step, pad, extra, spacing in zip(
                input_shape[2:], filter_shape[2:], stride, padding, output_padding, dilation,
                strict=True)]


def window_maxima(windows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Along the last axis: where each window's maximum is and its value, as torch's max
    pooling kernels find it (a strict ``>`` keeps the first of equals; a NaN always wins, so
    the last NaN is taken)."""
    best = np.argmax(windows, axis=-1)
    missing = np.isnan(windows)
    if missing.any():
        last_nan = windows.shape[-1] - 1 - np.argmax(missing[..., ::-1], axis=-1)
        best = np.where(missing.any(axis=-1), last_nan, best)
    return best, np.take_along_axis(windows, best[..., None], -1)[..., 0]


def max_pool2d(data: np.ndarray, kernel, stride, padding, dilation,
               extra: tuple = (0, 0)) -> tuple:
    """The window maxima and where each came from (flat index into the input's H*W);
    ``extra`` rows and columns of -inf on the far side let ceil_mode's last windows fit."""
    floor = -np.inf if data.dtype.kind == "f" else np.iinfo(data.dtype).min
    padded = _padded(data, padding, floor)
    if extra != (0, 0):
        padded = np.pad(padded, ((0, 0), (0, 0), (0, extra[0]), (0, extra[1])),
                        constant_values=floor)
    windows = _windows(padded, kernel, stride, dilation)
    picked, values = window_maxima(windows.reshape(*windows.shape[:4], kernel[0] * kernel[1]))
    i, j = np.divmod(picked, kernel[1])
    rows = np.arange(values.shape[2])[:, None] * stride[0] + i * dilation[0] - padding[0]
    columns = np.arange(values.shape[3])[None, :] * stride[1] + j * dilation[1] - padding[1]
    return values, rows * data.shape[3] + columns


def max_plane_scatter(grad: np.ndarray, shape: tuple, indices: np.ndarray,
                      dims: int) -> np.ndarray:
    """Each window's gradient added to its maximum, plane by plane (of `dims` sides) and
    window after window as torch adds them (sizes spelt out, for empty batches)."""
    planes, spatial = int(np.prod(shape[:-dims])), int(np.prod(shape[-dims:]))
    result = np.zeros((planes, spatial), grad.dtype)
    flat_grad = grad.reshape(planes, int(np.prod(grad.shape[-dims:])))
    flat_index = indices.reshape(flat_grad.shape)
    for plane in range(planes):  # (np.add.at: a maximum shared by windows hears from each)
        np.add.at(result[plane], flat_index[plane], flat_grad[plane])
    return result.reshape(shape)
