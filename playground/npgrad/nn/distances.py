"""Lengths, similarities and divergences: F.normalize, F.cosine_similarity and F.kl_div (with
nn.CosineSimilarity and nn.KLDivLoss), made of the ops torch makes them of, so their graphs
hold torch's nodes (torch.cdist is in _products.py)."""

from __future__ import annotations

import warnings

from .._autocast import full_precision
from .._grad_mode import no_grad
from .._products import xlogy
from .._tensor import Tensor
from .modules import Module


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12,
              out=None) -> Tensor:
    """input / max(‖input‖_p, eps) along ``dim`` (written into ``out`` where given: outside
    autograd only, as torch's div(out=))."""
    lengths = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / lengths
    if lengths.requires_grad:
        raise RuntimeError("div(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    with no_grad():
        return out.copy_(input / lengths)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    """Σ (x1/‖x1‖)(x2/‖x2‖) along ``dim``; each length kept at least eps (clamped outside the
    graph, as torch's kernel does)."""

    def unit(x: Tensor) -> Tensor:
        length = x.norm(2, dim, keepdim=True).clone()
        with no_grad():
            length.clamp_(min=eps)
        return x / length

    return (unit(x1) * unit(x2)).sum(dim)


class CosineSimilarity(Module):
    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return cosine_similarity(x1, x2, self.dim, self.eps)


@full_precision
def kl_div(input: Tensor, target: Tensor, size_average=None, reduce=None,
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """KL(target ‖ exp(input)) summed the way ``reduction`` says: target (log target - input),
    with 0 where the target is 0."""
    if reduction == "mean":
        warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the "
                      "support size.'batchmean' divides only by the batch size, and aligns with "
                      "the KL div math definition.'mean' will be changed to behave the same as "
                      "'batchmean' in the next major release.", stacklevel=2)
    if log_target:
        pointwise = target.exp() * (target - input)
    else:
        pointwise = xlogy(target, target) - target * input
    if reduction == "none":
        return pointwise
    if reduction == "batchmean":
        return pointwise.sum() / input.size(0) if input.dim() != 0 else pointwise.sum()
    return pointwise.sum() if reduction == "sum" else pointwise.mean()


class KLDivLoss(Module):
    def __init__(self, size_average=None, reduce=None, reduction: str = "mean",
                 log_target: bool = False) -> None:
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return kl_div(input, target, reduction=self.reduction, log_target=self.log_target)
