"""Older and shorter names of torch.nn.functional that code still calls: upsample,
upsample_nearest, upsample_bilinear (interpolate, with torch's deprecation warnings), the
in-place selu_/celu_/threshold_, the pooling functions that return indices, the
``has_torch_function`` helpers; and nn.NLLLoss2d (NLLLoss, with its warning)."""

from __future__ import annotations

import warnings

from .. import _torch_function
from .._tensor import Tensor
from . import functional
from .loss import NLLLoss


def upsample(input: Tensor, size=None, scale_factor=None, mode: str = "nearest",
             align_corners=None, recompute_scale_factor=None) -> Tensor:
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return functional.interpolate(input, size, scale_factor, mode, align_corners,
                                  recompute_scale_factor)


def upsample_nearest(input: Tensor, size=None, scale_factor=None) -> Tensor:
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return functional.interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: Tensor, size=None, scale_factor=None) -> Tensor:
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return functional.interpolate(input, size, scale_factor, mode="bilinear",
                                  align_corners=True)


def selu_(input: Tensor) -> Tensor:
    return functional.selu(input, inplace=True)


def celu_(input: Tensor, alpha: float = 1.0) -> Tensor:
    return functional.celu(input, alpha, inplace=True)


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:
    return functional.threshold(input, threshold, value, inplace=True)


def _with_indices(pool):
    def pooled(*args, **kwargs):
        kwargs.pop("return_indices", None)
        return pool(*args, **kwargs, return_indices=True)

    return pooled


max_pool1d_with_indices = _with_indices(lambda *a, **k: functional.max_pool1d(*a, **k))
max_pool2d_with_indices = _with_indices(lambda *a, **k: functional.max_pool2d(*a, **k))
max_pool3d_with_indices = _with_indices(lambda *a, **k: functional.max_pool3d(*a, **k))
adaptive_max_pool1d_with_indices = _with_indices(
    lambda *a, **k: functional.adaptive_max_pool1d(*a, **k))
adaptive_max_pool2d_with_indices = _with_indices(
    lambda *a, **k: functional.adaptive_max_pool2d(*a, **k))

has_torch_function = _torch_function.has_torch_function


def has_torch_function_unary(value) -> bool:
    return _torch_function.has_torch_function((value,))


def has_torch_function_variadic(*args) -> bool:
    return _torch_function.has_torch_function(args)


class NLLLoss2d(NLLLoss):
    """Deprecated: NLLLoss, which takes images of class scores too."""

    def __init__(self, weight=None, size_average=None, ignore_index: int = -100, reduce=None,
                 reduction: str = "mean") -> None:
        warnings.warn("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a "
                      "drop-in replacement and see https://pytorch.org/docs/main/nn.html"
                      "#torch.nn.NLLLoss for more details.", FutureWarning, stacklevel=2)
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


FUNCTIONS = ("upsample", "upsample_nearest", "upsample_bilinear", "selu_", "celu_",
             "threshold_", "max_pool1d_with_indices", "max_pool2d_with_indices",
             "max_pool3d_with_indices", "adaptive_max_pool1d_with_indices",
             "adaptive_max_pool2d_with_indices", "has_torch_function",
             "has_torch_function_unary", "has_torch_function_variadic")
