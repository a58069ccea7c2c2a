"""torch's own names for functional's ops (torch.conv2d, torch.dropout, torch.layer_norm,
torch.embedding, torch.batch_norm, torch.kl_div...) against torch run here: their ATen
argument order and keywords, reductions as ints (left out: none, as torch's binding reads
the schema), the values, the nodes and the gradients."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch_within

pytest.importorskip("torch")

CALLS = r'''
import warnings
import torch
warnings.simplefilter("always")
torch.manual_seed(0)
x = torch.randn(2, 3, 6, 6, requires_grad=True)
w = torch.randn(4, 3, 3, 3, requires_grad=True)
b = torch.randn(4, requires_grad=True)
seq = torch.randn(2, 3, 8, requires_grad=True)
emb = torch.randn(5, 3, requires_grad=True)
p = torch.randn(4, 5, requires_grad=True)
t = torch.rand(4, 5)
sign = torch.tensor([1.0, -1.0, 1.0, -1.0])
calls = {
    "conv1d": lambda: torch.conv1d(seq, torch.ones(2, 3, 3), None, 1, 1),
    "conv2d": lambda: torch.conv2d(x, w, b, stride=2, padding=1),
    "conv3d": lambda: torch.conv3d(x.unsqueeze(2), w.unsqueeze(2)),
    "conv_transpose1d": lambda: torch.conv_transpose1d(seq, torch.ones(3, 2, 3), None, 2),
    "conv_transpose2d": lambda: torch.conv_transpose2d(x, w.transpose(0, 1), b, 1, 0, 0, 1, 1),
    "dropout": lambda: torch.dropout(x, 0.5, True).sum(),
    "dropout eval": lambda: torch.dropout(x, p=0.5, train=False),
    "embedding": lambda: torch.embedding(emb, torch.tensor([[0, 2], [4, 2]])),
    "embedding padding": lambda: torch.embedding(emb, torch.tensor([0, 1, 1]), 1),
    "layer_norm": lambda: torch.layer_norm(x, [6, 6], None, None, 1e-5, False),
    "group_norm": lambda: torch.group_norm(x, 3, torch.ones(3), torch.zeros(3), 1e-5, True),
    "batch_norm": lambda: torch.batch_norm(x, torch.ones(3), torch.zeros(3), torch.zeros(3),
                                           torch.ones(3), True, 0.1, 1e-5, False),
    "instance_norm": lambda: torch.instance_norm(x, None, None, None, None, True, 0.1, 1e-5,
                                                 False),
    "max_pool1d": lambda: torch.max_pool1d(seq, 2),
    "max_pool2d": lambda: torch.max_pool2d(x, 2, [], 0, 1, False),
    "max_pool2d stride": lambda: torch.max_pool2d(x, kernel_size=3, stride=2, padding=1),
    "max_pool3d": lambda: torch.max_pool3d(x.unsqueeze(0), 2),
    "avg_pool1d": lambda: torch.avg_pool1d(seq, 3, 2, 1, False, False),
    "adaptive_avg_pool1d": lambda: torch.adaptive_avg_pool1d(seq, 3),
    "bilinear": lambda: torch.bilinear(p, p, torch.ones(2, 5, 5), None),
    "celu": lambda: torch.celu(p, 0.5),
    "selu": lambda: torch.selu(p),
    "hardshrink": lambda: torch.hardshrink(p, 0.3),
    "threshold": lambda: torch.threshold(p, 0.1, -1.0),
    "prelu": lambda: torch.prelu(x, torch.tensor([0.25])),
    "pixel_shuffle": lambda: torch.pixel_shuffle(w.reshape(1, 12, 3, 3), 2),
    "cosine_similarity": lambda: torch.cosine_similarity(p, p.flip(0), 1, 1e-8),
    "pairwise_distance": lambda: torch.pairwise_distance(p, t, 1.0, 1e-6, True),
    "bce_with_logits": lambda: torch.binary_cross_entropy_with_logits(p, t, None, None, 2),
    "bce_with_logits none": lambda: torch.binary_cross_entropy_with_logits(
        p, t, pos_weight=torch.full((5,), 2.0), reduction=0),
    "cosine_embedding_loss": lambda: torch.cosine_embedding_loss(p, t, sign, 0.1, 1),
    "hinge_embedding_loss": lambda: torch.hinge_embedding_loss(p, sign[:, None].expand(4, 5)),
    "kl_div": lambda: torch.kl_div(p.log_softmax(1), t),
    "kl_div sum": lambda: torch.kl_div(p, t.log(), 2, log_target=True),
    "margin_ranking_loss": lambda: torch.margin_ranking_loss(p[:, 0], t[:, 0], sign, 0.2, 0),
    "poisson_nll_loss": lambda: torch.poisson_nll_loss(p, t, True, False, 1e-8, 1),
    "triplet_margin_loss": lambda: torch.triplet_margin_loss(p, t, p.flip(0), 1.0, 2.0, 1e-6,
                                                             True, 1),
    "ctc_loss": lambda: torch.ctc_loss(p.reshape(4, 1, 5).log_softmax(2),
                                       torch.tensor([[1, 2]]), [4], [2], 0, 1, False),
}
for name, call in calls.items():
    torch.manual_seed(1)
    out = call()
    # (squares and absolute values: a normalised output's plain sums cancel to noise)
    grads = torch.autograd.grad(out.pow(2).sum(), [x, w, b, seq, emb, p], allow_unused=True)
    print(name, tuple(out.shape), out.grad_fn and out.grad_fn.name(), out is x,
          out.pow(2).sum().item())
    print([None if g is None else round(g.abs().sum().item(), 3) for g in grads])
for code in (0, 1, 2, 3, -1):  # (left out: none, as torch's binding reads it; 3: none too)
    print(code, torch.kl_div(p, t, code).shape, torch.hinge_embedding_loss(p, t, 1.0, code).shape)
print(torch.kl_div(p, t).shape, torch.ctc_loss(p.reshape(4, 1, 5).log_softmax(2),
                                               torch.tensor([[1, 2]]), [4], [2]).shape)
'''


def test_atens_names_for_functionals_ops_run_as_torchs(tmp_path):
    assert_playground_prints_as_torch_within(CALLS, tmp_path, 1e-5)
