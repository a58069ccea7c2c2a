"""The losses torch composes of other ops or computes with margin kernels, on npgrad against
real torch, run here: pairwise distance, triplet margin (also with a distance function),
cosine embedding, margin ranking, hinge embedding, soft margin, multilabel soft margin, multi
margin, multilabel margin, Poisson and Gaussian NLL, cross-entropy against probabilities and
smoothed with class weights; every reduction, gradients (and some second derivatives), the
node names, modules' reprs, the legacy reduction warning and torch's refusals."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import warnings
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
y = torch.randn(4, 5, requires_grad=True)
z = torch.randn(4, 5)
labels = torch.tensor([1, -1, 1, -1])
ranks = torch.tensor([1.0, -1.0, -1.0, 1.0])
probabilities = torch.softmax(torch.randn(4, 5), 1)
listed = torch.tensor([[0, 3, -1, 2, 1], [4, -1, 0, 0, 0], [1, 2, 3, 4, 0], [2, 2, -1, 0, 0]])
nn = torch.nn
losses = {
    "pairwise": lambda r: F.pairwise_distance(x, y, keepdim=True).sum(),
    "pairwise p1": lambda r: nn.PairwiseDistance(p=1.0)(x, y).sum(),
    "triplet": lambda r: F.triplet_margin_loss(x, y, z, reduction=r),
    "triplet swap": lambda r: nn.TripletMarginLoss(0.5, p=1, swap=True, reduction=r)(x, y, z),
    "triplet distance": lambda r: F.triplet_margin_with_distance_loss(
        x, y, z, distance_function=lambda a, b: 1 - F.cosine_similarity(a, b), reduction=r),
    "cosine embedding": lambda r: F.cosine_embedding_loss(x, y, labels, 0.1, reduction=r),
    "margin ranking": lambda r: nn.MarginRankingLoss(0.2, reduction=r)(x[:, 0], y[:, 0], ranks),
    "hinge embedding": lambda r: nn.HingeEmbeddingLoss(reduction=r)(x, torch.sign(z)),
    "soft margin": lambda r: nn.SoftMarginLoss(reduction=r)(x, torch.sign(z)),
    "multilabel soft margin": lambda r: F.multilabel_soft_margin_loss(x, (z > 0).float(),
                                                                      reduction=r),
    "multi margin": lambda r: F.multi_margin_loss(x, torch.tensor([0, 4, 2, 2]), reduction=r),
    "multi margin p2": lambda r: nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.rand(5),
                                                    reduction=r)(x, torch.tensor([1, 0, 3, 2])),
    "multilabel margin": lambda r: nn.MultiLabelMarginLoss(reduction=r)(x, listed),
    "poisson": lambda r: F.poisson_nll_loss(x, z.abs(), reduction=r),
    "poisson full": lambda r: nn.PoissonNLLLoss(log_input=False, full=True, reduction=r)(
        x.abs(), z.abs() * 3),
    "gaussian": lambda r: F.gaussian_nll_loss(x, z, y.abs(), reduction=r),
    "gaussian one variance": lambda r: nn.GaussianNLLLoss(full=True, reduction=r)(
        x, z, y[:, 0].abs()),
    "cross entropy probabilities": lambda r: F.cross_entropy(x, probabilities, reduction=r),
    "... smoothed and weighted": lambda r: F.cross_entropy(
        x, probabilities, weight=torch.rand(5), label_smoothing=0.2, reduction=r),
    "cross entropy smoothed and weighted": lambda r: F.cross_entropy(
        x, torch.tensor([1, 0, -100, 4]), weight=torch.rand(5), label_smoothing=0.1,
        reduction=r),
}
for name, loss in losses.items():
    for reduction in ("mean", "sum", "none"):
        x.grad = y.grad = None
        value = loss(reduction)
        value.sum().backward()
        print(name, reduction, value.grad_fn.name(), value.detach(), x.grad,
              None if y.grad is None else y.grad.sum())
second = {
    "soft margin": lambda: F.soft_margin_loss(x, torch.sign(z)),
    "triplet": lambda: F.triplet_margin_loss(x, y, z),
    "cosine embedding": lambda: F.cosine_embedding_loss(x, y, labels),
    "gaussian": lambda: F.gaussian_nll_loss(x, z, y.abs()),
    "cross entropy probabilities": lambda: F.cross_entropy(x, probabilities, label_smoothing=0.1),
}
for name, loss in second.items():
    gradient, = torch.autograd.grad(loss(), x, create_graph=True)
    hessian_vector, = torch.autograd.grad((gradient ** 2).sum(), x)
    print(name, gradient.grad_fn.name(), hessian_vector)
print(nn.TripletMarginLoss(), nn.MultiMarginLoss(p=2), nn.GaussianNLLLoss())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(F.margin_ranking_loss(x[:, 0], y[:, 0], ranks, size_average=False),
          [str(w.message) for w in caught])


def twice(loss):
    gradient, = torch.autograd.grad(loss, x, create_graph=True)
    return torch.autograd.grad(gradient.sum(), x)


targets = torch.tensor([0, 1, 2, 3])
for bad in ("F.soft_margin_loss(x, y)", "F.multi_margin_loss(x, targets, p=3)",
            "F.multi_margin_loss(x, targets, weight=torch.ones(5, requires_grad=True))",
            "F.gaussian_nll_loss(x, z, torch.ones(3))",
            "F.gaussian_nll_loss(x, z, -torch.ones(4, 5))",
            "F.cosine_embedding_loss(x, y, torch.ones(4, 1))",
            "F.cosine_embedding_loss(x, y, torch.tensor(1.0))",
            "F.triplet_margin_loss(x, y, z[0])",
            "F.multilabel_margin_loss(x, torch.zeros(4, 3, dtype=torch.long))",
            "twice(F.multi_margin_loss(x, targets))",
            "twice(F.multilabel_margin_loss(x, listed))"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_the_losses_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


SIGNED_ZEROS = """
import torch
import torch.nn.functional as F

