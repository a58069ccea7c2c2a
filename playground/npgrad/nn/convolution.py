"""2-D convolution (plain and transposed) and max pooling: F.conv2d, F.conv_transpose2d,
F.max_pool2d, nn.Conv2d, nn.ConvTranspose2d, nn.MaxPool2d."""

from __future__ import annotations

import numpy as np

from .. import _convolution, _recording
from .._missing import MISSING_HINT
from .._tensor import Tensor
from . import init
from .modules import Module, Parameter, _empty

_pair = _convolution._pair


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """Cross-correlation of an (N, C, H, W) input with (O, C / groups, KH, KW) filters, plus
    bias: with groups, each group of input channels meets its own group of filters."""
    stride, dilation = _pair(stride), _pair(dilation)
    padding = _padding(padding, weight.shape[2:], dilation)
    data = input._data
    if data.ndim == 3:  # an unbatched (C, H, W) input
        return conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation,
                      groups).squeeze(0)
    if data.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
            f"{data.shape[1]} channels instead")
    if weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size "
                           f"[{list(weight.shape)}] instead")  # (torch's double brackets)
    result = _convolution.conv2d(data, weight._data.astype(data.dtype), stride, padding,
                                 dilation, groups)
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1, 1)
    return _recording.output("conv2d", result.astype(data.dtype), (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transposed convolution of an (N, C_in, H, W) input by (C_in, C_out / groups, KH,
    KW) filters: each input spreads its filter over the output (conv2d's input gradient)."""
    stride, padding = _pair(stride), _pair(padding)
    output_padding, dilation = _pair(output_padding), _pair(dilation)
    if input.dim() == 3:
        return conv_transpose2d(input.unsqueeze(0), weight, bias, stride, padding,
                                output_padding, groups, dilation).squeeze(0)
    data, filters = input._data, weight._data.astype(input._data.dtype)
    if data.shape[1] != filters.shape[0] or filters.shape[0] % groups:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {filters.shape[0]} channels, but got "
            f"{data.shape[1]} channels instead")
    size = [(data.shape[2 + i] - 1) * stride[i] - 2 * padding[i] +
            dilation[i] * (filters.shape[2 + i] - 1) + output_padding[i] + 1 for i in range(2)]
    shape = (data.shape[0], filters.shape[1] * groups, *size)
    result = _convolution.conv2d_input_grad(data, shape, filters, stride, padding, dilation,
                                            groups)
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1, 1)
    return _recording.output("conv_transpose2d", np.ascontiguousarray(result, data.dtype),
                             (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def _padding(padding, kernel: tuple, dilation: tuple) -> tuple[int, int]:
    if padding == "valid":
        return (0, 0)
    if padding == "same":
        totals = [dilation[i] * (kernel[i] - 1) for i in range(2)]
        if any(total % 2 for total in totals):  # torch pads one more on the right
            raise NotImplementedError(f"padding='same' with an even kernel is not {MISSING_HINT}")
        return tuple(total // 2 for total in totals)
    return _pair(padding)


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """The largest value in each window; with ``return_indices``, where it was."""
    kernel = _pair(kernel_size)
    stride = kernel if stride is None or stride == [] else _pair(stride)
    padding, dilation = _pair(padding), _pair(dilation)
    if ceil_mode:
        raise NotImplementedError(f"max_pool2d(ceil_mode=True) is not {MISSING_HINT}")
    if input.dim() == 3:
        found = max_pool2d(input.unsqueeze(0), kernel, stride, padding, dilation, False, True)
        return (found[0].squeeze(0), found[1].squeeze(0)) if return_indices else \
            found[0].squeeze(0)
    values, indices = _convolution.max_pool2d(input._data, kernel, stride, padding, dilation)
    result = _recording.output("max_pool2d", np.ascontiguousarray(values), (input,),
                               (input._data.shape, indices))
    return (result, Tensor._make(indices.astype(np.int64))) if return_indices else result


class Conv2d(Module):
    """A bank of 2-D filters, initialised as torch does (from its random stream)."""

    output_padding = (0, 0)  # (a transposed convolution's own)

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 dilation=1, groups: int = 1, bias: bool = True, padding_mode: str = "zeros",
                 device=None, dtype=None) -> None:
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        for name, channels in (("in_channels", in_channels), ("out_channels", out_channels)):
            if channels % groups:
                raise ValueError(f"{name} must be divisible by groups")
        super().__init__()
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride = _pair(kernel_size), _pair(stride)
        self.padding = padding if isinstance(padding, str) else _pair(padding)
        self.dilation, self.groups, self.padding_mode = _pair(dilation), groups, padding_mode
        self.weight = Parameter(_empty((*self._filters(), *self.kernel_size), dtype))
        if bias:
            self.bias = Parameter(_empty((out_channels,), dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def _filters(self) -> tuple[int, int]:
        """The weight's first two sizes: (out, in / groups) channels."""
        return self.out_channels, self.in_channels // self.groups

    def reset_parameters(self) -> None:
        init.reset_weight_and_bias(self.weight, self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                      self.groups)

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if self.padding != (0, 0):
            text += f", padding={self.padding!r}" if isinstance(self.padding, str) else \
                f", padding={self.padding}"
        if self.dilation != (1, 1):
            text += f", dilation={self.dilation}"
        if self.output_padding != (0, 0):
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        return text


class ConvTranspose2d(Conv2d):
    """The transposed convolution's layer: (C_in, C_out / groups, KH, KW) filters,
    initialised as torch initialises them."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        self.output_padding = _pair(output_padding)  # (a plain attribute: before Module's)
        super().__init__(in_channels, out_channels, kernel_size, stride=stride,
                         padding=_pair(padding), dilation=dilation, groups=groups, bias=bias,
                         padding_mode=padding_mode, dtype=dtype)

    def _filters(self) -> tuple[int, int]:
        return self.in_channels, self.out_channels // self.groups

    def forward(self, input: Tensor) -> Tensor:
        return conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                self.output_padding, self.groups, self.dilation)


class MaxPool2d(Module):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor):
        return max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                          self.ceil_mode, self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")
