"""``torch.nn.init``: fill a parameter in place from torch's random stream, with torch's
gains and fans, so that a seeded model starts from torch's weights."""

from __future__ import annotations

import math
import warnings

import numpy as np

from .. import _factories
from .._grad_mode import no_grad
from .._meta import has_no_values
from .._missing import missing_attribute
from .._tensor import Tensor, bump_version

_LINEAR_GAINS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                 "conv_transpose2d", "conv_transpose3d", "sigmoid")


def calculate_gain(nonlinearity: str, param=None) -> float:
    """The factor by which a nonlinearity shrinks a signal's spread, as torch tabulates it."""
    if nonlinearity in _LINEAR_GAINS:
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + _negative_slope(param) ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _negative_slope(param) -> float:
    if param is None:
        return 0.01
    if isinstance(param, bool) or not isinstance(param, int | float):
        raise ValueError(f"negative_slope {param} not a valid number")
    return param


def _calculate_fan_in_and_fan_out(tensor: Tensor) -> tuple[int, int]:
    shape = tensor.shape
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 "
                         "dimensions")
    receptive_field = math.prod(shape[2:])
    return shape[1] * receptive_field, shape[0] * receptive_field


def _calculate_correct_fan(tensor: Tensor, mode: str) -> int:
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return fan_in if mode == "fan_in" else fan_out


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator=None) -> Tensor:
    with no_grad():
        return _factories.uniform_(tensor, a, b, generator=generator)


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator=None) -> Tensor:
    with no_grad():
        return _factories.normal_(tensor, mean, std, generator=generator)


def constant_(tensor: Tensor, val: float) -> Tensor:
    with no_grad():
        return tensor.fill_(val)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def zeros_(tensor: Tensor) -> Tensor:
    with no_grad():
        return tensor.zero_()


def eye_(tensor: Tensor) -> Tensor:
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    if has_no_values(tensor):  # (a meta tensor: shapes only, as under torch)
        return tensor
    with no_grad():
        tensor._data[...] = np.eye(*tensor.shape, dtype=tensor._data.dtype)
    return tensor


