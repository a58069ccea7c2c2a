"""``torch.nn.functional``: the activation and loss functions the engine differentiates."""

from __future__ import annotations

import numpy as np

from .. import _ops
from .._tensor import Tensor

relu = _ops.relu
sigmoid = _ops.sigmoid
tanh = _ops.tanh


def softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    return _ops.softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int, dtype=None) -> Tensor:
    return _ops.log_softmax(input, dim, dtype)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:
    """Mean (or sum, or none) of squared differences, as one MseLossBackward0 node."""
    a, b = _ops._operands(input, target)
    squared = (a - b) ** 2
    if reduction == "mean":
        data = np.asarray(squared.mean(dtype=squared.dtype))
    elif reduction == "sum":
        data = np.asarray(squared.sum(dtype=squared.dtype))
    elif reduction == "none":
        data = squared
    else:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _ops._output("mse_loss", data, (input, target), (input, target, reduction))


__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "mse_loss"]
