"""Sparse embedding gradients on the NumPy engine against torch run here: nn.Embedding(sparse=True)
gives a sparse .grad holding each looked-up row in torch's order (rows of several lookups,
of later backward calls, padding left out), dense and sparse gradients meeting at a leaf,
scale_grad_by_freq, the optimizers that refuse sparse gradients in torch's words, and SGD
and SparseAdam stepping a word2vec-style model bit for bit."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_sparse_gradients_and_the_optimizers_that_take_them(tmp_path):
    assert_playground_prints_as_torch('''
import torch
import torch.nn as nn

torch.manual_seed(0)
emb = nn.Embedding(6, 2, sparse=True)
print(emb)
a = emb(torch.tensor([1, 4, 1]))
b = emb(torch.tensor([[3, 1]]))
(a.sum() * 2 + (b * torch.tensor([1., 3.])).sum()).backward()
print(emb.weight.grad)
emb(torch.tensor([0, 4])).sum().backward()
print(emb.weight.grad, emb.weight.grad.is_sparse, emb.weight.grad.layout)
print(emb.weight.grad.is_coalesced(), emb.weight.grad.coalesce())
print(emb.weight.grad.to_dense())
e2 = nn.Embedding(5, 2, sparse=True, padding_idx=2)
e2(torch.tensor([2, 1, 2])).sum().backward()
print(e2.weight.grad)
e3 = nn.Embedding(5, 2, sparse=True, padding_idx=2)
e3(torch.tensor([2, 2])).sum().backward()
print(e3.weight.grad)
e4 = nn.Embedding(5, 3, scale_grad_by_freq=True)
(e4(torch.tensor([1, 1, 3, 1])) * torch.tensor([0.3, 0.7, 1.1])).sum().backward()
print(e4.weight.grad)
try:
    nn.Embedding(5, 2, sparse=True, scale_grad_by_freq=True)(torch.tensor([1])).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
for name in ["Adam", "AdamW", "RMSprop", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD", "Rprop"]:
    try:
        getattr(torch.optim, name)(emb.parameters(), lr=0.1).step()
    except Exception as e:
        print(name, type(e).__name__, e)
dense = emb.weight.grad
e5 = nn.Embedding(6, 2, sparse=True)
e5.weight.grad = torch.ones(6, 2)
e5(torch.tensor([1, 1])).sum().backward()
print(e5.weight.grad)
e5.weight.grad = None
e5(torch.tensor([5])).sum().backward(retain_graph=True)
loss = e5.weight.sum() * 3
loss.backward()
print(e5.weight.grad)


def train(optimizer_class, steps=3, **kw):
    torch.manual_seed(1)
    emb = nn.Embedding(8, 4, sparse=True)
    ctx = nn.Embedding(8, 4, sparse=True)
    opt = optimizer_class(list(emb.parameters()) + list(ctx.parameters()), **kw)
    for step in range(steps):
        centre = torch.randint(0, 8, (5,))
        context = torch.randint(0, 8, (5,))
        negative = torch.randint(0, 8, (5, 3))
        u, v, n = emb(centre), ctx(context), ctx(negative)
        positive = torch.nn.functional.logsigmoid((u * v).sum(1))
        negative_score = torch.nn.functional.logsigmoid(-(n @ u.unsqueeze(2)).squeeze(2)).sum(1)
        loss = -(positive + negative_score).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, f"{loss.item():.6f}")
    print(emb.weight, ctx.weight)
    print(opt.state[emb.weight] if opt.state else {})


train(torch.optim.SparseAdam, lr=0.05)
train(torch.optim.SparseAdam, lr=0.05, betas=(0.8, 0.9), maximize=True)
train(torch.optim.SGD, lr=0.5)
print(torch.optim.SparseAdam(emb.parameters()))
for bad in [dict(lr=-1), dict(lr=0.0), dict(betas=(1.0, 0.9)), dict(betas=(0.9, -0.1)),
            dict(eps=-1)]:
    try:
        torch.optim.SparseAdam([emb.weight], **bad)
    except ValueError as e:
        print(e)
lin = nn.Linear(2, 2)
lin(torch.ones(2)).sum().backward()
try:
    torch.optim.SparseAdam(lin.parameters()).step()
except RuntimeError as e:
    print(e)
for kw in [dict(weight_decay=0.1)]:
    try:
        torch.optim.SGD(emb.parameters(), lr=0.1, **kw).step()
    except RuntimeError as e:
        print(e)''', tmp_path)


def test_scale_grad_by_freq_divides_each_row_by_its_count(tmp_path):
    assert_playground_prints_as_torch('''
import torch
import torch.nn as nn
torch.manual_seed(0)
for dim in (3, 8, 40):
    e = nn.Embedding(7, dim, scale_grad_by_freq=True, padding_idx=0)
    idx = torch.randint(0, 7, (30,))
    out = e(idx)
    (out * torch.randn(30, dim)).sum().backward()
    print(e.weight.grad.sum(1).tolist())
    print(e.weight.grad[1:3, :5].tolist())''', tmp_path)
