"""Batch normalization: ``F.batch_norm`` (torch's NativeBatchNormBackward0), BatchNorm1d/2d/3d."""

from __future__ import annotations

import numpy as np

from .. import _batch_norm_kernel, _factories, _recording
from .._dtype import int64
from .._dtype_checks import check_normalization
from .._tensor import Tensor
from .modules import Module, Parameter


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None,
               training: bool = False, momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalize each channel (dim 1) by the batch's mean and variance while training
    (updating the running ones), or by the running ones in eval; then scale and shift."""
    check_normalization(input, running_mean, running_var, weight, bias)
    data = input._data
    dims = (0, *range(2, data.ndim))
    shape = (1, -1) + (1,) * (data.ndim - 2)
    found = None
    if training:
        count = data.size // data.shape[1]
        if count <= 1:
            raise ValueError("Expected more than 1 value per channel when training, got input "
                             f"size {input.shape}")
        found = _statistics(data, running_mean, running_var)
        if found is not None:  # float32: torch's own arithmetic (_batch_norm_kernel)
            mean, squares = found
            variance = squares / np.float32(count)
            _update_running(running_mean, running_var, mean, squares / np.float32(count - 1),
                            momentum, _batch_norm_kernel.running_update)
        else:
            wide = data.astype(np.float64)  # torch collects the statistics in double
            mean = wide.mean(axis=dims)
            variance = ((wide - mean.reshape(shape)) ** 2).mean(axis=dims)
            _update_running(running_mean, running_var, mean, variance * count / (count - 1),
                            momentum, _blended)
    else:
        mean, variance = running_mean._data.astype(np.float64), running_var._data
    invstd = (1 / np.sqrt(variance.astype(np.float64) + eps)).astype(data.dtype)
    mean = mean.astype(data.dtype)
    # 1/std for torch's float32 kernel; None where its arithmetic is not followed
    kernel_invstd = _eval_invstd(data, running_var, eps) if not training else \
        invstd if found is not None else None
    if kernel_invstd is not None:
        result = np.empty_like(data)  # (in the input's layout)
        result[...] = _batch_norm_kernel.normalized(
            data, mean, kernel_invstd, *(None if value is None else value._data
                                         for value in (weight, bias)))
    else:
        alpha = invstd * (weight._data if weight is not None else 1)
        beta = (bias._data if bias is not None else 0) - mean * alpha
        result = data * alpha.reshape(shape) + beta.reshape(shape)  # torch's x * alpha + beta
    return _recording.output("batch_norm", result.astype(data.dtype), (input, weight, bias),
                             (input, mean, weight, invstd, training, eps))


def _statistics(data: np.ndarray, running_mean, running_var):
    """The float32 batch's (mean, sum of squared deviations) as torch's kernel finds them;
    None for other inputs or running statistics of another dtype."""
    if any(running is not None and running._data.dtype != np.float32
           for running in (running_mean, running_var)):
        return None
    return _batch_norm_kernel.statistics(data)


def _eval_invstd(data: np.ndarray, running_var, eps: float):
    """1/sqrt(var + eps) as torch's float32 kernel finds it in eval, all in float32 (its
    backward finds it in double); None where the kernel's arithmetic is not followed."""
    if _batch_norm_kernel.layout(data) is None or running_var._data.dtype != np.float32:
        return None
    return np.float32(1) / np.sqrt(running_var._data + np.float32(eps))


def _update_running(running_mean, running_var, mean, unbiased, momentum, update) -> None:
    """The running mean and variance moved towards the batch's by ``update`` (the variance's
    ``in_double``, as torch's float32 kernel finds it)."""
    for running, batch, in_double in ((running_mean, mean, False), (running_var, unbiased, True)):
        if running is not None:
            running._data[...] = update(running._data, batch, momentum, in_double)


def _blended(running: np.ndarray, batch: np.ndarray, momentum: float, in_double: bool):
    """momentum · batch + (1 − momentum) · running, in double (other inputs than float32)."""
    updated = momentum * batch + (1 - momentum) * running.astype(np.float64)
    return updated.astype(running.dtype)


def add_affine(module: Module, size: int, affine: bool, bias: bool, dtype) -> None:
    """A norm layer's weight (ones) and bias (zeros) per feature, or None without affine
    (the bias None too without ``bias``)."""
    module.weight = Parameter(_factories.ones(size, dtype=dtype)) if affine else None
    module.bias = Parameter(_factories.zeros(size, dtype=dtype)) if affine and bias else None
    for name in ("weight", "bias"):
        if getattr(module, name) is None:
            module.register_parameter(name, None)


