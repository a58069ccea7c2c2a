"""Margin losses torch computes with kernels of its own: F.soft_margin_loss
(SoftMarginLossBackward0, differentiable twice), F.multi_margin_loss and
F.multilabel_margin_loss (MultiMarginLossBackward0, MultilabelMarginLossBackward0, whose
gradients torch cannot differentiate again), with their modules; each summed as torch's CPU
kernel sums (a sample's terms in double, then the samples)."""

from __future__ import annotations

import numpy as np

from .. import _recording
from .._autocast import full_precision
from .._formula_kit import Kit
from .._pointwise import rounded_once
from .._tensor import Tensor
from .functional import _pointwise_loss
from .loss import _Loss
from .more_losses import _reduction

_REDUCTIONS = ("none", "mean", "sum")
# torch's at::exp and at::log1p: MKL's, which round (nearly always) as float64 rounded once does
_rounded_exp, _rounded_log1p = rounded_once(np.exp), rounded_once(np.log1p)


def _not_differentiable(function: str, argument: str, tensor) -> None:
    if isinstance(tensor, Tensor) and tensor.requires_grad:
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to "
                           f"argument '{argument}'. This input cannot have requires_grad True.")


def _checked_reduction(size_average, reduce, reduction: str) -> str:
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return reduction


# ----- soft margin: log(1 + exp(-y x)) ------------------------------------------------------------
@full_precision
def soft_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                     reduction: str = "mean") -> Tensor:
    reduction = _checked_reduction(size_average, reduce, reduction)
    _not_differentiable("soft_margin_loss", "target", target)
    if tuple(target.shape) != tuple(input.shape):
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input "
                         f"size ({input.shape}) is deprecated. Please ensure they have the same "
                         "size.")
    data = input._data
    values = _rounded_log1p(_rounded_exp(-data * target._data.astype(data.dtype)))
    return _recording.output("soft_margin_loss", _pointwise_loss(values, reduction), (input,),
                             (input, target._data.astype(data.dtype), reduction))


def soft_margin_grad(k, grad, self, target, reduction):
    """-norm y z / (1 + z) · grad, z = exp(-y x), as torch's kernel works it out."""
    norm = 1.0 / self.size if reduction == "mean" else 1.0
    z = _rounded_exp(-target * self)
    values = (target * z) * self.dtype.type(-norm)
    return values / (z + 1) * grad


def soft_margin_double(k, grad, self, target, reduction):
    """The gradient's derivative by the input: y² z / (z + 1)² · grad · norm."""
    norm = 1.0 / _count(self) if reduction == "mean" else 1.0
    z = k.exp(self * -target)
    return k.times((target * target) * z / (z + 1) / (z + 1) * grad, norm)


def soft_margin_grad_output(k, grad, grad_output, self, target, reduction):
    """The gradient's derivative by grad_output: the gradient of a unit grad_output
    (-norm y z / (1 + z)) times ``grad``, summed unless unreduced."""
    norm = 1.0 / _count(self) if reduction == "mean" else 1.0
    z = k.exp(-target * self)
    unit = k.times(target * z, -norm) / (z + 1)
    return unit * grad if reduction == "none" else k.sum(unit * grad, None, False)


def _count(value) -> int:
    return int(np.prod(value.shape))


# ----- multi-class margins: Σ_j≠y max(0, margin - x_y + x_j)^p / C -------------------------------
@full_precision
def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,
                      weight: Tensor | None = None, size_average=None, reduce=None,
                      reduction: str = "mean") -> Tensor:
    reduction = _checked_reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    _not_differentiable("multi_margin_loss", "weight", weight)
    rows, classes = _frames(input, target, "multi_margin_loss")
    data = rows.astype(input._data.dtype, copy=False)
    weights = None if weight is None else weight._data.astype(data.dtype)
    margins = _margins(data, classes, p, margin, weights)
    losses = margins.sum(1, dtype=np.float64) / data.shape[1]  # (each frame's sum in double)
    values = _frame_reduction(losses, reduction, input, data.dtype)
    return _recording.output("multi_margin_loss", values, (input,),
                             (input, classes, p, margin, weights, reduction))


