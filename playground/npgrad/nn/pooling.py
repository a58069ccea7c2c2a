"""Average pooling: F.avg_pool1d/2d, F.adaptive_avg_pool1d/2d and their modules."""

from __future__ import annotations

from .. import _pooling, _recording
from .._convolution import _pair
from .._strides import channels_last_like, following
from .._tensor import Tensor
from .modules import Module


def _check_planes(input: Tensor, name: str) -> None:
    if input.dim() == 2:  # torch indexes the third dimension from the end first
        raise IndexError("Dimension out of range (expected to be in range of [-2, 1], but got -3)")
    if input.dim() not in (3, 4):
        raise RuntimeError(f"{name}: non-empty 3D or 4D (batch mode) tensor expected for input")


def check_padding(padding: tuple, kernel: tuple, dilation: tuple | None = None) -> None:
    """torch's pooling shape check: no side padded past half its (dilated) kernel, the first
    such side named."""
    for pad, size, step in zip(padding, kernel, dilation or (1,) * len(kernel), strict=True):
        if pad > ((size - 1) * step + 1) // 2:
            raise RuntimeError("pad should be at most half of effective kernel size, but got "
                               f"pad={pad}, kernel_size={size} and dilation={step}")


def avg_pool2d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    """The mean of each window of an (N, C, H, W) or (C, H, W) input."""
    _check_planes(input, "avg_pool2d")
    kernel = _pair(kernel_size)
    stride = kernel if stride is None or stride == [] else _pair(stride)
    padding = _pair(padding)
    check_padding(padding, kernel)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    windows = _pooling.avg_pool2d_windows(tuple(input.shape), kernel, stride, padding,
                                          ceil_mode, count_include_pad, divisor_override)
    values = following(_pooling.pool_forward(input._data, windows), input._data)
    return _recording.output("avg_pool2d", values, (input,),
                             (input, tuple(input.shape), windows, False))


def adaptive_avg_pool2d(input: Tensor, output_size) -> Tensor:
    """Mean pooling to a given output size (None keeps that side); to 1×1 it is torch's
    mean over the last two dimensions."""
    _check_planes(input, "adaptive_avg_pool2d")
    size = _pair(output_size)
    size = tuple(input.shape[-2 + i] if side is None else side for i, side in enumerate(size))
    if size == (1, 1):
        mean = input.mean((-1, -2), keepdim=True)
        if mean.ndim == 4 and channels_last_like(input._data):  # torch's way to lay it out
            mean.as_strided_(mean.shape, (mean.shape[1], 1, mean.shape[1], mean.shape[1]))
        return mean
    windows = _pooling.adaptive_windows(tuple(input.shape), size)
    values = following(_pooling.pool_forward(input._data, windows), input._data)
    return _recording.output("adaptive_avg_pool2d", values, (input,),
                             (input, tuple(input.shape), windows, True))


def avg_pool1d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True) -> Tensor:
    """avg_pool2d over one row, as torch computes it (unsqueeze, pool, squeeze)."""
    kernel = _single(kernel_size)
    stride = kernel if stride is None or stride == [] else _single(stride)
    pooled = avg_pool2d(input.unsqueeze(-2), (1, kernel), (1, stride), (0, _single(padding)),
                        ceil_mode, count_include_pad)
    return pooled.squeeze(-2)


def adaptive_avg_pool1d(input: Tensor, output_size) -> Tensor:
    return adaptive_avg_pool2d(input.unsqueeze(-2), (1, _single(output_size))).squeeze(-2)


def _single(value) -> int:
    return value if isinstance(value, int) else tuple(value)[0]


class AvgPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True, divisor_override=None) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.ceil_mode = padding, ceil_mode
        self.count_include_pad, self.divisor_override = count_include_pad, divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return avg_pool2d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
                 count_include_pad: bool = True) -> None:
        super().__init__()
        self.kernel_size = (_single(kernel_size),)
        self.stride = (_single(stride if stride is not None else kernel_size),)
        self.padding, self.ceil_mode = (_single(padding),), ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input: Tensor) -> Tensor:
        return avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AdaptiveAvgPool2d(Module):
    def __init__(self, output_size) -> None:
        super().__init__()
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:
        return adaptive_avg_pool2d(input, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(AdaptiveAvgPool2d):
    def forward(self, input: Tensor) -> Tensor:
        return adaptive_avg_pool1d(input, self.output_size)
