"""More pooling and distances: F.adaptive_max_pool1d/2d (torch's AdaptiveMaxPool2DBackward0,
its indices, its double backward), F.lp_pool1d/2d/3d (torch's composite of average pooling,
max pooling for p = ±∞) and F.pdist (PdistBackward0, whose gradient torch cannot
differentiate again), with modules."""

from __future__ import annotations

import math

import numpy as np

from .. import _recording
from .._convolution import _pair, window_maxima
from .._formula_kit import Kit
from .._tensor import Tensor
from .._volumes import triple
from .convolution import max_pool1d, max_pool2d
from .modules import Module
from .pooling import _single, avg_pool1d, avg_pool2d


def _bounds(size_in: int, size_out: int) -> list[tuple[int, int]]:
    """Each output's input range: floor(o·I/O) to ceil((o+1)·I/O)."""
    return [(o * size_in // size_out, -(-(o + 1) * size_in // size_out))
            for o in range(size_out)]


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """The largest element of each adaptive window (the first of equals, the last NaN), and
    its flat position in its plane."""
    if input.dim() not in (3, 4):
        raise RuntimeError(f"adaptive_max_pool2d(): Expected 3D or 4D tensor, but got: "
                           f"{list(input.shape)}")
    data = input._data
    planes = data.reshape(-1, *data.shape[-2:])
    height, width = data.shape[-2:]
    size = tuple(side if side is not None else data.shape[-2 + i]
                 for i, side in enumerate(_pair(output_size)))
    values = np.empty((len(planes), *size), data.dtype)
    indices = np.empty((len(planes), *size), np.int64)
    for i, (top, bottom) in enumerate(_bounds(height, size[0])):
        for j, (left, right) in enumerate(_bounds(width, size[1])):
            window = planes[:, top:bottom, left:right].reshape(
                len(planes), (bottom - top) * (right - left))
            best, values[:, i, j] = window_maxima(window)
            rows, columns = np.divmod(best, right - left)
            indices[:, i, j] = (top + rows) * width + left + columns
    shape = (*data.shape[:-2], *size)
    values, indices = values.reshape(shape), indices.reshape(shape)
    result = _recording.output("adaptive_max_pool2d", values, (input,),
                               (input, tuple(data.shape), indices))
    return (result, Tensor._make(indices)) if return_indices else result


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """adaptive_max_pool2d over one row, as torch computes it (unsqueeze, pool, squeeze)."""
    if input.dim() not in (2, 3):
        raise RuntimeError(f"adaptive_max_pool1d(): Expected 2D or 3D tensor, but got: "
                           f"{list(input.shape)}")
    pooled = adaptive_max_pool2d(input.unsqueeze(-2), (1, _single(output_size)), True)
    values, indices = pooled[0].squeeze(-2), pooled[1].squeeze(-2)
    return (values, indices) if return_indices else values


def adaptive_max_pool1d_and_indices(input: Tensor, output_size):
    """torch.adaptive_max_pool1d: the values and their indices, always."""
    return adaptive_max_pool1d(input, output_size, True)


def _lp_pool(average, biggest, input: Tensor, norm_type, kernel_size, stride, ceil_mode: bool,
             window: int) -> Tensor:
    """(Σ x^p over each window)^(1/p), as torch composes it of average pooling; for p = ±∞
    the largest (smallest) |x|, by max pooling."""
    if isinstance(norm_type, int | float) and math.isinf(norm_type):
        if norm_type > 0:
            return biggest(input.abs(), kernel_size, stride, 0, 1, ceil_mode)
        return -biggest(-input.abs(), kernel_size, stride, 0, 1, ceil_mode)
    out = average(input.pow(norm_type), kernel_size, stride, 0, ceil_mode)
    return (out.sign() * out.abs().relu()).mul(window).pow(1.0 / norm_type)


def lp_pool2d(input: Tensor, norm_type, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    width, height = _pair(kernel_size)
    return _lp_pool(avg_pool2d, max_pool2d, input, norm_type, kernel_size, stride, ceil_mode,
                    width * height)


def lp_pool1d(input: Tensor, norm_type, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    return _lp_pool(avg_pool1d, max_pool1d, input, norm_type, kernel_size, stride, ceil_mode,
                    kernel_size)


def lp_pool3d(input: Tensor, norm_type, kernel_size, stride=None,
              ceil_mode: bool = False) -> Tensor:
    from .volumes import avg_pool3d, max_pool3d

    depth, width, height = triple(kernel_size)
    return _lp_pool(avg_pool3d, max_pool3d, input, norm_type, kernel_size, stride, ceil_mode,
                    depth * width * height)


def pdist(input: Tensor, p: float = 2) -> Tensor:
    """The p-norm distance of each pair of rows i < j, in row order."""
    if input.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input.dim()}D")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    data = input._data
    first, second = np.triu_indices(len(data), 1)
    differences = np.abs(data[first] - data[second])
    if p == 0:
        values = (differences != 0).sum(1).astype(data.dtype)
    elif math.isinf(p):
        values = differences.max(1, initial=0)
    else:
        values = (differences ** data.dtype.type(p)).sum(1) ** data.dtype.type(1 / p)
    return _recording.output("pdist", np.asarray(values, data.dtype), (input,),
                             (input, p, _recording.RESULT))


def pdist_grad(k, grad, self, p, result):
    """_pdist_backward: each pair's gradient along its difference, to row i and (negated)
    row j; under create_graph torch's node, which nothing differentiates."""
    flowing = np.asarray(getattr(grad, "_data", grad))
    data = np.asarray(getattr(self, "_data", self))
    distances = np.asarray(getattr(result, "_data", result))[:, None]
    first, second = np.triu_indices(len(data), 1)
    difference = data[first] - data[second]
    with np.errstate(all="ignore"):
        if p == 0:
            terms = np.zeros_like(difference)
        elif p == 1:
            terms = np.sign(difference)
        elif math.isinf(p):
            terms = np.sign(difference) * (np.abs(difference) == distances)
        elif p == 2:
            terms = difference / distances
        else:
            terms = difference * np.abs(difference) ** (p - 2) / distances ** (p - 1)
        terms = np.where(distances == 0, 0, terms) * flowing[:, None]
    values = np.zeros_like(data)
    np.add.at(values, first, terms)
    np.add.at(values, second, -terms)
    if isinstance(grad, np.ndarray):
        return values
    return k._backward_of("pdist_backward", values, (grad, self, result))


class AdaptiveMaxPool2d(Module):
    def __init__(self, output_size, return_indices: bool = False) -> None:
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def forward(self, input: Tensor):
        return adaptive_max_pool2d(input, self.output_size, self.return_indices)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveMaxPool1d(AdaptiveMaxPool2d):
    def forward(self, input: Tensor):
        return adaptive_max_pool1d(input, self.output_size, self.return_indices)


class LPPool2d(Module):
    def __init__(self, norm_type: float, kernel_size, stride=None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    pool = staticmethod(lp_pool2d)

    def forward(self, input: Tensor) -> Tensor:
        return self.pool(input, float(self.norm_type), self.kernel_size, self.stride,
                         self.ceil_mode)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(LPPool2d):
    pool = staticmethod(lp_pool1d)


class LPPool3d(LPPool2d):
    pool = staticmethod(lp_pool3d)


Kit.pdist_grad = pdist_grad

FUNCTIONS = ("adaptive_max_pool1d", "adaptive_max_pool2d", "lp_pool1d", "lp_pool2d", "lp_pool3d",
             "pdist")
MODULES = ("AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "LPPool1d", "LPPool2d", "LPPool3d")


def _unpool_output_size(input: Tensor, kernel: tuple, stride: tuple, padding: tuple,
                        output_size) -> list[int]:
    """torch's: each size the pool came from, or the one asked for if it is one of them."""
    default = [(input.shape[-len(kernel) + d] - 1) * stride[d] + kernel[d] - 2 * padding[d]
               for d in range(len(kernel))]
    if output_size is None:
        return default
    if len(output_size) == len(kernel) + 2:
        output_size = output_size[2:]
    if len(output_size) != len(kernel):
        raise ValueError(f"output_size should be a sequence containing {len(kernel)} or "
                         f"{len(kernel) + 2} elements, but it has a length of "
                         f"'{len(output_size)}'")
    for d in range(len(kernel)):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{output_size}" (dim {d} must be between '
                             f"{low} and {high})")
    return list(output_size)


def _unpooled(input: Tensor, indices: Tensor, size: list[int]) -> Tensor:
    """Each value written at its index in a zero plane of ``size`` (MaxUnpool2DBackward0)."""
    height, width = size
    data, places = input._data, indices._data.astype(np.int64)
    flat_values = data.reshape(*data.shape[:-2], -1)
    flat_places = places.reshape(*places.shape[:-2], -1)
    outside = (places < 0) | (places >= height * width)
    if outside.any():
        raise RuntimeError(f"Found an invalid max index: {reported_index(places, outside)} "
                           f"(output volumes are of size {height}x{width})")
    plane = np.zeros((*data.shape[:-2], height * width), data.dtype)
    np.put_along_axis(plane, flat_places, flat_values, axis=-1)
    return _recording.output("max_unpool2d", plane.reshape(*data.shape[:-2], height, width),
                             (input,), (places,))


def reported_index(places: np.ndarray, outside: np.ndarray) -> int:
    """The bad index torch names: its loop notes each bad one it meets, so one thread names
    the last of all (several threads race to note theirs: torch's answer then changes from
    run to run, and this is one of its answers)."""
    return int(places.ravel()[np.flatnonzero(outside.ravel())[-1]])


def max_unpool2d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """max_pool2d's values put back where they came from; zeros elsewhere."""
    kernel = _pair(kernel_size)
    steps = kernel if stride is None else _pair(stride)
    size = _unpool_output_size(input, kernel, steps, _pair(padding), output_size)
    return _unpooled(input, indices, size)


def max_unpool1d(input: Tensor, indices: Tensor, kernel_size, stride=None, padding=0,
                 output_size=None) -> Tensor:
    """As torch makes it: max_unpool2d of the input with a last dimension of 1."""
    kernel = (_single(kernel_size),)
    steps = kernel if stride is None else (_single(stride),)
    size = _unpool_output_size(input, kernel, steps, (_single(padding),), output_size)
    return _unpooled(input.unsqueeze(-1), indices.unsqueeze(-1), [*size, 1]).squeeze(-1)


class _MaxUnpoolNd(Module):
    sizes = staticmethod(_pair)

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        self.kernel_size = type(self).sizes(kernel_size)
        self.stride = type(self).sizes(stride if stride is not None else kernel_size)
        self.padding = type(self).sizes(padding)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool2d(_MaxUnpoolNd):
    def forward(self, input: Tensor, indices: Tensor, output_size=None) -> Tensor:
        return max_unpool2d(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)


class MaxUnpool1d(_MaxUnpoolNd):
    sizes = staticmethod(lambda value: (_single(value),))

    def forward(self, input: Tensor, indices: Tensor, output_size=None) -> Tensor:
        return max_unpool1d(input, indices, self.kernel_size, self.stride, self.padding,
                            output_size)
