"""Lazy modules (nn.LazyLinear, LazyConv1d/2d, LazyBatchNorm1d/2d, as Dive into Deep Learning
builds its models): their parameters uninitialized until the first input says their sizes,
then made and initialised as the plain module's (torch's random draws then), and the module
becomes the plain one (``LazyLinear`` prints as ``Linear`` after its first call)."""

from __future__ import annotations

import numpy as np

from .. import _factories
from .._grad_mode import no_grad
from .._tensor import Parameter, Tensor, _disabled_torch_function_impl, mark_parameter
from .convolution import Conv1d, Conv2d
from .modules import Linear
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d

__all__ = ["LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyConv1d", "LazyConv2d",
           "LazyLinear", "UninitializedBuffer", "UninitializedParameter"]


class UninitializedParameter(Parameter):
    """A parameter with no shape yet; ``materialize(shape)`` makes it a plain Parameter."""

    __slots__ = ()

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        made = Parameter.__new__(Parameter, _factories.empty(0, dtype=dtype), requires_grad)
        made.__class__ = cls
        return made

    def materialize(self, shape, device=None, dtype=None) -> None:
        self._data = np.empty(tuple(shape), self._data.dtype if dtype is None else dtype.numpy)
        mark_parameter(self)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"


class UninitializedBuffer(Tensor):
    """A buffer with no shape yet (a lazy BatchNorm's running statistics)."""

    __slots__ = ()
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None):
        made = _factories.empty(0, dtype=dtype)
        made.__class__ = cls
        made.__dict__["_is_buffer"] = True
        return made

    def __init__(self, *args, **kwargs) -> None:
        """(made by __new__; Tensor's own constructor is torch's legacy one)"""

    def materialize(self, shape, device=None, dtype=None) -> None:
        self._data = np.empty(tuple(shape), self._data.dtype if dtype is None else dtype.numpy)
        self.__class__ = Tensor

    def __repr__(self) -> str:
        return "<UninitializedBuffer>"


def _infer_parameters(module, args, kwargs):
    """The first call's pre-hook: sizes from the input, then the plain module's class."""
    module.initialize_parameters(*args, **kwargs)
    if module.has_uninitialized_params():
        raise RuntimeError(f"module {type(module).__name__} has not been fully initialized")
    module._initialize_hook.remove()
    del module._initialize_hook
    if module.cls_to_become is not None:
        module.__class__ = module.cls_to_become


class LazyParts:
    """What every lazy module shares: the pre-hook and the question whether it is made."""

    cls_to_become: type | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(_infer_parameters,
                                                               with_kwargs=True)

    def has_uninitialized_params(self) -> bool:
        return any(isinstance(value, UninitializedParameter | UninitializedBuffer)
                   for value in (*self._parameters.values(), *self._buffers.values()))

    def _made(self, sizes: dict) -> None:
        """Each uninitialized parameter and buffer given its shape, then initialised."""
        with no_grad():
            for name, shape in sizes.items():
                value = getattr(self, name)
                if isinstance(value, UninitializedParameter | UninitializedBuffer):
                    value.materialize(shape)
            self.reset_parameters()


class LazyLinear(LazyParts, Linear):
    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self._made({"weight": (self.out_features, self.in_features),
                        "bias": (self.out_features,)})


class _LazyConv(LazyParts):
    """LazyConv1d and LazyConv2d: in_channels from the input (batched or not)."""

    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args, **kwargs) -> None:
        if not self.has_uninitialized_params():
            return
        unbatched = len(self.kernel_size) + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) "
                               f"input to {type(self).__name__}, but got input of size: "
                               f"{input.shape}")
        self.in_channels = input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        self._made({"weight": (self.out_channels, self.in_channels // self.groups,
                               *self.kernel_size), "bias": (self.out_channels,)})


class LazyConv1d(_LazyConv, Conv1d):
    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    cls_to_become = Conv2d


class _LazyNorm(LazyParts):
    """LazyBatchNorm1d and 2d: num_features from the input's second dimension."""

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device=None, dtype=None, *,
                 bias: bool = True) -> None:
        super().__init__(0, eps, momentum, False, False)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = Tensor._make(np.array(0, np.int64))

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            size = (self.num_features,)
            self._made({"weight": size, "bias": size, "running_mean": size,
                        "running_var": size})


class LazyBatchNorm1d(_LazyNorm, BatchNorm1d):
    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNorm, BatchNorm2d):
    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNorm, BatchNorm3d):
    cls_to_become = BatchNorm3d
