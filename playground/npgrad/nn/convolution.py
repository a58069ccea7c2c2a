"""Convolution (2-d and 1-d, plain and transposed) and max pooling: F.conv2d, F.conv_transpose2d,
F.conv1d, F.max_pool2d (ceil_mode too), F.max_pool1d, and their modules (with padding_mode)."""

from __future__ import annotations

import numpy as np

from .. import _convolution, _recording
from .._autocast import lower_precision
from .._dtype_checks import check_convolution, check_kernel_fits, check_max_pool_input
from .._grad_mode import no_grad
from .._strides import following, wants_channels_last
from .._tensor import Tensor
from .._user_warnings import warn_at_user_code
from . import init
from .modules import Module, weight_and_bias

_pair = _convolution._pair


def conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """Cross-correlation of an (N, C, H, W) input with (O, C / groups, KH, KW) filters, plus
    bias: with groups, each group of input channels meets its own group of filters."""
    stride, dilation = _pair(stride), _pair(dilation)
    if isinstance(padding, str):
        input, padding = string_padding(input, padding, weight.shape[2:], stride, dilation)
    padding = _pair(padding)
    data = input._data
    if data.ndim == 3:  # an unbatched (C, H, W) input
        return conv2d(input.unsqueeze(0), weight, bias, stride, padding, dilation,
                      groups).squeeze(0)
    check_convolution(input, weight, bias)
    if data.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
            f"{data.shape[1]} channels instead")
    check_kernel_fits(data.shape[2:], padding, weight.shape[2:], dilation)
    if weight.shape[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by "
                           f"{groups} at dimension 0, but got weight of size "
                           f"[{list(weight.shape)}] instead")  # (torch's double brackets)
    result = _convolution.conv2d(data, weight._data.astype(data.dtype), stride, padding,
                                 dilation, groups, wants_channels_last(data, weight._data))
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1, 1)  # (keeps the result's layout)
    result = following(result.astype(data.dtype, copy=False), data, weight._data)
    return _recording.output("conv2d", result, (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transposed convolution of an (N, C_in, H, W) input by (C_in, C_out / groups, KH,
    KW) filters: each input spreads its filter over the output (conv2d's input gradient)."""
    check_convolution(input, weight, bias)
    stride, padding = _pair(stride), _pair(padding)
    output_padding, dilation = _pair(output_padding), _pair(dilation)
    if input.dim() == 3:
        return conv_transpose2d(input.unsqueeze(0), weight, bias, stride, padding,
                                output_padding, groups, dilation).squeeze(0)
    data, filters = input._data, weight._data.astype(input._data.dtype)
    _check_transposed(input, weight, groups)
    size = _convolution.transposed_size(data.shape, filters.shape, stride, padding,
                                        output_padding, dilation)
    shape = (data.shape[0], filters.shape[1] * groups, *size)
    result = _convolution.conv2d_input_grad(data, shape, filters, stride, padding, dilation,
                                            groups)
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1, 1)
    return _recording.output("conv_transpose2d", np.ascontiguousarray(result, data.dtype),
                             (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def _check_transposed(input: Tensor, weight: Tensor, groups: int) -> None:
    """torch's error where a transposed convolution's filters expect other input channels."""
    channels = weight.shape[0]
    if input.shape[1] != channels or channels % groups:
        raise RuntimeError(
            f"Given transposed=1, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {channels} channels, but got "
            f"{input.shape[1]} channels instead")


_UNEVEN_SAME = ("Using padding='same' with even kernel lengths and odd dilation may require "
                "a zero-padded copy of the input be created (Triggered internally at "
                "/__w/pytorch/pytorch/aten/src/ATen/native/Convolution.cpp:1101.)")
_warned_uneven = []


def string_padding(input: Tensor, padding: str, kernel: tuple, stride: tuple,
                   dilation: tuple) -> tuple[Tensor, tuple]:
    """torch's padding='valid' or 'same' of a convolution: the input (zero-padded on the
    right where 'same' needs one more there than on the left: a ConstantPadNdBackward0
    node, and torch's warning once a process) and the padding left on each side."""
    if padding == "valid":
        return input, (0,) * len(kernel)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    if any(step != 1 for step in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    totals = [spread * (size - 1) for size, spread in zip(kernel, dilation, strict=True)]
    extra = [total - total // 2 * 2 for total in totals]
    if any(extra):
        if not _warned_uneven:
            _warned_uneven.append(True)
            warn_at_user_code(_UNEVEN_SAME)
        from .resampling import pad

        input = pad(input, [width for more in reversed(extra) for width in (0, more)])
    return input, tuple(total // 2 for total in totals)


def check_padding_string(padding, stride: tuple) -> None:
    """A convolution module's padding string, checked as torch's constructor checks it."""
    if not isinstance(padding, str):
        return
    if padding not in {"same", "valid"}:
        raise ValueError(f"Invalid padding string {padding!r}, should be one of "
                         f"{ {'same', 'valid'} }")
    if padding == "same" and any(step != 1 for step in stride):
        raise ValueError("padding='same' is not supported for strided convolutions")


def max_pool2d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """The largest value in each window; with ``return_indices``, where it was."""
    kernel = _pair(kernel_size)
    stride = kernel if stride is None or stride == [] else _pair(stride)
    padding, dilation = _pair(padding), _pair(dilation)
    _check_max_pool_padding(padding, kernel, dilation)
    check_max_pool_input(input.shape, 2)
    extra = _ceil_extra(input.shape[-2:], kernel, stride, padding, dilation) if ceil_mode else \
        (0, 0)
    _check_pooled_size(input.shape[-3:], kernel, stride, padding, dilation, extra)
    batched = input._data if input.dim() == 4 else input._data[None]  # torch's node takes both
    values, indices = _convolution.max_pool2d(batched, kernel, stride, padding, dilation, extra)
    values = following(values, batched)
    if input.dim() == 3:
        values, indices = values[0], indices[0]
    result = _recording.output("max_pool2d", values, (input,),
                               (input, input._data.shape, indices))
    return (result, Tensor._make(indices.astype(np.int64))) if return_indices else result


def _check_pooled_size(shape, kernel, stride, padding, dilation, extra) -> None:
    """torch's words for a window that leaves no output."""
    sides = [(side + 2 * pad - step * (size - 1) - 1 + more) // jump + 1 for side, size, jump,
             pad, step, more in zip(shape[1:], kernel, stride, padding, dilation, extra,
                                    strict=True)]
    if min(sides) < 1:
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, shape))}). Calculated "
                           f"output size: ({'x'.join(map(str, (shape[0], *sides)))}). Output "
                           "size is too small")


def _check_max_pool_padding(padding: tuple, kernel: tuple, dilation: tuple) -> None:
    """torch's two checks: against the dilated kernel, then against the kernel itself."""
    from .pooling import check_padding

    check_padding(padding, kernel, dilation)
    if any(pad > size // 2 for pad, size in zip(padding, kernel, strict=True)):
        (height, width), (top, left) = kernel, padding
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got "
                           f"padW = {left}, padH = {top}, kW = {width}, kH = {height}")


def _ceil_extra(sizes, kernel, stride, padding, dilation) -> tuple:
    """The rows and columns ceil_mode adds on the far side: one more window where a partial
    one is left, unless it would start past the input and its left padding (torch's rule)."""
    extra = []
    for size, k, s, p, d in zip(sizes, kernel, stride, padding, dilation, strict=True):
        span = d * (k - 1) + 1
        count = -(-(size + 2 * p - span) // s) + 1
        if (count - 1) * s >= size + p:
            count -= 1
        extra.append(max((count - 1) * s + span - (size + 2 * p), 0))
    return tuple(extra)


def conv1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """Cross-correlation of an (N, C, L) input with (O, C / groups, K) filters: torch's one
    ConvolutionBackward0 node (computed as a 2-d convolution of height 1)."""
    if input.dim() == 2:  # an unbatched (C, L) input
        return conv1d(input.unsqueeze(0), weight, bias, stride, padding, dilation,
                      groups).squeeze(0)
    check_convolution(input, weight, bias)
    stride, dilation = _single(stride), _single(dilation)
    if isinstance(padding, str):
        input, padding = string_padding(input, padding, weight.shape[2:], stride, dilation)
    padding = _single(padding)
    if input.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
            f"{input.shape[1]} channels instead")
    check_kernel_fits(input.shape[2:], padding, weight.shape[2:], dilation)
    data = input._data
    result = _convolution.conv1d(data, weight._data.astype(data.dtype), stride, padding,
                                 dilation, groups)
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1)
    return _recording.output("conv1d", result.astype(data.dtype), (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def conv1d_grad(k, grad, input, weight, stride, padding, dilation, groups, which: int):
    """ConvolutionBackward0 of a 1-d convolution: the 2-d one's at height 1, on arrays; under
    create_graph torch's ConvolutionBackwardBackward0, whose derivatives are 1-d convolutions,
    weight gradients and input gradients again."""
    if which == 2:
        return k.conv_bias(grad, input, weight)
    arrays = [np.asarray(getattr(value, "_data", value))[:, :, None]
              for value in (grad, input, weight)]
    options = ((1, *stride), (0, *padding), (1, *dilation), groups)
    if which == 0:
        values = _convolution.conv2d_input_grad(arrays[0], arrays[1].shape, arrays[2], *options)
        saved = (grad, weight, stride, padding, dilation, groups)
        op = "conv1d_input_backward"
    else:
        values = _convolution.conv2d_weight_grad(arrays[0], arrays[1], arrays[2].shape[2:],
                                                 *options)
        saved = (grad, input, stride, padding, dilation, groups)
        op = "conv1d_weight_backward"
    values = np.ascontiguousarray(values[:, :, 0], arrays[0].dtype)
    return k._backward_of(op, values, (grad, input, weight), saved)


def conv1d_forward(k, input, weight, stride, padding, dilation, groups):
    """A 1-d convolution without bias, of tensors (recorded) or arrays."""
    if isinstance(input, Tensor) or isinstance(weight, Tensor):
        as_tensor = [value if isinstance(value, Tensor) else Tensor._make(value)
                     for value in (input, weight)]
        return conv1d(*as_tensor, None, stride, padding, dilation, groups)
    return _convolution.conv1d(input, weight, stride, padding, dilation, groups)


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1,
                     padding=0, output_padding=0, groups: int = 1, dilation=1) -> Tensor:
    """The transposed convolution of an (N, C_in, L) input by (C_in, C_out / groups, K)
    filters: torch's one ConvolutionBackward0 node (a 2-d one of height 1 underneath)."""
    if input.dim() == 2:  # an unbatched (C, L) input
        return conv_transpose1d(input.unsqueeze(0), weight, bias, stride, padding,
                                output_padding, groups, dilation).squeeze(0)
    check_convolution(input, weight, bias)
    stride, padding = _single(stride), _single(padding)
    output_padding, dilation = _single(output_padding), _single(dilation)
    data, filters = input._data, weight._data.astype(input._data.dtype)
    _check_transposed(input, weight, groups)
    shape = (data.shape[0], filters.shape[1] * groups, 1,
             *_convolution.transposed_size(data.shape, filters.shape, stride, padding,
                                           output_padding, dilation))
    result = _convolution.conv2d_input_grad(data[:, :, None], shape, filters[:, :, None],
                                            (1, *stride), (0, *padding), (1, *dilation),
                                            groups)[:, :, 0]
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1)
    return _recording.output("conv_transpose1d", np.ascontiguousarray(result, data.dtype),
                             (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def transposed_grad(k, grad, input, weight, which: int, dims: int, kernels, options):
    """ConvolutionBackward0 of a transposed convolution, on arrays: the input's gradient is a
    convolution of grad by the filters, the filters' a convolution's weight gradient with
    input and output swapped, the bias's a sum; under create_graph torch's
    ConvolutionBackwardBackward0 (_image_rules' conv_transpose{dims}d_*_backward rows).
    `kernels`: the convolution and its weight gradient for `dims` spatial dimensions."""
    if which == 2:
        return k.conv_bias(grad, input, weight)
    convolve, weight_grad = kernels
    arrays = [np.asarray(getattr(value, "_data", value)) for value in (grad, input, weight)]
    if which == 0:
        values = convolve(arrays[0], arrays[2], *options)
        op, saved = f"conv_transpose{dims}d_input_backward", (grad, weight)
    else:
        values = weight_grad(arrays[1], arrays[0], arrays[2].shape[2:], *options)
        op, saved = f"conv_transpose{dims}d_weight_backward", (grad, input)
    values = np.ascontiguousarray(values, arrays[0].dtype)
    return k._backward_of(op, values, (grad, input, weight), (*saved, *options))


def conv_transpose1d_grad(k, grad, input, weight, stride, padding, dilation, groups,
                          which: int):
    """conv_transpose1d's ConvolutionBackward0 (transposed_grad at height 1)."""
    return transposed_grad(k, grad, input, weight, which, 1,
                           (_convolution.conv1d, _convolution.conv1d_weight_grad),
                           (stride, padding, dilation, groups))


def _single(value) -> tuple:
    return tuple(value) if isinstance(value, tuple | list) else (value,)


def max_pool1d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    """torch's: a 2-d max pool of height 1 on the input unsqueezed, squeezed back."""
    kernel = _single(kernel_size)
    stride = kernel if stride is None or stride == [] else _single(stride)
    check_max_pool_input(input.shape, 1, return_indices)
    if _single(padding)[0] > kernel[0] // 2:
        raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but "
                           f"got padding={_single(padding)[0]} and kernel_size={kernel[0]}")
    found = max_pool2d(input.unsqueeze(-2), (1, *kernel), (1, *stride),
                       (0, *_single(padding)), (1, *_single(dilation)), ceil_mode, True)
    values, indices = found[0].squeeze(-2), found[1].squeeze(-2)
    return (values, indices) if return_indices else values


class Conv2d(Module):
    """A bank of 2-D filters, initialised as torch does (from its random stream)."""

    output_padding = (0, 0)  # (a transposed convolution's own)
    sizes = staticmethod(_pair)  # (a 1-d convolution's are 1-tuples)

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
        sizes = type(self).sizes
        self.kernel_size, self.stride = sizes(kernel_size), sizes(stride)
        check_padding_string(padding, self.stride)
        self.padding = padding if isinstance(padding, str) else sizes(padding)
        self.dilation, self.groups, self.padding_mode = sizes(dilation), groups, padding_mode
        weight_and_bias(self, (*self._filters(), *self.kernel_size), bias, dtype, out_channels)
        self.reset_parameters()

    def _filters(self) -> tuple[int, int]:
        """The weight's first two sizes: (out, in / groups) channels."""
        return self.out_channels, self.in_channels // self.groups

    def reset_parameters(self) -> None:
        init.reset_weight_and_bias(self.weight, self.bias)

    def _pad_widths(self) -> tuple[int, ...]:
        """F.pad's widths, last dim first, for a padding_mode: 'same' splits each total as
        torch does (the extra one on the right), 'valid' pads nothing."""
        if self.padding == "valid":
            return (0, 0) * len(self.kernel_size)
        if self.padding == "same":
            totals = [step * (size - 1) for step, size in zip(self.dilation, self.kernel_size,
                                                              strict=True)]
            return tuple(w for total in reversed(totals) for w in (total // 2,
                                                                   total - total // 2))
        return tuple(width for size in reversed(self.padding) for width in (size, size))

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode != "zeros":  # torch pads first, then convolves without padding
            from .resampling import pad

            return conv2d(pad(input, self._pad_widths(), self.padding_mode), self.weight,
                          self.bias, self.stride, 0, self.dilation, self.groups)
        return conv2d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                      self.groups)

    def extra_repr(self) -> str:
        text = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}")
        if set(self.padding) != {0}:  # (a string unquoted, as torch prints it)
            text += f", padding={self.padding}"
        if set(self.dilation) != {1}:
            text += f", dilation={self.dilation}"
        if set(self.output_padding) != {0}:
            text += f", output_padding={self.output_padding}"
        if self.groups != 1:
            text += f", groups={self.groups}"
        if self.bias is None:
            text += ", bias=False"
        if self.padding_mode != "zeros":
            text += f", padding_mode={self.padding_mode}"
        return text


class ConvTranspose2d(Conv2d):
    """The transposed convolution's layer: (C_in, C_out / groups, KH, KW) filters,
    initialised as torch initialises them."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0,
                 output_padding=0, groups: int = 1, bias: bool = True, dilation=1,
                 padding_mode: str = "zeros", device=None, dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for '
                             f'{type(self).__name__}')
        sizes = type(self).sizes
        self.output_padding = sizes(output_padding)  # (a plain attribute: before Module's)
        super().__init__(in_channels, out_channels, kernel_size, stride=stride,
                         padding=sizes(padding), dilation=dilation, groups=groups, bias=bias,
                         padding_mode=padding_mode, dtype=dtype)

    def _filters(self) -> tuple[int, int]:
        return self.in_channels, self.out_channels // self.groups

    def forward(self, input: Tensor) -> Tensor:
        return conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                self.output_padding, self.groups, self.dilation)


class Conv1d(Conv2d):
    """A bank of 1-d filters over (N, C, L) inputs, initialised as torch does."""

    sizes = staticmethod(_single)

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode != "zeros":
            from .resampling import pad

            return conv1d(pad(input, self._pad_widths(), self.padding_mode), self.weight,
                          self.bias, self.stride, 0, self.dilation, self.groups)
        return conv1d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                      self.groups)


class ConvTranspose1d(ConvTranspose2d):
    """The 1-d transposed convolution's layer: (C_in, C_out / groups, K) filters."""

    sizes = staticmethod(_single)

    def forward(self, input: Tensor) -> Tensor:
        return conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                self.output_padding, self.groups, self.dilation)


class _MaxPool(Module):
    """Max pooling as a module; the subclasses say of how many dimensions."""

    function = staticmethod(max_pool2d)

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1,
                 return_indices: bool = False, ceil_mode: bool = False) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding, self.dilation = padding, dilation
        self.return_indices, self.ceil_mode = return_indices, ceil_mode

    def forward(self, input: Tensor):
        return type(self).function(input, self.kernel_size, self.stride, self.padding,
                                   self.dilation, self.ceil_mode, self.return_indices)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPool):
    function = staticmethod(max_pool1d)


