"""More of torch's normalizations: instance norm (a batch norm over each sample's channels, as
torch makes it: ViewBackward0 over NativeBatchNormBackward0), group norm (one node,
NativeGroupNormBackward0), RMS norm (made of pow, mean, add, rsqrt and mul, as torch's) and
AlexNet's local response norm (a padded average pool of the squares)."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _factories, _operands, _recording
from .._moments import group_norm_float32, reproduces
from .._tensor import Tensor
from .modules import Module, Parameter
from .normalization import add_affine, add_running_statistics, batch_norm


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True,
                  momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Each sample's channels normalized by their own statistics: the batch folded into the
    channels of one batch norm; the running statistics, if any, averaged back over it."""
    shape = input.shape
    if use_input_stats and math.prod(shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                         f"{shape}")
    samples, channels = shape[0], shape[1]
    folded = input.contiguous().view(1, samples * channels, *shape[2:])

    def repeated(tensor):
        return None if tensor is None else tensor.repeat(samples)

    means, variances = repeated(running_mean), repeated(running_var)
    out = batch_norm(folded, means, variances, repeated(weight), repeated(bias),
                     use_input_stats, momentum, eps)
    for running, folded_running in ((running_mean, means), (running_var, variances)):
        if running is not None:
            running._data[...] = folded_running._data.reshape(samples, channels).mean(0)
    return out.view(*shape)


