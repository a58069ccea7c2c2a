"""torch's own names for what torch.nn.functional calls (``torch.conv2d``, ``torch.dropout``,
``torch.layer_norm``, ``torch.embedding``...), with their ATen signatures: the argument order
of the schema (``batch_norm``'s weight before its running mean, ``embedding``'s weight before
its indices), losses' reduction as an int (0 none, 1 mean, 2 sum), no keyword of
functional's own. The graph is functional's, as torch's functional calls these.

A loss's reduction left out is none, not the schema's mean: torch's Python binding cannot
read the schema's default (``at::Reduction::Mean``) and passes 0; any code but 1 and 2 is
none, as ATen's apply_loss_reduction reads it."""

from __future__ import annotations

from . import functional as F

REDUCTIONS = ("none", "mean", "sum")  # ATen's Reduction enum, in its order


def _reduction(code: int) -> str:
    return REDUCTIONS[code] if code in (1, 2) else "none"


def _pool_stride(stride):
    """ATen's empty stride: the kernel size (functional's None)."""
    return None if stride in ([], (), None) else stride


def dropout(input, p: float, train: bool):
    return F.dropout(input, p, train)


def embedding(weight, indices, padding_idx: int = -1, scale_grad_by_freq: bool = False,
              sparse: bool = False):
    padding = None if padding_idx == -1 else padding_idx
    return F.embedding(indices, weight, padding, scale_grad_by_freq=scale_grad_by_freq,
                       sparse=sparse)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps: float = 1e-5,
               cudnn_enable: bool = True):
    return F.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-5,
               cudnn_enabled: bool = True):
    return F.group_norm(input, num_groups, weight, bias, eps)


def batch_norm(input, weight, bias, running_mean, running_var, training: bool,
               momentum: float, eps: float, cudnn_enabled: bool):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats: bool,
                  momentum: float, eps: float, cudnn_enabled: bool):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                           momentum, eps)


def max_pool1d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    return F.max_pool1d(self, kernel_size, _pool_stride(stride), padding, dilation, ceil_mode)


def max_pool2d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    return F.max_pool2d(self, kernel_size, _pool_stride(stride), padding, dilation, ceil_mode)


def max_pool3d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode: bool = False):
    return F.max_pool3d(self, kernel_size, _pool_stride(stride), padding, dilation, ceil_mode)


def avg_pool1d(self, kernel_size, stride=(), padding=0, ceil_mode: bool = False,
               count_include_pad: bool = True):
    return F.avg_pool1d(self, kernel_size, _pool_stride(stride), padding, ceil_mode,
                        count_include_pad)


def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None,
                                     reduction: int = 0):
    return F.binary_cross_entropy_with_logits(self, target, weight,
                                              reduction=_reduction(reduction),
                                              pos_weight=pos_weight)


def cosine_embedding_loss(input1, input2, target, margin: float = 0.0, reduction: int = 0):
    return F.cosine_embedding_loss(input1, input2, target, margin,
                                   reduction=_reduction(reduction))


def hinge_embedding_loss(self, target, margin: float = 1.0, reduction: int = 0):
    return F.hinge_embedding_loss(self, target, margin, reduction=_reduction(reduction))


def kl_div(self, target, reduction: int = 0, *, log_target: bool = False):
    # (functional's warning on 'mean' is its own: ATen's kl_div says nothing)
    pointwise = F.kl_div(self, target, reduction="none", log_target=log_target)
    how = _reduction(reduction)
    return pointwise if how == "none" else pointwise.sum() if how == "sum" else pointwise.mean()


def margin_ranking_loss(input1, input2, target, margin: float = 0.0, reduction: int = 0):
    return F.margin_ranking_loss(input1, input2, target, margin,
                                 reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input: bool, full: bool, eps: float, reduction: int):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps,
                              reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin: float = 1.0, p: float = 2.0,
                        eps: float = 1e-6, swap: bool = False, reduction: int = 0):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap,
                                 reduction=_reduction(reduction))


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank: int = 0,
             reduction: int = 0, zero_infinity: bool = False):
    return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                      _reduction(reduction), zero_infinity)


def selu_(self):
    return F.selu(self, inplace=True)


def celu_(self, alpha: float = 1.0):
    return F.celu(self, alpha, inplace=True)


def threshold_(self, threshold, value):
    return F.threshold(self, threshold, value, inplace=True)


def dropout_(input, p: float, train: bool):
    return F.dropout(input, p, train, inplace=True)


def constant_pad_nd(input, pad, value=0):
    return F.pad(input, pad, "constant", value)


# The same arguments in the same order as functional's
SAME_AS_FUNCTIONAL = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
                      "conv_transpose3d", "adaptive_avg_pool1d", "bilinear", "celu", "selu",
                      "hardshrink", "threshold", "prelu", "pixel_shuffle", "cosine_similarity",
                      "pairwise_distance", "pixel_unshuffle", "rms_norm")


def __getattr__(name: str):
    if name in SAME_AS_FUNCTIONAL:
        return getattr(F, name)
    raise AttributeError(name)

