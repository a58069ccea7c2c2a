"""Layers over volumes (N, C, D, H, W), as 3-D CNNs on video or scans use them: F.conv3d and
nn.Conv3d (torch's ConvolutionBackward0, differentiable twice), F.max_pool3d and nn.MaxPool3d
(MaxPool3DWithIndicesBackward0), F.avg_pool3d and nn.AvgPool3d (AvgPool3DBackward0),
F.adaptive_avg_pool3d and nn.AdaptiveAvgPool3d (AdaptiveAvgPool3DBackward0)."""

from __future__ import annotations

import numpy as np

from .. import _recording, _volumes
from .._autocast import lower_precision
from .._dtype_checks import check_convolution, check_kernel_fits, check_max_pool_input
from .._formula_kit import Kit
from .._tensor import Tensor
from .convolution import Conv2d, _ceil_extra, _MaxPool, string_padding
from .pooling import AdaptiveAvgPool2d, AvgPool2d, check_padding

triple = _volumes.triple


def _unbatched(function, input: Tensor, *rest):
    """A (C, D, H, W) input as a batch of one, as torch runs it."""
    result = function(input.unsqueeze(0), *rest)
    if isinstance(result, tuple):
        return tuple(part.squeeze(0) for part in result)
    return result.squeeze(0)


@lower_precision
def conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None, stride=1, padding=0,
           dilation=1, groups: int = 1) -> Tensor:
    """Cross-correlation of a volume with (O, C / groups, KD, KH, KW) filters, plus bias."""
    if input.dim() == 4:
        return _unbatched(conv3d, input, weight, bias, stride, padding, dilation, groups)
    check_convolution(input, weight, bias)
    stride, dilation = triple(stride), triple(dilation)
    if isinstance(padding, str):
        input, padding = string_padding(input, padding, weight.shape[2:], stride, dilation)
    padding = triple(padding)
    data = input._data
    if data.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(
            f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
            f"{list(input.shape)} to have {weight.shape[1] * groups} channels, but got "
            f"{data.shape[1]} channels instead")
    check_kernel_fits(data.shape[2:], padding, weight.shape[2:], dilation)
    result = _volumes.conv3d(data, weight._data.astype(data.dtype), stride, padding, dilation,
                             groups)
    if bias is not None:
        result = result + bias._data.reshape(1, -1, 1, 1, 1)
    return _recording.output("conv3d", result.astype(data.dtype), (input, weight, bias),
                             (input, weight, stride, padding, dilation, groups))


def conv3d_grad(k, grad, input, weight, stride, padding, dilation, groups, which: int):
    """ConvolutionBackward0 of a volume's convolution, on arrays; under create_graph torch's
    ConvolutionBackwardBackward0, whose derivatives are convolutions and their gradients."""
    if which == 2:
        return k.conv_bias(grad, input, weight)
    arrays = [np.asarray(getattr(value, "_data", value)) for value in (grad, input, weight)]
    options = (stride, padding, dilation, groups)
    if which == 0:
        values = _volumes.conv3d_input_grad(arrays[0], arrays[1].shape, arrays[2], *options)
        op, saved = "conv3d_input_backward", (grad, weight)
    else:
        values = _volumes.conv3d_weight_grad(arrays[0], arrays[1], arrays[2].shape[2:],
                                             *options)
        op, saved = "conv3d_weight_backward", (grad, input)
    values = np.ascontiguousarray(values, arrays[0].dtype)
    return k._backward_of(op, values, (grad, input, weight), (*saved, *options))


def conv3d_forward(k, input, weight, stride, padding, dilation, groups):
    """A volume's convolution without bias, of tensors (recorded) or arrays."""
    if isinstance(input, Tensor) or isinstance(weight, Tensor):
        as_tensor = [value if isinstance(value, Tensor) else Tensor._make(value)
                     for value in (input, weight)]
        return conv3d(*as_tensor, None, stride, padding, dilation, groups)
    return _volumes.conv3d(input, weight, stride, padding, dilation, groups)


