"""Layers over volumes on npgrad against real torch, run here: F.conv3d and nn.Conv3d
(grouped, strided, padded, dilated, unbatched) with first and second derivatives,
F.max_pool3d, F.avg_pool3d and F.adaptive_avg_pool3d with theirs, the modules' reprs and
torch's errors (float32 sums printed at torch's own precision: the order torch adds them in
is its kernels')."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 4, 5, 6, 5, dtype=torch.float64, requires_grad=True)
w = torch.randn(6, 2, 3, 2, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(6, dtype=torch.float64, requires_grad=True)
y = F.conv3d(x, w, b, stride=(1, 2, 1), padding=1, dilation=(1, 1, 2), groups=2)
print(y.shape, y.grad_fn.name(), f"{y.sum():.10f}")
y.pow(2).sum().backward()
print(f"{x.grad.sum():.8f}", w.grad[0, 0], b.grad)
gx, gw = torch.autograd.grad(F.conv3d(x, w, None, 2, 0, 1, 2).pow(2).sum(), (x, w),
                             create_graph=True)
print(gx.grad_fn.name(), gw.grad_fn.name())
print([f"{t.sum():.6f}" for t in torch.autograd.grad(gx.pow(2).sum() + gw.pow(2).sum(),
                                                             (x, w))])
conv = torch.nn.Conv3d(4, 3, 2, stride=2, padding=(0, 1, 0), bias=False).double()
print(conv, conv(x).shape, conv.weight.shape, conv(x[0]).shape)
v = torch.randn(1, 2, 4, 5, 6, requires_grad=True)
m, i = F.max_pool3d(v, 2, return_indices=True)
print(m.shape, m.grad_fn.name(), i[0, 0, 0])
m.sum().backward()
print(v.grad[0, 0, 0])
print(F.max_pool3d(v, (2, 3, 2), stride=1, padding=1, dilation=(1, 1, 2)).sum(),
      F.max_pool3d(v, 3, 2, ceil_mode=True).shape, torch.nn.MaxPool3d(2, 2))
g, = torch.autograd.grad(F.max_pool3d(v, 2).pow(2).sum(), v, create_graph=True)
print(g.grad_fn.name(), torch.autograd.grad(g.pow(3).sum(), v)[0].sum())
for options in ({}, {"padding": 1}, {"padding": 1, "count_include_pad": False},
                {"divisor_override": 3}, {"stride": (1, 2, 1)}):
    v.grad = None
    a = F.avg_pool3d(v, 2, **options)
    a.pow(2).sum().backward()
    print(a.shape, a.grad_fn.name(), a.sum(), v.grad.sum())
for size in ((1, 1, 1), (2, 3, 4), (3, None, 2), 2):
    v.grad = None
    a = F.adaptive_avg_pool3d(v, size)
    a.pow(2).sum().backward()
    print(a.shape, a.grad_fn.name(), a.sum(), v.grad.sum())
g, = torch.autograd.grad(F.avg_pool3d(v, 2).pow(2).sum(), v, create_graph=True)
print(g.grad_fn.name(), torch.autograd.grad(g.pow(2).sum(), v)[0].sum())
g, = torch.autograd.grad(F.adaptive_avg_pool3d(v, 2).pow(2).sum(), v, create_graph=True)
print(g.grad_fn.name(), torch.autograd.grad(g.pow(2).sum(), v)[0].sum())
print(torch.nn.AvgPool3d(2), torch.nn.AdaptiveAvgPool3d((1, 2, 2)))
for bad in ("F.conv3d(x, w)", "F.max_pool3d(v, 2, padding=2)"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_volume_layers_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


PADDING = """
import torch, torch.nn.functional as F
x2, x3 = torch.randn(1, 1, 8, 8), torch.randn(1, 1, 8, 8, 8)
for bad in ("F.avg_pool2d(x2, (4, 2), 1, (0, 2))", "F.avg_pool2d(x2, (2, 4), 1, (2, 0))",
            "F.avg_pool2d(x2, 3, 1, 2)", "F.avg_pool3d(x3, 3, 1, 2)",
            "F.avg_pool3d(x3, 2, 1, (0, 0, 2))", "F.max_pool3d(x3, 3, 1, 2)",
            "F.max_pool3d(x3, 3, 1, padding=2, dilation=2)",
            "F.max_pool3d(x3, 3, 1, padding=(1, 2, 1), dilation=2)",
            "F.max_pool3d(x3, 3, 1, padding=3, dilation=2)"):
    try:
        print(eval(bad).shape)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_pooling_refuses_too_much_padding_as_torch_does(tmp_path):
    """A side padded past half its (dilated) kernel is named; max_pool3d then checks against
    the plain kernel too, with its own message (depth, width, height)."""
    assert_playground_prints_as_torch(PADDING, tmp_path)