class MaxPool2d(_MaxPool):
    function = staticmethod(max_pool2d)


def conv_transpose2d_input(k, grad, input, weight, stride, padding, dilation, groups):
    """d loss / d input of a transposed convolution: a convolution of grad by weight; under
    create_graph torch's ConvolutionBackwardBackward0 node."""
    arrays = [np.asarray(getattr(value, "_data", value)) for value in (grad, weight)]
    values = _convolution.conv2d(*arrays, stride, padding, dilation, groups)
    return k._backward_of("conv_transpose2d_input_backward", values, (grad, input, weight),
                          (grad, weight, stride, padding, dilation, groups))


def conv_bias(k, grad, input, weight):
    """A convolution's bias gradient: grad summed over all but its channels; under
    create_graph recorded as torch's ConvolutionBackwardBackward0 (torch's one node for
    the three gradients), whose own gradient spreads back over grad's shape."""
    dims = (0, *range(2, len(grad.shape)))
    if not isinstance(grad, Tensor):
        return k.sum(grad, dims, False)
    with no_grad():
        values = grad.sum(dims)._data
    return k._backward_of("convolution_bias_backward", values, (grad, input, weight),
                          (tuple(grad.shape),))


def channel_spread(k, grad, shape):
    """A per-channel gradient (C,) broadcast over a convolution's output ``shape``."""
    return k.expand(k.reshape(grad, (1, shape[1]) + (1,) * (len(shape) - 2)), shape)


def _register() -> None:
    from .._formula_kit import Kit

    Kit.conv1d_grad, Kit.conv1d_forward = conv1d_grad, conv1d_forward
    Kit.conv_transpose1d_grad = conv_transpose1d_grad
    Kit.conv_transpose2d_input, Kit.conv_bias = conv_transpose2d_input, conv_bias
    Kit.channel_spread = channel_spread


_register()
conv2d, conv_transpose2d, conv1d, conv_transpose1d = (  # (in autocast's lower precision)
    lower_precision(f) for f in (conv2d, conv_transpose2d, conv1d, conv_transpose1d))