def dirac_(tensor: Tensor, groups: int = 1) -> Tensor:
    """A convolution kernel that passes its input through: in each group, output channel d
    takes input channel d at the kernel's centre (the other weights zero)."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    if tensor.shape[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    per_group = tensor.shape[0] // groups
    centre = tuple(side // 2 for side in tensor.shape[2:])
    if has_no_values(tensor):
        return tensor
    with no_grad():
        tensor._data[...] = 0
        for group in range(groups):
            for channel in range(min(per_group, tensor.shape[1])):
                tensor._data[(group * per_group + channel, channel, *centre)] = 1
        bump_version(tensor)
    return tensor


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = math.sqrt(3.0) * gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator=None) -> Tensor:
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / float(fan_in + fan_out)), generator)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    """He initialisation: uniform in ±gain·sqrt(3 / fan) (what Linear and Conv2d start from,
    with a = √5)."""
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    bound = math.sqrt(3.0) * std
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu", generator=None) -> Tensor:
    if 0 in tensor.shape:
        return tensor
    std = calculate_gain(nonlinearity, a) / math.sqrt(_calculate_correct_fan(tensor, mode))
    return normal_(tensor, 0.0, std, generator)


def orthogonal_(tensor: Tensor, gain: float = 1, generator=None) -> Tensor:
    """A (semi-)orthogonal matrix, as torch makes it: the Q of a QR decomposition of a
    normal draw (transposed when wider than tall), its columns' signs fixed by R's diagonal.
    The draw is torch's; the decomposition is NumPy's (LAPACK in double precision, where
    torch's runs in the tensor's float32: values agree to about 1e-5)."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0 or has_no_values(tensor):  # (a meta tensor: no draws)
        return tensor
    rows = tensor.shape[0]
    columns = tensor.numel() // rows
    flattened = _factories.normal_(Tensor._make(np.empty((rows, columns), tensor._data.dtype)),
                                   0, 1, generator=generator)._data
    if rows < columns:
        flattened = flattened.T
    q, r = np.linalg.qr(flattened)
    q = q * np.sign(np.diagonal(r))
    if rows < columns:
        q = q.T
    with no_grad():
        tensor._data[...] = (q * q.dtype.type(gain)).reshape(tensor.shape).astype(
            tensor._data.dtype)
        bump_version(tensor)  # torch's copy_, then its mul_ by the gain
        bump_version(tensor)
    return tensor


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,
                  b: float = 2.0, generator=None) -> Tensor:
    """Normal draws within [a, b], as torch 2.13 draws them: where the interval holds more
    than 0.3 of the mass, normals redrawn until inside; else uniforms on [a, b] kept by
    rejection against the normal's density, the same draws in the same order."""
    from .._arithmetic import where
    from .._factories import empty_like

    def norm_cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if has_no_values(tensor):  # (torch's: no draws, and no warning)
        return tensor
    if mean < a - 2 * std or mean > b + 2 * std:
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The "
                      "distribution of values may be incorrect.", stacklevel=2)
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            low, high = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                outside = (result < low) | (result > high)
                if not outside.any():
                    break
                result = where(outside, empty_like(result).normal_(mean, std,
                                                                   generator=generator), result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        return _rejected_uniforms(tensor, mean, std, a, b, generator)


def _rejected_uniforms(tensor: Tensor, mean: float, std: float, a: float, b: float,
                       generator) -> Tensor:
    from .._arithmetic import where
    from .._factories import empty_like

    log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2
    candidates, accept = empty_like(tensor), empty_like(tensor)

    def log_density_below_peak(values: Tensor) -> Tensor:
        return values.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)

    tensor.uniform_(a, b, generator=generator)
    candidates.copy_(tensor)
    pending = accept.uniform_(generator=generator).log_().gt(log_density_below_peak(candidates))
    if pending.any():
        result = tensor
        while True:
            candidates.uniform_(a, b, generator=generator)
            result = where(pending, candidates, result)
            log_density_below_peak(candidates)
            pending = where(pending, accept.uniform_(generator=generator).log_().gt(candidates),
                            pending)
            if not pending.any():
                break
        tensor.copy_(result)
    return tensor


def reset_weight_and_bias(weight: Tensor, bias: Tensor | None) -> None:
    """Linear's and Conv2d's reset_parameters: He-uniform weight (a = √5), bias uniform in
    ±1/sqrt(fan_in)."""
    kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = _calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        uniform_(bias, -bound, bound)


def sparse_(tensor: Tensor, sparsity: float, std: float = 0.01, generator=None) -> Tensor:
    """Normal draws with a fraction ``sparsity`` of each column zeroed, in torch's order:
    the whole draw first, then a permutation of the rows per column from the default
    generator (torch's, whatever ``generator`` is)."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    if has_no_values(tensor):
        return tensor
    rows, columns = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with no_grad():
        _factories.normal_(tensor, 0, std, generator=generator)
        for column in range(columns):
            tensor[_factories.randperm(rows)[:zeros], column] = 0
    return tensor


def _deprecated(initialiser):
    """torch's old name of an initialiser (``xavier_uniform``): the same, with its warning."""
    new_name = initialiser.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.",
                      FutureWarning, stacklevel=2)
        return initialiser(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old_name
    return deprecated_init


uniform, normal, constant, eye, dirac = (_deprecated(f) for f in (
    uniform_, normal_, constant_, eye_, dirac_))
xavier_uniform, xavier_normal, kaiming_uniform, kaiming_normal, orthogonal, sparse = (
    _deprecated(f) for f in (xavier_uniform_, xavier_normal_, kaiming_uniform_, kaiming_normal_,
                             orthogonal_, sparse_))

__all__ = ["calculate_gain", "uniform_", "normal_", "constant_", "ones_", "zeros_", "eye_",
           "dirac_",
           "xavier_uniform_", "xavier_normal_", "kaiming_uniform_", "kaiming_normal_",
           "orthogonal_", "trunc_normal_", "sparse_"]

# What the engine lacks, said with torch's module name and what to do.
__getattr__ = missing_attribute("torch.nn.init")
