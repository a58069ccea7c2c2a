"""Adaptive max pooling, Lp pooling and pairwise distances of rows on npgrad against real
torch, run here: values, indices, gradients, second derivatives (and torch's refusal of
pdist's), modules' reprs and torch's errors."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 5, 7, requires_grad=True)
for size in ((2, 3), (5, 7), (3, None), 4, (1, 1)):
    y, i = F.adaptive_max_pool2d(x, size, return_indices=True)
    print(y.shape, y.grad_fn.name(), i[0, 0])
    y.sum().backward()
print(x.grad[0, 0])
g, = torch.autograd.grad(F.adaptive_max_pool2d(x, (2, 3)).pow(2).sum(), x, create_graph=True)
print(g.grad_fn.name(), torch.autograd.grad(g.pow(2).sum(), x)[0].sum())
s = torch.randn(3, 8, requires_grad=True)
print(F.adaptive_max_pool1d(s, 3), torch.nn.AdaptiveMaxPool1d(3, True)(s)[1],
      torch.adaptive_max_pool1d(s, 2))
print(F.adaptive_max_pool2d(x[0], 2).shape, torch.nn.AdaptiveMaxPool2d((2, 2)))
for p in (1, 2, 3.5):
    s.grad = None
    y = F.lp_pool1d(s.abs().unsqueeze(0), p, 3, 2)
    y.sum().backward()
    print(y, s.grad)
print(F.lp_pool2d(x, 2, (2, 3)).sum(), torch.nn.LPPool2d(2, 3, stride=2), torch.nn.LPPool1d(1.5, 2))
r = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
for p in (0, 1, 1.5, 2, 3, float("inf")):
    r.grad = None
    d = F.pdist(r, p)
    d.pow(2).sum().backward()
    print(p, d, r.grad)
g, = torch.autograd.grad(torch.pdist(r).pow(2).sum(), r, create_graph=True)
print(g.grad_fn.name())
for bad in ("torch.autograd.grad(g.sum(), r)", "F.pdist(r[0])", "F.pdist(r, -1)",
            "F.adaptive_max_pool2d(r[0], 2)"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_more_pooling_prints_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


MAX_POOL_PADDING = r"""
import torch
import torch.nn.functional as F
for args in [dict(kernel_size=3, padding=2), dict(kernel_size=(3, 5), padding=(1, 3)),
             dict(kernel_size=3, padding=2, dilation=2), dict(kernel_size=2, padding=1),
             dict(kernel_size=(3, 4), padding=(1, 2), dilation=(1, 3))]:
    try:
        print(F.max_pool2d(torch.ones(1, 1, 8, 8), **args).shape)
    except RuntimeError as e:
        print(e)
for args in [dict(kernel_size=3, padding=2), dict(kernel_size=4, padding=2)]:
    try:
        print(F.max_pool1d(torch.ones(1, 1, 8), **args).shape)
    except RuntimeError as e:
        print(e)
try:
    torch.nn.MaxPool2d(2, padding=2)(torch.ones(1, 4, 4))
except RuntimeError as e:
    print(e)
"""


def test_max_pooling_refuses_torchs_paddings_with_its_messages(tmp_path):
    assert_playground_prints_as_torch(MAX_POOL_PADDING, tmp_path)