x0 = torch.tensor([[-2.0, -0.5, 0.0, 0.5, 2.0, 3.0], [1.0, -1.0, 0.25, -3.0, 0.0, 5.0]])
ops = {
    "relu": F.relu, "relu6": F.relu6, "hardtanh": F.hardtanh, "clamp": lambda x: x.clamp(-1, 1),
    "clamp_min": lambda x: x.clamp_min(0), "clamp_max": lambda x: x.clamp_max(0),
    "clamp by tensors": lambda x: torch.clamp(x, torch.zeros(6), torch.ones(6)),
    "amax": lambda x: x.amax(1), "maximum": lambda x: torch.maximum(x, torch.zeros(6)),
    "minimum": lambda x: torch.minimum(x, torch.zeros(6)), "hardswish": F.hardswish,
    "inf norm": lambda x: x.norm(p=float("inf"), dim=1), "max": lambda x: x.max(1).values,
    "nll with an ignored target": lambda x: F.nll_loss(x, torch.tensor([1, -100])),
    "cross_entropy": lambda x: F.cross_entropy(x, torch.tensor([-100, 2]), reduction="sum"),
}
for name, function in ops.items():
    x = x0.clone().requires_grad_()
    y = function(x)
    y.backward(-torch.ones_like(y))  # a negative gradient: its masked-off zeros keep a sign
    print(name, x.grad, torch.signbit(x.grad).tolist())
"""


def test_masked_off_gradients_are_torchs_signed_zeros(tmp_path):
    """torch writes zeros where a mask stops the gradient (+0, printed ``0.``) but multiplies
    by the mask in amax's and the inf norm's (-0 for a negative gradient, printed ``-0.``)."""
    assert_playground_prints_as_torch(SIGNED_ZEROS, tmp_path)