def _frames(input: Tensor, target: Tensor, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The input as rows of scores (a 1-d input is one row) and the targets as an array."""
    data = input._data
    if data.ndim > 2 or data.ndim == 0 and name == "multilabel_margin_loss":
        raise RuntimeError(f"{name}: Expected non-empty vector or matrix with optional "
                           f"0-dim batch size, but got: {list(data.shape)}")
    rows = data.reshape(1, -1) if data.ndim < 2 else data
    targets = np.asarray(target._data).astype(np.int64)
    return rows, targets.reshape(rows.shape[0], -1) if name == "multilabel_margin_loss" \
        else targets.reshape(-1)


def _margins(data, classes, p, margin, weights) -> np.ndarray:
    """Each frame's terms max(0, margin - x_y + x_j) (squared for p 2, weighted by the target
    class's weight), zero at the target."""
    picked = data[np.arange(len(data)), classes][:, None]
    z = (data.dtype.type(margin) - picked) + data
    terms = np.where(z > 0, z if p == 1 else z * z, 0).astype(data.dtype)
    if weights is not None:
        terms = terms * weights[classes][:, None]
    terms[np.arange(len(data)), classes] = 0
    return terms


def _frame_reduction(losses: np.ndarray, reduction: str, input: Tensor, dtype) -> np.ndarray:
    if reduction == "none":
        return losses.astype(dtype).reshape(() if input.ndim < 2 else (-1,))
    total = losses.sum()
    return np.asarray(total / len(losses) if reduction == "mean" else total, dtype)


def multi_margin_grad(k, grad, self, classes, p, margin, weights, reduction):
    """MultiMarginLossBackward0 on arrays (torch's kernel); under create_graph its
    NotImplemented node."""
    data = np.asarray(getattr(self, "_data", self))
    rows = data.reshape(1, -1) if data.ndim < 2 else data
    scale = 1.0 / (rows.size if reduction == "mean" else rows.shape[1])
    picked = rows[np.arange(len(rows)), classes][:, None]
    z = (rows.dtype.type(margin) - picked) + rows
    terms = np.where(z > 0, scale if p == 1 else 2 * scale * z, 0).astype(rows.dtype)
    if weights is not None:
        terms = terms * weights[classes][:, None]
    terms[np.arange(len(rows)), classes] = 0
    terms[np.arange(len(rows)), classes] = -terms.sum(1)
    return _times_grad(k, terms, grad, data, "multi_margin_loss_backward", self)


def _times_grad(k, terms, grad, data, op, self):
    values = np.asarray(getattr(grad, "_data", grad))
    flowing = values.reshape(-1, 1) if values.ndim else values
    result = (terms * flowing).reshape(data.shape).astype(data.dtype)
    if isinstance(grad, np.ndarray):
        return result
    return k._backward_of(op, result, (grad, self))


# ----- multi-label margins: Σ over targets y, non-targets j of max(0, 1 - x_y + x_j) / C -------
@full_precision
def multilabel_margin_loss(input: Tensor, target: Tensor, size_average=None, reduce=None,
                           reduction: str = "mean") -> Tensor:
    reduction = _checked_reduction(size_average, reduce, reduction)
    rows, targets = _frames(input, target, "multilabel_margin_loss")
    if targets.shape != rows.shape:
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: "
                           f"{list(input.shape)}")
    data = rows
    hinges = _label_hinges(data, targets)
    losses = hinges.sum((1, 2), dtype=np.float64) / data.shape[1]
    values = _frame_reduction(losses, reduction, input, data.dtype)
    return _recording.output("multilabel_margin_loss", values, (input,),
                             (input, targets, reduction))


def _labels(targets: np.ndarray) -> np.ndarray:
    """Each frame's target classes: those before its first negative entry (a boolean mask
    of (frame, position))."""
    return np.cumprod(targets >= 0, axis=1).astype(bool)


def _label_hinges(data: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """(frame, target position, class): max(0, 1 - x_y + x_j) for each listed target y and
    each class j that is not a target."""
    listed = _labels(targets)
    is_target = np.zeros(data.shape, bool)
    frames = np.nonzero(listed)[0]
    is_target[frames, targets[listed]] = True
    picked = np.take_along_axis(data, np.where(listed, targets, 0), 1)[:, :, None]
    z = (data.dtype.type(1) - picked) + data[:, None, :]
    keep = listed[:, :, None] & ~is_target[:, None, :] & (z > 0)
    return np.where(keep, z, 0).astype(data.dtype)


def multilabel_margin_grad(k, grad, self, targets, reduction):
    data = np.asarray(getattr(self, "_data", self))
    rows = data.reshape(1, -1) if data.ndim < 2 else data
    scale = rows.dtype.type(1.0 / (rows.size if reduction == "mean" else rows.shape[1]))
    active = _label_hinges(rows, targets) > 0
    terms = active.sum(1) * scale  # each non-target class, once per target it is above
    listed = _labels(targets)
    np.subtract.at(terms, (np.nonzero(listed)[0], targets[listed]),
                   active.sum(2)[listed] * scale)
    return _times_grad(k, terms.astype(rows.dtype), grad, data,
                       "multilabel_margin_loss_backward", self)


class SoftMarginLoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return soft_margin_loss(input, target, reduction=self.reduction)


class MultiMarginLoss(_Loss):
    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 size_average=None, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got "
                             f"{weight.dim()}D instead")
        self.register_buffer("weight", weight)
        self.p, self.margin = p, margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return multi_margin_loss(input, target, p=self.p, margin=self.margin,
                                 weight=self.weight, reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return multilabel_margin_loss(input, target, reduction=self.reduction)


for _function in (soft_margin_grad, soft_margin_double, soft_margin_grad_output,
                  multi_margin_grad, multilabel_margin_grad):
    setattr(Kit, _function.__name__, _function)

FUNCTIONS = ("soft_margin_loss", "multi_margin_loss", "multilabel_margin_loss")
MODULES = ("SoftMarginLoss", "MultiMarginLoss", "MultiLabelMarginLoss")