def max_pool3d(input: Tensor, kernel_size, stride=None, padding=0, dilation=1,
               ceil_mode: bool = False, return_indices: bool = False):
    check_max_pool_input(input.shape, 3)
    if input.dim() == 4:
        return _unbatched(max_pool3d, input, kernel_size, stride, padding, dilation, ceil_mode,
                          return_indices)
    kernel = triple(kernel_size)
    stride = kernel if stride is None or stride == [] else triple(stride)
    padding, dilation = triple(padding), triple(dilation)
    check_padding(padding, kernel, dilation)
    if any(pad > size // 2 for pad, size in zip(padding, kernel, strict=True)):
        (depth, height, width), (front, top, left) = kernel, padding  # (torch's order: T W H)
        raise RuntimeError(f"pad should be smaller than or equal to half of kernel size, but got "
                           f"kT: {depth} kW: {width} kH: {height} padT: {front} padW: {left} "
                           f"padH: {top}")
    extra = _ceil_extra(input.shape[2:], kernel, stride, padding, dilation) if ceil_mode \
        else (0, 0, 0)
    values, indices = _volumes.max_pool3d(input._data, kernel, stride, padding, dilation,
                                          extra)
    result = _recording.output("max_pool3d", np.ascontiguousarray(values), (input,),
                               (input, tuple(input.shape), indices))
    return (result, Tensor._make(indices.astype(np.int64))) if return_indices else result


def _average_windows(shape: tuple, kernel, stride, padding, count_include_pad: bool,
                     divisor_override) -> list:
    """For each output position: its slices of the input and its divisor."""
    found = []
    outs = [(size + 2 * pad - k) // s + 1
            for size, pad, k, s in zip(shape[2:], padding, kernel, stride, strict=True)]
    for place in np.ndindex(*outs):
        bounds = [(o * s - pad, o * s - pad + k)
                  for o, s, pad, k in zip(place, stride, padding, kernel, strict=True)]
        inside = [(max(start, 0), min(end, size))
                  for (start, end), size in zip(bounds, shape[2:], strict=True)]
        if divisor_override:
            divisor = divisor_override
        elif count_include_pad:
            divisor = int(np.prod([min(end, size + pad) - start for (start, end), size, pad
                                    in zip(bounds, shape[2:], padding, strict=True)]))
        else:
            divisor = int(np.prod([end - start for start, end in inside]))
        found.append((place, tuple(slice(start, end) for start, end in inside), divisor))
    return found


def _pooled(data: np.ndarray, windows, outs) -> np.ndarray:
    """Each window's elements added one after another in (d, h, w) order, as torch's CPU
    kernel adds them, then divided."""
    result = np.empty((*data.shape[:2], *outs), data.dtype)
    for place, where, divisor in windows:
        region = data[(slice(None), slice(None), *where)].reshape(*data.shape[:2], -1)
        total = np.cumsum(region, axis=-1)[..., -1] if region.shape[-1] else 0
        result[(slice(None), slice(None), *place)] = total / data.dtype.type(divisor)
    return result


def _spread(grad: np.ndarray, shape: tuple, windows, adaptive: bool) -> np.ndarray:
    """Each window's share of its gradient added back (an adaptive window's divided by its
    depth, height and width in turn, as torch's kernel divides it)."""
    result = np.zeros(shape, grad.dtype)
    for place, where, divisor in windows:
        share = grad[(slice(None), slice(None), *place)]
        for size in ([w.stop - w.start for w in where] if adaptive else [divisor]):
            share = share / grad.dtype.type(size)
        result[(slice(None), slice(None), *where)] += share[..., None, None, None]
    return result


def avg_pool3d(input: Tensor, kernel_size, stride=None, padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True, divisor_override=None) -> Tensor:
    if input.dim() == 4:
        return _unbatched(avg_pool3d, input, kernel_size, stride, padding, ceil_mode,
                          count_include_pad, divisor_override)
    if ceil_mode:
        raise NotImplementedError("avg_pool3d with ceil_mode=True is not in the built-in NumPy "
                                  "engine; switch the engine to torch")
    kernel = triple(kernel_size)
    stride = kernel if stride is None or stride == [] else triple(stride)
    padding = triple(padding)
    check_padding(padding, kernel)
    windows = _average_windows(tuple(input.shape), kernel, stride, padding, count_include_pad,
                               divisor_override)
    outs = windows[-1][0] if windows else (0, 0, 0)
    values = _pooled(input._data, windows, tuple(o + 1 for o in outs))
    return _recording.output("avg_pool3d", values, (input,),
                             (input, tuple(input.shape), windows))


def adaptive_avg_pool3d(input: Tensor, output_size) -> Tensor:
    if input.dim() == 4:
        return _unbatched(adaptive_avg_pool3d, input, output_size)
    shape = tuple(input.shape)
    size = tuple(shape[2 + i] if side is None else side
                 for i, side in enumerate(triple(output_size)))
    if size == (1, 1, 1):  # torch's: a mean over the volume
        return input.mean((-1, -2, -3), keepdim=True)
    windows = []
    for place in np.ndindex(*size):
        where = tuple(slice(o * n // s, -(-(o + 1) * n // s))
                      for o, n, s in zip(place, shape[2:], size, strict=True))
        windows.append((place, where, int(np.prod([w.stop - w.start for w in where]))))
    values = _pooled(input._data, windows, size)
    return _recording.output("adaptive_avg_pool3d", values, (input,), (input, shape, windows))


def average_spread(k, grad, self, shape, windows, op: str):
    """avg_pool3d's and adaptive_avg_pool3d's gradient: each window's share spread back;
    under create_graph torch's ...BackwardBackward0 (of grad and, as torch's, the input),
    which pools again."""
    values = _spread(np.asarray(getattr(grad, "_data", grad)), shape, windows,
                     op == "adaptive_avg_pool3d")
    if isinstance(grad, np.ndarray):
        return values
    return k._backward_of(f"{op}_backward", values, (grad, self),
                          (windows, tuple(grad.shape), op))


def average_pool(k, grad, windows, shape, op: str):
    """The double backward: ``grad`` pooled by the same windows (recorded as the pooling)."""
    values = _pooled(np.asarray(getattr(grad, "_data", grad)), windows, shape[2:])
    if isinstance(grad, np.ndarray):
        return values
    return _recording.output(op, values, (grad,), (grad, tuple(grad.shape), windows))


class Conv3d(Conv2d):
    """A bank of 3-D filters over volumes, initialised as torch does."""

    sizes = staticmethod(triple)

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode != "zeros":  # torch pads first, then convolves without padding
            from .resampling import pad

            return conv3d(pad(input, self._pad_widths(), self.padding_mode), self.weight,
                          self.bias, self.stride, 0, self.dilation, self.groups)
        return conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation,
                      self.groups)


class MaxPool3d(_MaxPool):
    function = staticmethod(max_pool3d)


class AvgPool3d(AvgPool2d):
    def forward(self, input: Tensor) -> Tensor:
        return avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3d(AdaptiveAvgPool2d):
    def forward(self, input: Tensor) -> Tensor:
        return adaptive_avg_pool3d(input, self.output_size)


for _function in (conv3d_grad, conv3d_forward, average_spread, average_pool):
    setattr(Kit, _function.__name__, _function)

FUNCTIONS = ("conv3d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d")
MODULES = ("MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d")
