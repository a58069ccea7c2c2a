"""Losses torch composes of other ops (aten's Loss.cpp and torch.nn.functional): pairwise
distance, triplet margin (also with a distance function), cosine embedding, margin ranking,
hinge embedding, multilabel soft margin, Poisson and Gaussian negative log-likelihood, and
cross-entropy against class probabilities; each written as torch writes it, so its graph holds
torch's nodes and its numbers torch's rounding. Their nn modules too."""

from __future__ import annotations

import math

import numpy as np

from .. import _recording
from .._arithmetic import add_scalar, sub_scalar, where
from .._autocast import full_precision
from .._factories import zeros_like
from .._grad_mode import no_grad
from .._more_math import divide_by_number
from .._reductions import _vector_norm
from .._tensor import Tensor
from .loss import _legacy_reduction, _Loss
from .modules import Module

_EPSILON = 1e-12  # cosine_embedding_loss's, added to each squared length


def _reduction(size_average, reduce, reduction: str) -> str:
    """torch's legacy size_average/reduce arguments, where given, as a reduction."""
    if size_average is None and reduce is None:
        return reduction
    return _legacy_reduction(size_average, reduce)


def _wrapped(number, like: Tensor) -> Tensor:
    """A number as a 0-d constant of ``like``'s dtype: ``number - tensor`` in aten's C++ is a
    SubBackward0 of the two."""
    return Tensor._make(np.asarray(number, like._data.dtype))


def _reduced(output: Tensor, reduction: str) -> Tensor:
    """aten's apply_loss_reduction."""
    if reduction == "mean":
        return output.mean()
    if reduction == "sum":
        return output.sum()
    if reduction != "none":
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return output


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """‖x1 - x2 + eps‖_p along the last dim (a 0-d pair along its only one)."""
    difference = add_scalar(x1 - x2, eps)
    dims = (difference.ndim - 1,) if difference.ndim else None
    values = _vector_norm(difference._data, p, dims, keepdim).astype(difference._data.dtype)
    return _recording.output("norm_dim", np.asarray(values), (difference,),  # NormBackward1
                             (difference, p, dims, keepdim, _recording.RESULT))


@full_precision
def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average=None, reduce=None,
                        reduction: str = "mean") -> Tensor:
    """max(margin + d(a, p) - d(a, n), 0), d the pairwise distance (with ``swap``, the
    smaller of d(a, n) and d(p, n))."""
    reduction = _reduction(size_average, reduce, reduction)
    dims = (anchor.ndim, positive.ndim, negative.ndim)
    if len(set(dims)) != 1:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have "
                           f"the same number of dimensions, but got: anchor {dims[0]}D, "
                           f"positive {dims[1]}D, and negative {dims[2]}D inputs")
    distance_positive = pairwise_distance(anchor, positive, p, eps)
    distance_negative = pairwise_distance(anchor, negative, p, eps)
    if swap:
        distance_negative = distance_negative.minimum(pairwise_distance(positive, negative, p,
                                                                        eps))
    return _reduced((add_scalar(distance_positive, margin) -
                     distance_negative).clamp_min(0), reduction)


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function=None, margin: float = 1.0,
                                      swap: bool = False, reduction: str = "mean") -> Tensor:
    """torch.nn.functional's: the same loss with any distance (pairwise by default)."""
    if margin <= 0:
        raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than "
                         f"0, got {margin} instead")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    distance = distance_function if distance_function is not None else pairwise_distance
    distance_positive = distance(anchor, positive)
    distance_negative = distance(anchor, negative)
    if swap:
        distance_negative = distance_negative.minimum(distance(positive, negative))
    loss = (margin + distance_positive - distance_negative).clamp_min(0)
    return _reduced(loss, reduction)


