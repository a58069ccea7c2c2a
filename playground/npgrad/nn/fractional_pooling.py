"""Fractional max pooling (torch's F.fractional_max_pool2d/3d and their modules): max pooling
whose windows start at pseudo-random places, one uniform sample per plane and dimension
(drawn from torch's generator when none is given), so that the output may have any size
between the input's and the input's over the kernel. FractionalMaxPool2DBackward0 and its
3-D twin scatter the gradient to each window's maximum."""

from __future__ import annotations

import numpy as np

from .. import _factories, _recording
from .._tensor import Tensor
from .modules import Module
from .more_pooling import window_maxima

_AXES = {2: ("height", "width"), 3: ("time", "height", "width")}


def _tuple(value, dims: int) -> tuple:
    return tuple(value) if isinstance(value, tuple | list) else (value,) * dims


def _output_size(input: Tensor, output_size, output_ratio, dims: int) -> tuple:
    """The output's size as torch's Python code works it out (a ratio of the input's)."""
    if output_size is None and output_ratio is None:
        raise ValueError(f"fractional_max_pool{dims}d requires specifying either an "
                         "output_size or an output_ratio")
    if output_size is not None:
        return _tuple(output_size, dims)
    if dims == 2 and len(output_ratio) > 2:  # (torch asks a float its length too)
        raise ValueError("fractional_max_pool2d requires output_ratio to either be a single "
                         "Int or tuple of Ints.")
    ratio = _tuple(output_ratio, dims)
    return tuple(int(input.size(-dims + axis) * ratio[axis]) for axis in range(dims))


def _check_input(input: Tensor, kernel: tuple, size: tuple, dims: int) -> None:
    name = "fractional_max_pool2d" if dims == 2 else "fractional_max_pool3d_out"
    if len(kernel) != dims:
        raise RuntimeError(f"{name}: kernel_size must either be a single Int or tuple of Ints")
    if len(size) != dims:
        raise RuntimeError(f"{name}: output_size must either be a single Int or tuple of Ints")
    if input.dim() not in (dims + 1, dims + 2):
        raise RuntimeError(f"{name}(): Expected {dims + 1}D or {dims + 2}D tensor, but got: "
                           f"{list(input.shape)}")
    for axis in range(1, input.dim()):
        if input.shape[axis] <= 0:
            raise RuntimeError(f"{name}(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got{list(input.shape)} with dimension {axis} "
                               "being empty.")
    for axis, side in enumerate(_AXES[dims]):  # (torch's 3-D check is strict, its 2-D not)
        if size[axis] + kernel[axis] - 1 + (dims == 3) > input.shape[-dims + axis]:
            raise RuntimeError(f"{name}(): pool {side} {kernel[axis]} too large relative to "
                               f"input {side} {input.shape[-dims + axis]}")


def _check_samples(input: Tensor, samples: Tensor, dims: int) -> None:
    batch, planes = (1, input.shape[0]) if input.dim() == dims + 1 else input.shape[:2]
    if samples.dtype != input.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    if samples.dim() != 3:
        raise RuntimeError(f"Expect _random_samples to have 3 dimensions, got {samples.dim()}")
    if samples.shape[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != planes:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != dims:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {dims}; got "
                           f"{samples.shape[2]}.")


def _starts(samples: np.ndarray, length: int, outputs: int, kernel: int) -> np.ndarray:
    """Each plane's window starts along one dimension, in the input's float type as torch's
    generate_intervals computes them: trunc((i + u)·α) − trunc(u·α), α = (L − k) / (O − 1),
    and the last window at the end."""
    starts = np.empty((*samples.shape, outputs), np.int64)
    if outputs > 1:
        kind = samples.dtype.type
        alpha = kind(length - kernel) / kind(outputs - 1)
        offset = (samples * alpha).astype(np.int64)
        for i in range(outputs - 1):
            starts[..., i] = ((kind(i) + samples) * alpha).astype(np.int64) - offset
    starts[..., -1] = length - kernel
    return starts


def _pooled(data: np.ndarray, samples: np.ndarray, kernel: tuple, size: tuple) -> tuple:
    """The maximum of each window of (N, C, *spatial) data and its flat index in its plane:
    the first of equals, the last NaN where a window holds one (torch's scan)."""
    spatial = data.shape[2:]
    dims = len(spatial)
    flat = np.zeros((*data.shape[:2],) + (1,) * (2 * dims), np.int64)
    # which sample is whose, as torch reads them: (width, height) in 2-D, (time, height,
    # width) in 3-D
    for axis in range(dims):
        sample = samples[..., dims - 1 - axis if dims == 2 else axis]
        starts = _starts(sample, spatial[axis], size[axis], kernel[axis])
        places = starts[..., :, None] + np.arange(kernel[axis])  # (N, C, out, k)
        shape = [*data.shape[:2]] + [1] * (2 * dims)
        shape[2 + axis], shape[2 + dims + axis] = size[axis], kernel[axis]
        flat = flat * spatial[axis] + places.reshape(shape)
    windows = flat.reshape(*data.shape[:2], *size, -1)
    values = np.take_along_axis(data.reshape(*data.shape[:2], -1),
                                windows.reshape(*data.shape[:2], -1), axis=2)
    values = values.reshape(windows.shape)
    best, maxima = window_maxima(values)
    return maxima, np.take_along_axis(windows, best[..., None], -1)[..., 0]


def _fractional(input: Tensor, kernel_size, output_size, output_ratio, return_indices: bool,
                samples: Tensor | None, dims: int):
    size = _output_size(input, output_size, output_ratio, dims)
    if samples is None:
        batch = 1 if input.dim() == dims + 1 else input.size(0)
        samples = _factories.rand(batch, input.size(-dims - 1), dims, dtype=input.dtype)
    kernel = _tuple(kernel_size, dims)
    _check_input(input, kernel, size, dims)
    _check_samples(input, samples, dims)
    data = input._data
    batched = data if input.dim() == dims + 2 else data[None]
    values, indices = _pooled(batched, samples._data[:batched.shape[0]], kernel, size)
    if input.dim() == dims + 1:
        values, indices = values[0], indices[0]
    result = _recording.output(f"fractional_max_pool{dims}d", values, (input,),
                               (input, tuple(data.shape), indices, dims))
    return (result, Tensor._make(indices)) if return_indices else result


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices,
                       _random_samples, 2)


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                          return_indices: bool = False, _random_samples=None):
    return _fractional(input, kernel_size, output_size, output_ratio, return_indices,
                       _random_samples, 3)


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size, output_size=None,
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples=None):
    return fractional_max_pool2d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size, output_size=None,
                                       output_ratio=None, return_indices: bool = False,
                                       _random_samples=None):
    return fractional_max_pool3d(input, kernel_size, output_size, output_ratio, True,
                                 _random_samples)


class _FractionalMaxPoolNd(Module):
    dims = 2

    def __init__(self, kernel_size, output_size=None, output_ratio=None,
                 return_indices: bool = False, _random_samples=None) -> None:
        super().__init__()
        name = f"FractionalMaxPool{self.dims}d"
        self.kernel_size = _tuple(kernel_size, self.dims)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = None if output_size is None else _tuple(output_size, self.dims)
        self.output_ratio = None if output_ratio is None else _tuple(output_ratio, self.dims)
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a "
                             "pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor):
        return _fractional(input, self.kernel_size, self.output_size, self.output_ratio,
                           self.return_indices, self._random_samples, self.dims)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    dims = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    dims = 3