class _InstanceNorm(Module):
    """Instance normalization over channel 1; the subclasses say which inputs they take."""

    DIMENSIONS: tuple[int, int] = (0, 0)  # (unbatched, batched)

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        add_affine(self, num_features, affine, bias, dtype)
        add_running_statistics(self, num_features, track_running_stats, dtype)

    def forward(self, input: Tensor) -> Tensor:
        unbatched, batched = self.DIMENSIONS
        if input.dim() not in (unbatched, batched):
            raise ValueError(f"expected {unbatched}D or {batched}D input (got {input.dim()}D "
                             "input)")
        feature_dim = input.dim() - unbatched
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match "
                                 f"num_features ({self.num_features}), but got: "
                                 f"{input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You "
                          "can silence this warning by not passing in num_features, which is "
                          "not used because affine=False", stacklevel=2)
        if input.dim() == unbatched:
            return self._normalized(input.unsqueeze(0)).squeeze(0)
        return self._normalized(input)

    def _normalized(self, input: Tensor) -> Tensor:
        return instance_norm(input, self.running_mean, self.running_var, self.weight,
                             self.bias, self.training or not self.track_running_stats,
                             self.momentum if self.momentum is not None else 0.0, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class InstanceNorm1d(_InstanceNorm):
    DIMENSIONS = (2, 3)


class InstanceNorm2d(_InstanceNorm):
    DIMENSIONS = (3, 4)


class InstanceNorm3d(_InstanceNorm):
    DIMENSIONS = (4, 5)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Each sample's channels in ``num_groups`` groups, each group normalized by its own
    statistics, then each channel scaled and shifted (torch's x·scale + shift per channel)."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received "
                           f"{input.dim()}")
    samples, channels = input.shape[0], input.shape[1]
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    size = [samples * channels // num_groups, num_groups, *input.shape[2:]]
    if size[0] * math.prod(size[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input "
                         f"size {size}")
    data = input._data
    weights, biases = _operands.data_or_none(weight), _operands.data_or_none(bias)
    if data.flags.c_contiguous and reproduces(data, weights, biases):
        values, mean, rstd = group_norm_float32(data, num_groups, weights, biases, eps)
    else:  # (torch's float64 and channels-last code: within its rounding, not its bits)
        values, mean, rstd = _group_norm_values(data, num_groups, weight, bias, eps)
    return _recording.output("group_norm", values, (input, weight, bias),
                             (input, mean, rstd, weight, num_groups, eps))


def _group_norm_values(data: np.ndarray, groups: int, weight, bias, eps: float) -> tuple:
    """The group norm in float64 statistics, rounded to the input's dtype."""
    samples, channels = data.shape[0], data.shape[1]
    grouped = data.reshape(samples, groups, -1).astype(np.float64)
    mean = grouped.mean(-1)
    variance = ((grouped - mean[..., None]) ** 2).mean(-1)
    mean, rstd = mean.astype(data.dtype), (1 / np.sqrt(variance + eps)).astype(data.dtype)
    per_channel = np.repeat(np.arange(groups), channels // groups)
    scale = rstd[:, per_channel] * (1 if weight is None else weight._data)
    shift = -scale * mean[:, per_channel] + (0 if bias is None else bias._data)
    spread = (samples, channels) + (1,) * (data.ndim - 2)
    values = (data * scale.reshape(spread) + shift.reshape(spread)).astype(data.dtype)
    return values, mean, rstd


def group_norm_grad(k, grad, input, mean, rstd, weight, groups: int, eps: float, which: int):
    """NativeGroupNormBackward0 for the input (0), weight (1) or bias (2): a layer norm's
    gradient over each sample's groups, the weight applied per channel."""
    shape = tuple(input.shape)
    spread = (1, shape[1]) + (1,) * (len(shape) - 2)
    dims = (0, *range(2, len(shape)))
    if which == 2:
        return k.sum(grad, dims, False)
    grouped = k.reshape(input, (shape[0], groups, -1))
    if isinstance(mean, np.ndarray) and isinstance(input, np.ndarray):
        mean, rstd = mean[..., None], rstd[..., None]
    else:  # create_graph: the statistics differentiate
        mean, rstd = k._row_statistics(grouped, (2,), eps)
    if which == 1:
        normalized = k.reshape((grouped - mean) * rstd, shape)
        return k.sum(grad * normalized, dims, False)
    scaled = grad if weight is None else grad * k.reshape(weight, spread)
    result = k.layer_norm_input(k.reshape(scaled, (shape[0], groups, -1)), grouped, mean, rstd,
                                None, (2,), eps)
    return k.reshape(result, shape)


class GroupNorm(Module):
    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        if num_channels % num_groups:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups "
                             f"({num_groups})")
        self.num_groups, self.num_channels, self.eps, self.affine = \
            num_groups, num_channels, eps, affine
        add_affine(self, num_channels, affine, bias, dtype)

    def forward(self, input: Tensor) -> Tensor:
        return group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, "
                f"affine={self.affine}, bias={self.bias is not None}")


def rms_norm(input: Tensor, normalized_shape, weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """x / sqrt(mean(x²) + eps) over the last dims, times the weight (torch's composite; eps
    the dtype's machine epsilon unless given)."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else \
        tuple(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape):]) != shape or len(shape) > input.ndim:
        raise RuntimeError(
            f"Given normalized_shape={list(shape)}, expected input with shape "
            f"[*{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if eps is None:
        eps = float(np.finfo(input._data.dtype).eps)
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    scale = input.pow(2).mean(dims, keepdim=True).add_(eps).rsqrt()
    result = input.mul(scale)
    return result if weight is None else result.mul(weight)


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps: float | None = None,
                 elementwise_affine: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) \
            else tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_factories.ones(*self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)

    def forward(self, input: Tensor) -> Tensor:
        return rms_norm(input, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")


def _register() -> None:
    from .._formula_kit import Kit

    Kit.group_norm_grad = group_norm_grad


_register()


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Each value over (k + alpha·mean of the squares of ``size`` neighbouring channels)^beta
    (AlexNet's), made of the ops torch makes it of (a padded average pool of the squares)."""
    from .pooling import avg_pool2d
    from .resampling import pad
    from .volumes import avg_pool3d

    dim = input.dim()
    if dim < 3:
        raise ValueError("Expected 3D or higher dimensionality" + " " * 26 +  # (torch's words,
                         f"input (got {dim} dimensions)")  # its line break's indent kept)
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = pad(div.unsqueeze(1), (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], sizes[2], -1)
        div = pad(div, (0, 0, 0, 0, size // 2, (size - 1) // 2))
        div = avg_pool3d(div, (size, 1, 1), stride=1).squeeze(1).view(sizes)
    return input / div.mul(alpha).add(k).pow(beta)


class LocalResponseNorm(Module):
    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75,
                 k: float = 1.0) -> None:
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