@full_precision
def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                          size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where the target is 1, max(cos - margin, 0) where it is -1."""
    reduction = _reduction(size_average, reduce, reduction)
    dim = target.ndim
    if dim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input1.ndim != dim + 1 or input2.ndim != dim + 1:
        raise RuntimeError(f"{dim}D target tensor expects {dim + 1}D input tensors, but found "
                           f"inputs with sizes {list(input1.shape)} and {list(input2.shape)}.")
    products = (input1 * input2).sum(dim)
    squares1 = add_scalar((input1 * input1).sum(dim), _EPSILON)
    squares2 = add_scalar((input2 * input2).sum(dim), _EPSILON)
    cosine = products / (squares1 * squares2).sqrt_()
    zeros = zeros_like(cosine)
    positive = _wrapped(1, cosine) - cosine
    negative = sub_scalar(cosine, margin).clamp_min_(0)
    output = where(target == 1, positive, zeros) + where(target == -1, negative, zeros)
    return _reduced(output, reduction)


@full_precision
def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0,
                        size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """max(-target (x1 - x2) + margin, 0)."""
    reduction = _reduction(size_average, reduce, reduction)
    if not input1.ndim == input2.ndim == target.ndim:
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same "
                           f"dimension but got sizes: input1: {input1.shape}, input2: "
                           f"{input2.shape}, target: {target.shape} ")
    output = add_scalar(-target * (input1 - input2), margin).clamp_min_(0)
    return _reduced(output, reduction)


@full_precision
def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0,
                         size_average=None, reduce=None, reduction: str = "mean") -> Tensor:
    """The input where the target is 1, max(margin - input, 0) where it is -1."""
    reduction = _reduction(size_average, reduce, reduction)
    zeros = zeros_like(input)
    clamped = (_wrapped(margin, input) - input).clamp_min_(0)
    output = where(target != 1, clamped, zeros) + where(target != -1, input, zeros)
    return _reduced(output, reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Tensor | None = None,
                                size_average=None, reduce=None,
                                reduction: str = "mean") -> Tensor:
    """-(y log σ(x) + (1 - y) log σ(-x)), averaged over the classes, per sample."""
    from .functional import logsigmoid

    reduction = _reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    classes = input.ndim - 1
    loss = loss.sum(dim=classes) / input.shape[classes]
    if reduction == "none":
        return loss
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")


@full_precision
def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True,
                     full: bool = False, size_average=None, eps: float = 1e-8, reduce=None,
                     reduction: str = "mean") -> Tensor:
    """exp(x) - y x (x a log-rate), or x - y log(x + eps); with ``full`` Stirling's term of
    log(y!) where y > 1."""
    reduction = _reduction(size_average, reduce, reduction)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * add_scalar(input, eps).log()
    if full:
        stirling = target * target.log() - target + (target * (2 * math.pi)).log() * 0.5
        loss += stirling.masked_fill(target <= 1, 0)
    return _reduced(loss, reduction)


def gaussian_nll_loss(input: Tensor, target: Tensor, var, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """½ (log var + (input - target)² / var), var clamped to at least eps (outside the graph);
    one variance per sample (var one dim short, or its last dim 1) broadcasts."""
    if isinstance(var, int | float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = input.new_full(input.shape, var)  # (torch 2.13 takes a number as a full tensor)
    if tuple(var.shape) != tuple(input.shape):
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    if reduction == "mean":
        return loss.mean()
    return loss.sum() if reduction == "sum" else loss


def cross_entropy_of_probabilities(input: Tensor, target: Tensor, weight: Tensor | None,
                                   reduction: str, label_smoothing: float) -> Tensor:
    """aten's cross_entropy against class probabilities: -Σ target log_softmax(input), each
    class weighted, the mean over the samples (not the weights)."""
    from .._reductions import log_softmax

    classes = 0 if input.ndim == 1 else 1
    count = input.shape[classes]
    log_probabilities = log_softmax(input, classes)
    if label_smoothing > 0:
        target = target * (1 - label_smoothing) + label_smoothing / count
    terms = log_probabilities * target
    if weight is not None:
        shape = [1] * input.ndim
        shape[classes] = weight.shape[0]
        terms = terms * weight.view(*shape)
    if reduction == "none":
        return -terms.sum(classes)
    total = -terms.sum()
    if reduction == "sum":
        return total
    return divide_by_number(total, input.numel() // count)


class PairwiseDistance(Module):
    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class TripletMarginLoss(_Loss):
    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got "
                             f"{margin} instead")
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p,
                                   eps=self.eps, swap=self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, *, distance_function=None, margin: float = 1.0, swap: bool = False,
                 reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater "
                             f"than 0, got {margin} instead")
        self.distance_function = distance_function if distance_function is not None else \
            pairwise_distance
        self.margin, self.swap = margin, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)


class _MarginLoss(_Loss):
    """A loss with a margin, calling its ``function`` with it."""

    default_margin = 0.0

    def __init__(self, margin: float | None = None, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = self.default_margin if margin is None else margin

    def forward(self, *inputs: Tensor) -> Tensor:
        return type(self).function(*inputs, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_MarginLoss):
    function = staticmethod(cosine_embedding_loss)


class MarginRankingLoss(_MarginLoss):
    function = staticmethod(margin_ranking_loss)


class HingeEmbeddingLoss(_MarginLoss):
    default_margin = 1.0
    function = staticmethod(hinge_embedding_loss)


class MultiLabelSoftMarginLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, size_average=None, reduce=None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return multilabel_soft_margin_loss(input, target, weight=self.weight,
                                           reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input: bool = True, full: bool = False, size_average=None,
                 eps: float = 1e-8, reduce=None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full,
                                eps=self.eps, reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full, self.eps = full, eps

    def forward(self, input: Tensor, target: Tensor, var) -> Tensor:
        return gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps,
                                 reduction=self.reduction)


FUNCTIONS = ("pairwise_distance", "triplet_margin_loss", "triplet_margin_with_distance_loss",
             "cosine_embedding_loss", "margin_ranking_loss", "hinge_embedding_loss",
             "multilabel_soft_margin_loss", "poisson_nll_loss", "gaussian_nll_loss")
MODULES = ("PairwiseDistance", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
           "CosineEmbeddingLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
           "MultiLabelSoftMarginLoss", "PoissonNLLLoss", "GaussianNLLLoss")
