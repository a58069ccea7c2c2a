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


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """``input @ weight.T + bias`` recorded as torch records it: one AddmmBackward0 for a
    batch of rows, wrapped in views for other shapes; MmBackward0 without a bias."""
    if bias is None:
        return input.mm(weight.t()) if input.ndim == 2 else input.matmul(weight.t())
    if input.ndim == 2:
        return _ops.addmm(bias, input, weight.t())
    rows = input.view(-1, input.shape[-1])
    return _ops.addmm(bias, rows, weight.t()).view(*input.shape[:-1], weight.shape[0])


def nll_loss(input: Tensor, target: Tensor, weight=None, ignore_index: int = -100,
             reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of each row's target class (``input`` holds log-probabilities)."""
    if weight is not None:
        raise NotImplementedError("nll_loss with class weights is not in the built-in NumPy "
                                  "engine; switch the engine to torch")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    values = input._data
    classes = np.asarray(target._data if isinstance(target, Tensor) else target)
    if classes.dtype.kind not in "iu":
        raise RuntimeError(f"expected scalar type Long but found {target.dtype}")
    batched = values.ndim == 2
    rows = values if batched else values[None]
    labels = classes.reshape(-1)
    if rows.shape[0] != labels.shape[0]:
        raise ValueError(f"Expected input batch_size ({rows.shape[0]}) to match target "
                         f"batch_size ({labels.shape[0]}).")
    kept = labels != ignore_index
    if np.any((labels[kept] < 0) | (labels[kept] >= rows.shape[1])):
        raise IndexError(f"Target {int(labels[kept].max())} is out of bounds.")
    chosen = np.zeros_like(rows)
    chosen[np.flatnonzero(kept), labels[kept]] = 1
    picked = -(rows * chosen).sum(axis=1)
    count = 1
    if reduction == "mean":
        count = int(kept.sum())
        data = np.asarray(picked.sum() / count, dtype=values.dtype)
    elif reduction == "sum":
        data = np.asarray(picked.sum(), dtype=values.dtype)
    else:
        data = picked if batched else picked.reshape(())
    chosen = chosen if batched else chosen[0]
    return _ops._output("nll_loss", data, (input,), (chosen, reduction, count))


def cross_entropy(input: Tensor, target: Tensor, weight=None, ignore_index: int = -100,
                  reduction: str = "mean") -> Tensor:
    """log_softmax over the classes, then nll_loss: the two nodes torch records."""
    if isinstance(target, Tensor) and target.dtype.is_floating_point:
        raise NotImplementedError("cross_entropy with class probabilities as the target is not "
                                  "in the built-in NumPy engine; switch the engine to torch")
    return nll_loss(log_softmax(input, 1 if input.ndim >= 2 else 0), target, weight,
                    ignore_index, reduction)


__all__ = ["relu", "sigmoid", "tanh", "softmax", "log_softmax", "mse_loss", "linear",
           "nll_loss", "cross_entropy"]
