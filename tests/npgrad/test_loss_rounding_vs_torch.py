"""Loss gradients rounded as torch's kernels round them, against torch run here: nll_loss's
mean divides the incoming gradient by the total weight before the class weight multiplies
it (a weighted cross entropy with label smoothing, scaled losses; images' losses and weights
added in torch's cascade), and soft margin's
exponentials are MKL's (rounded once), printed to the last bit."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(6, 5, requires_grad=True)
t = torch.tensor([1, 0, 3, 0, 4, 2])
w = torch.tensor([1., 2., 1., 0.5, 1.])
for kw in ({}, dict(weight=w), dict(weight=w, reduction="sum"), dict(weight=w, label_smoothing=0.1),
           dict(label_smoothing=0.2), dict(weight=w, ignore_index=0)):
    x.grad = None
    loss = F.cross_entropy(x, t, **kw) * 0.9
    loss.backward()
    print(sorted(kw), loss.item(), x.grad.tolist())
g, = torch.autograd.grad(F.nll_loss(F.log_softmax(x, 1), t, w) * 0.7, x, create_graph=True)
print(g.grad_fn.name(), g[0].tolist())
y = torch.randn(6, 5).sign()
for reduction in ("mean", "sum", "none"):
    x.grad = None
    loss = nn.SoftMarginLoss(reduction=reduction)(x * 3, y)
    loss.sum().backward()
    print(reduction, loss.sum().item(), x.grad.tolist())
for width in (5, 11):  # images: the positions' losses and weights added in torch's cascade
    scores = torch.randn(3, 5, 4, width).log_softmax(1).requires_grad_()
    targets = torch.randint(0, 5, (3, 4, width))
    targets[0, 0, :2] = -100
    for reduction in ("mean", "sum"):
        for weight in (None, w):
            scores.grad = None
            loss = F.nll_loss(scores, targets, weight=weight, reduction=reduction)
            (loss * 0.7).backward()
            print(reduction, loss.item(), scores.grad[0, :, 1, 2].tolist(),
                  scores.grad[2, 3].tolist())
"""


def test_loss_gradients_round_as_torch(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
