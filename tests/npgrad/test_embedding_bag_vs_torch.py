"""nn.EmbeddingBag and F.embedding_bag (mean, sum and max bags; offsets, a 2-d input,
include_last_offset, an empty bag, padding_idx, per_sample_weights): values, printing and
gradients, as python with real torch prints them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

EMBEDDING_BAG = """import torch
import torch.nn.functional as F
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    for mode in ("mean", "sum", "max"):
        padding = 0 if mode != "max" else None
        m = torch.nn.EmbeddingBag(10, 3, mode=mode, padding_idx=padding).to(dt)
        print(m, m.weight[:2])
        text, offsets = torch.tensor([1, 2, 4, 0, 4, 3, 2, 9, 9]), torch.tensor([0, 4, 7, 7])
        y = m(text, offsets)
        print(y, y.grad_fn.name())
        (y * torch.linspace(-1, 1, y.numel(), dtype=dt).view_as(y)).sum().backward()
        print(m.weight.grad[:6])
    w = torch.randn(8, 2, dtype=dt, requires_grad=True)
    psw = torch.rand(6, dtype=dt, requires_grad=True)
    z = F.embedding_bag(torch.tensor([[1, 2, 3], [4, 4, 7]]), w, mode="sum",
                        per_sample_weights=psw.view(2, 3))
    z.pow(2).sum().backward()
    print(z, w.grad, psw.grad)
    y2 = F.embedding_bag(torch.tensor([3, 1, 1, 5]), w, torch.tensor([0, 2, 4]),
                         include_last_offset=True)
    print(y2)
"""


def test_embedding_bag_matches_torch(tmp_path):
    assert_playground_prints_as_torch(EMBEDDING_BAG, tmp_path)
