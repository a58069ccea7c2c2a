"""3-D max pooling's companions: F.adaptive_max_pool3d and F.max_unpool3d with their modules,
as torch's AdaptiveMaxPool3DBackward0 and MaxUnpool3DBackward0 (each differentiable again)."""

from __future__ import annotations

import numpy as np

from .. import _recording
from .._tensor import Tensor
from .._volumes import triple
from .modules import Module
from .more_pooling import _bounds, _MaxUnpoolNd, _unpool_output_size, reported_index, window_maxima


def adaptive_max_pool3d(input: Tensor, output_size, return_indices: bool = False):
    """The largest element of each adaptive box (the first of equals, the last NaN), and its
    flat position in its volume."""
    if input.dim() not in (4, 5):
        raise RuntimeError(f"adaptive_max_pool3d(): Expected 4D or 5D tensor, but got: "
                           f"{list(input.shape)}")
    for axis in range(1, input.dim()):
        if input.shape[axis] == 0:
            raise RuntimeError("adaptive_max_pool3d(): Expected input to have non-zero size for "
                               f"non-batch dimensions, but input has sizes {list(input.shape)} "
                               f"with dimension {axis} being empty")
    data = input._data
    depth, height, width = data.shape[-3:]
    size = tuple(side if side is not None else data.shape[-3 + axis]
                 for axis, side in enumerate(triple(output_size)))
    volumes = data.reshape(-1, depth, height, width)
    values = np.empty((len(volumes), *size), data.dtype)
    indices = np.empty((len(volumes), *size), np.int64)
    for i, (front, back) in enumerate(_bounds(depth, size[0])):
        for j, (top, bottom) in enumerate(_bounds(height, size[1])):
            for m, (left, right) in enumerate(_bounds(width, size[2])):
                box = volumes[:, front:back, top:bottom, left:right].reshape(
                    len(volumes), (back - front) * (bottom - top) * (right - left))
                best, values[:, i, j, m] = window_maxima(box)
                layer, rest = np.divmod(best, (bottom - top) * (right - left))
                row, column = np.divmod(rest, right - left)
                indices[:, i, j, m] = ((front + layer) * height + top + row) * width + \
                    left + column
    shape = (*data.shape[:-3], *size)
    values, indices = values.reshape(shape), indices.reshape(shape)
    result = _recording.output("adaptive_max_pool3d", values, (input,),
                               (input, tuple(data.shape), indices))
    return (result, Tensor._make(indices)) if return_indices else result


def adaptive_max_pool3d_with_indices(input: Tensor, output_size, return_indices: bool = False):
    """torch's older name: the values and their indices, always."""
    return adaptive_max_pool3d(input, output_size, True)


def max_unpool3d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """max_pool3d's values put back where they came from; zeros elsewhere."""
    kernel = triple(kernel_size)
    steps = kernel if stride is None else triple(stride)
    size = _unpool_output_size(input, kernel, steps, triple(padding), output_size)
    data, places = input._data, indices._data.astype(np.int64)
    volume = int(np.prod(size))
    flat_places = places.reshape(*places.shape[:-3], int(np.prod(places.shape[-3:])))
    outside = (places < 0) | (places >= volume)
    if outside.any():
        raise RuntimeError(f"Found an invalid max index: {reported_index(places, outside)} "
                           f"(output volumes are of size {size[0]}x{size[1]}x{size[2]})")
    unpooled = np.zeros((*data.shape[:-3], volume), data.dtype)
    np.put_along_axis(unpooled, flat_places, data.reshape(flat_places.shape), axis=-1)
    return _recording.output("max_unpool3d", unpooled.reshape(*data.shape[:-3], *size),
                             (input,), (places,))


class AdaptiveMaxPool3d(Module):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input: Tensor):
        return adaptive_max_pool3d(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class MaxUnpool3d(_MaxUnpoolNd):
    sizes = staticmethod(triple)

    def forward(self, input: Tensor, indices: Tensor, output_size=None) -> Tensor:
        return max_unpool3d(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)


FUNCTIONS = ("adaptive_max_pool3d", "adaptive_max_pool3d_with_indices", "max_unpool3d")
MODULES = ("AdaptiveMaxPool3d", "MaxUnpool3d")