def add_running_statistics(module: Module, size: int, track: bool, dtype) -> None:
    """The buffers of running mean, variance and batch count, or None when not tracked."""
    if track:
        module.register_buffer("running_mean", _factories.zeros(size, dtype=dtype))
        module.register_buffer("running_var", _factories.ones(size, dtype=dtype))
        module.register_buffer("num_batches_tracked", _factories.tensor(0, dtype=int64))
    else:
        for name in ("running_mean", "running_var", "num_batches_tracked"):
            module.register_buffer(name, None)


def _reset_affine(module: Module) -> None:
    """Weight back to ones and bias to zeros, where the module has them."""
    from .._grad_mode import no_grad

    with no_grad():
        if module.weight is not None:
            module.weight.fill_(1)
        if module.bias is not None:
            module.bias.zero_()


class _BatchNorm(Module):
    """Batch normalization over channel 1, with running statistics; the subclasses say
    which inputs they take (``DIMENSIONS``, and the words of torch's error)."""

    DIMENSIONS: tuple[int, ...] = ()
    _version = 2  # (num_batches_tracked came with it)
    EXPECTED = ""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device=None,
                 dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        add_affine(self, num_features, affine, bias, dtype)
        add_running_statistics(self, num_features, track_running_stats, dtype)

    def reset_running_stats(self) -> None:
        if self.track_running_stats:
            self.running_mean.zero_()
            self.running_var.fill_(1)
            self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        self.reset_running_stats()
        _reset_affine(self)

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() not in self.DIMENSIONS:
            raise ValueError(f"expected {self.EXPECTED} input (got {input.dim()}D input)")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked._data += 1
            if self.momentum is None:  # a cumulative average
                factor = 1.0 / float(self.num_batches_tracked._data)
        use_batch = self.training or self.running_mean is None
        return batch_norm(input, self.running_mean if not self.training or
                          self.track_running_stats else None,
                          self.running_var if not self.training or
                          self.track_running_stats else None,
                          self.weight, self.bias, use_batch, factor, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class BatchNorm1d(_BatchNorm):
    """Over (N, C) or (N, C, L) inputs."""

    DIMENSIONS, EXPECTED = (2, 3), "2D or 3D"


class BatchNorm2d(_BatchNorm):
    """Over (N, C, H, W) inputs: each channel's statistics over the batch and the plane."""

    DIMENSIONS, EXPECTED = (4,), "4D"


class BatchNorm3d(_BatchNorm):
    DIMENSIONS, EXPECTED = (5,), "5D"


class SyncBatchNorm(_BatchNorm):
    """Batch normalization whose statistics a distributed run shares across its processes;
    a single process (here, always) normalizes as BatchNorm does."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, process_group=None,
                 device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device,
                         dtype, bias=bias)
        self.process_group = process_group

    def _check_input_dim(self, input: Tensor) -> None:
        if input.dim() < 2:
            raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")

    @classmethod
    def convert_sync_batchnorm(cls, module: Module, process_group=None) -> Module:
        """``module`` with each BatchNorm in it replaced by a SyncBatchNorm holding the same
        parameters and running statistics."""
        converted = module
        if isinstance(module, _BatchNorm):
            converted = cls(module.num_features, module.eps, module.momentum, module.affine,
                            module.track_running_stats, process_group)
            for name in ("weight", "bias"):
                converted._parameters[name] = module._parameters.get(name)
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                converted._buffers[name] = module._buffers.get(name)
            converted.training = module.training
        for name, child in module.named_children():
            converted.add_module(name, cls.convert_sync_batchnorm(child, process_group))
        return converted


class LayerNorm(Module):
    """Layer normalization over the last dims (``normalized_shape``), with an elementwise
    weight (ones) and bias (zeros) unless told otherwise."""

    def __init__(self, normalized_shape, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, device=None, dtype=None) -> None:
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) \
            else tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_factories.ones(*self.normalized_shape, dtype=dtype))
            self.bias = Parameter(_factories.zeros(*self.normalized_shape, dtype=dtype)) \
                if bias else None
            if not bias:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        _reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        from .functional import layer_norm

        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}, bias={self.bias is not None}")
