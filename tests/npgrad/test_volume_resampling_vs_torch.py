"""F.interpolate of volumes on npgrad against real torch, run here, bit for bit in float32:
trilinear (torch's fused arithmetic where its vector kernels run, its order of adding in
the backward), nearest, nearest-exact and area; and the create_graph gradients of average
pooling, recorded with the input as torch records them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 3, 4, 5, requires_grad=True)
for kw in (dict(scale_factor=2, mode="trilinear"),
           dict(size=(5, 3, 7), mode="trilinear", align_corners=True),
           dict(scale_factor=(1.5, 2, 0.7), mode="trilinear"), dict(scale_factor=2),
           dict(size=(4, 6, 3), mode="nearest"), dict(size=(5, 7, 6), mode="nearest-exact"),
           dict(size=(2, 3, 2), mode="area"),
           dict(scale_factor=(1.5, 2, 0.7), mode="trilinear", recompute_scale_factor=True)):
    y = F.interpolate(x, **kw)
    weights = ((torch.arange(y.numel()) % 7 - 3).float() / 4).view_as(y)
    g, = torch.autograd.grad((y * weights).sum(), x, create_graph=True)
    print(kw, y.shape, y.grad_fn.name(), g.grad_fn.name() if g.grad_fn else None)
    print(y[1, 2, -1, -1], g[0, 1, 1], y.flatten()[:5].tolist(), g.flatten()[-5:].tolist())
    print(y.double().sum().item(), g.double().sum().item())
print(nn.Upsample(scale_factor=2, mode="trilinear")(x).shape, F.interpolate(x[0], 2).shape)
d = torch.randn(1, 1, 2, 3, 2, dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(F.interpolate(d, size=(3, 4, 2), mode="trilinear").pow(2).sum(), d,
                         create_graph=True)
print(g, torch.autograd.grad(g.pow(2).sum(), d))
for bad in (lambda: F.interpolate(x[0], scale_factor=2, mode="trilinear"),
            lambda: F.interpolate(x, scale_factor=2, mode="bilinear"),
            lambda: F.interpolate(x, scale_factor=2, mode="trilinear", antialias=True)):
    try:
        bad()
    except (NotImplementedError, ValueError) as e:
        print(type(e).__name__, e)
for f, shape in ((lambda v: F.adaptive_avg_pool1d(v, 2), (1, 2, 5)),
                 (lambda v: F.adaptive_avg_pool2d(v, 2), (1, 2, 5, 5)),
                 (lambda v: F.adaptive_avg_pool3d(v, 2), (1, 2, 3, 5, 5)),
                 (lambda v: F.avg_pool2d(v, 2), (1, 2, 4, 4)),
                 (lambda v: F.avg_pool3d(v, 2), (1, 2, 4, 4, 4)),
                 (lambda v: F.avg_pool1d(v, 2), (1, 2, 4))):
    v = torch.randn(*shape, requires_grad=True)
    g, = torch.autograd.grad(f(v).sum(), v, create_graph=True)
    print(g.grad_fn.name(), [n.name() if n else None for n, _ in g.grad_fn.next_functions])
"""


def test_volume_resampling_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
