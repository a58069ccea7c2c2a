"""Layers on npgrad against real torch, run here: reflect, replicate, circular padding,
the padding modules, pixel (un)shuffle, F.pad's errors, instance, group and RMS norm,
Conv1d, MaxPool1d, ceil_mode, padding_mode, bicubic interpolation, and cross_entropy /
nll_loss with weights, ignored targets, K-dimensional inputs and the modules' options."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

SCRIPTS = {
    # (float64: bicubic's float32 sums round otherwise than torch's kernel, last digit)
    "bicubic": """
import torch, torch.nn.functional as F

torch.manual_seed(0)
for dtype in (torch.float64,):
    x = torch.arange(16.0, dtype=dtype).view(1, 1, 4, 4).requires_grad_()
    print(F.interpolate(x, scale_factor=0.5, mode="bicubic", align_corners=False))
    r = torch.randn(2, 3, 5, 4, dtype=dtype, requires_grad=True)
    for kw in (
        {"size": (7, 9)},
        {"scale_factor": 2},
        {"size": (3, 3), "align_corners": True},
        {"scale_factor": 1.5, "align_corners": False},
    ):
        y = F.interpolate(r, mode="bicubic", **kw)
        (g,) = torch.autograd.grad(y.pow(2).sum(), r, create_graph=True)
        print(
            y.grad_fn.name(), y.shape, y[0, 0, 1], g.grad_fn.name(), f"{g.abs().sum():.4f}"
        )
        g.sum().backward()
        print(r.grad[0, 0, 0])
        r.grad = None
print(torch.nn.Upsample(scale_factor=2, mode="bicubic", align_corners=True))
""",
    "padding_and_pixel_shuffle": """
import torch, torch.nn as nn, torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1, 2, 3, 4, requires_grad=True)
for mode in ("reflect", "replicate", "circular"):
    for pad in ((1, 2, 2, 1),):
        y = F.pad(x, pad, mode=mode)
        print(
            mode,
            pad,
            y.shape,
            y.grad_fn.name(),
            [n[0] and n[0].name() for n in y.grad_fn.next_functions],
        )
        (g,) = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
        print("  ", g.grad_fn.name() if mode != "circular" else "", f"{g.abs().sum():.4f}")
x1 = torch.randn(2, 5, requires_grad=True)
print(
    F.pad(x1, (2, 1), mode="reflect").grad_fn.name(),
    F.pad(x1[None], (2, 1), mode="replicate").grad_fn.name(),
)
for m in (
    nn.ZeroPad2d(1),
    nn.ZeroPad2d((1, 0, 2, 1)),
    nn.ConstantPad1d(2, 3.5),
    nn.ConstantPad2d((1, 1, 0, 0), -1),
    nn.ReflectionPad1d(2),
    nn.ReflectionPad2d((1, 2, 0, 1)),
    nn.ReplicationPad1d((0, 3)),
    nn.ReplicationPad2d(1),
    nn.CircularPad2d(1),
    nn.ZeroPad1d(1),
):
    print(m, m(x if "2d" in type(m).__name__ else x[0]).shape)
try:
    F.pad(x, (4, 4), mode="reflect")
except Exception as e:
    print(type(e).__name__, e)
y = nn.PixelShuffle(2)(torch.randn(1, 8, 2, 3, requires_grad=True))
print(
    y.shape, y.grad_fn.name(), nn.PixelUnshuffle(2), F.pixel_unshuffle(y, 2).grad_fn.name()
)
for pad in ((1, 2),):
    for mode in ("reflect", "replicate", "circular"):
        y = F.pad(x[0], pad, mode=mode)
        print(
            mode, y.grad_fn.name(), [n[0] and n[0].name() for n in y.grad_fn.next_functions]
        )
try:
    F.pad(x, (1, 1), mode="reflect")
except Exception as e:
    print(type(e).__name__, str(e)[:80])
shuffle = nn.ChannelShuffle(3)
z = torch.randn(2, 6, 3, requires_grad=True)
out = shuffle(z)
print(shuffle, out[0, :, 0], out.grad_fn.name())
weights = torch.arange(6.0).reshape(1, 6, 1).requires_grad_()
(g,) = torch.autograd.grad(out, z, weights.expand_as(out), create_graph=True)
print(g[0, :, 0], g.grad_fn.name())
for shape, groups in (((4, 4), 2), ((1, 4, 2), 0), ((1, 4, 2), 3)):
    try:
        F.channel_shuffle(torch.ones(shape), groups)
    except RuntimeError as e:
        print(e)
""",
    "padding_errors": """
import torch, torch.nn.functional as F

x = torch.randn(1, 2, 3, 4)
for args in (
    (x, (4, 4, 0, 0), "reflect"),
    (x[0, 0], (4, 4), "reflect"),
    (x, (0, 0, 3, 0), "reflect"),
    (x[0], (1, 5), "reflect"),
    (x, (1,), "reflect"),
    (x, (1, 1, 1), "replicate"),
    (x[0, 0, 0], (1, 1), "replicate"),
    (x, (-1, 1, 0, 0), "reflect"),
    (x, (-1, 1, 0, 0), "replicate"),
    (x, (5, 5, 0, 0), "circular"),
):
    try:
        print(F.pad(*args).shape)
    except Exception as e:
        print(type(e).__name__, e)
""",
    "more_normalization": """
import torch, torch.nn as nn, torch.nn.functional as F

torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    x = torch.randn(2, 4, 3, 3, dtype=dtype, requires_grad=True)
    for m in (
        nn.InstanceNorm2d(4),
        nn.InstanceNorm2d(4, affine=True),
        nn.InstanceNorm2d(4, track_running_stats=True),
        nn.GroupNorm(2, 4),
        nn.GroupNorm(1, 4, affine=False),
        nn.GroupNorm(4, 4, eps=1e-3),
        nn.RMSNorm([3, 3]),
        nn.RMSNorm(3, eps=1e-6),
    ):
        m = m.to(dtype)
        y = m(x)
        (g,) = torch.autograd.grad((y * y * y).sum(), x, create_graph=True)
        (gg,) = torch.autograd.grad(g.pow(2).sum(), x)
        print(
            m,
            y.grad_fn.name(),
            [n[0] and n[0].name() for n in y.grad_fn.next_functions][:3],
            y[0, 1, 0],
            f"{g.abs().sum():.4f} {gg.abs().sum():.5g}",
        )
        params = [p for p in m.parameters()]
        if params:
            loss = (m(x) * torch.arange(36, dtype=dtype).view(4, 3, 3)).sum()
            loss.backward()
            print([p.grad for p in params])
        if getattr(m, "running_mean", None) is not None:
            print(m.running_mean, m.running_var)
    x1 = torch.randn(4, 5, dtype=dtype)
    print(
        nn.InstanceNorm1d(4)(x1)[0],
        F.instance_norm(x1[None]).shape,
        F.group_norm(x, 2).shape,
        F.rms_norm(x, (3,)).grad_fn.name(),
    )
m = nn.InstanceNorm2d(4, track_running_stats=True).eval()
print(m(torch.randn(1, 4, 2, 2))[0, 0])
for bad in (
    "nn.GroupNorm(3, 4)",
    "F.group_norm(torch.randn(1, 3, 2, 2), 2)",
    "nn.InstanceNorm2d(4)(torch.randn(4, 1, 1))",
    "nn.InstanceNorm2d(4)(torch.randn(2, 4))",
    "nn.InstanceNorm2d(3, affine=True)(torch.randn(1, 4, 2, 2))",
    "F.rms_norm(torch.randn(2, 4), [3])",
    "F.group_norm(torch.randn(1, 2), 2)",
):
    try:
        eval(bad)
    except Exception as e:
        print(type(e).__name__, e)
""",
    "conv1d_and_pooling": """
import torch, torch.nn as nn, torch.nn.functional as F

torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    x = torch.randn(2, 4, 9, dtype=dtype, requires_grad=True)
    for m in (
        nn.Conv1d(4, 2, 3),
        nn.Conv1d(4, 6, 2, stride=2, padding=1, dilation=2, groups=2, bias=False),
        nn.Conv1d(4, 3, 3, padding="same"),
        nn.Conv1d(4, 3, 3, padding=2, padding_mode="reflect"),
        nn.MaxPool1d(2),
        nn.MaxPool1d(3, 2, 1, ceil_mode=True),
    ):
        m = m.to(dtype)
        y = m(x)
        (g,) = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
        print(m, y.grad_fn.name(), y.shape, y[0, 0, :3], f"{g.abs().sum():.4f}")
        if isinstance(m, nn.Conv1d):
            y.sum().backward()
            print(m.weight.grad.sum().item() != 0, m.weight.grad[0, 0])
    print(
        F.conv1d(x[0], torch.ones(1, 4, 2, dtype=dtype)).shape,
        F.max_pool1d(x, 2, return_indices=True)[1][0, 0],
    )
    im = torch.randn(1, 2, 7, 7, dtype=dtype, requires_grad=True)
    for k, s, p in ((2, 2, 0), (3, 2, 1), (3, 3, 0), (2, 3, 1)):
        y, i = F.max_pool2d(im, k, s, p, ceil_mode=True, return_indices=True)
        y.sum().backward()
        print(y.shape, i[0, 0, -1], im.grad.sum())
        im.grad = None
    c = nn.Conv2d(2, 2, 3, padding=1, padding_mode="circular", bias=False).to(dtype)
    print(c, c(im).sum())
    c = nn.Conv2d(2, 2, 3, padding=(1, 2), padding_mode="replicate").to(dtype)
    print(c, c(im).shape)
print(nn.MaxPool2d(2, ceil_mode=True)(torch.arange(25.0).view(1, 1, 5, 5)))
""",
    "classification_losses": """
import torch, torch.nn as nn, torch.nn.functional as F

torch.manual_seed(0)
x = torch.zeros(2, 3)
print(nn.CrossEntropyLoss(reduction="sum")(x, torch.tensor([0, 2])))
print(nn.CrossEntropyLoss(reduction="none")(x, torch.tensor([0, 2])))
print(
    nn.CrossEntropyLoss()(x, torch.tensor([0, -100])),
    nn.CrossEntropyLoss(label_smoothing=0.1),
    nn.CrossEntropyLoss(label_smoothing=0.1)(x, torch.tensor([0, 1])),
)
for dtype in (torch.float32, torch.float64):
    x = torch.randn(2, 5, 3, dtype=dtype, requires_grad=True)
    t = torch.tensor([[0, 4, 1], [2, 2, 3]])
    w = torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0], dtype=dtype)
    for kw in (
        {},
        {"reduction": "none"},
        {"reduction": "sum"},
        {"weight": w},
        {"weight": w, "ignore_index": 2},
        {"ignore_index": 4, "reduction": "none"},
    ):
        l = F.cross_entropy(x, t, **kw)
        print(
            kw.get("reduction"),
            l.grad_fn.name(),
            [n[0] and n[0].name() for n in l.grad_fn.next_functions],
            l,
        )
        (g,) = torch.autograd.grad(l.sum(), x)
        print(g[0, :, 0])
    x4 = torch.randn(2, 5, 3, 2, dtype=dtype, requires_grad=True)
    t4 = torch.randint(0, 5, (2, 3, 2))
    for kw in ({}, {"reduction": "none"}, {"weight": w}):
        l = F.nll_loss(x4.log_softmax(1), t4, **kw)
        print(l.grad_fn.name(), l.shape, l.sum())
        (g,) = torch.autograd.grad(l.sum(), x4, create_graph=True)
        print(g[0, :, 0, 0])
    print(
        F.cross_entropy(x[:, :, 0], t[:, 0], weight=w),
        F.nll_loss(x[:, :, 0], t[:, 0], weight=w, reduction="none"),
        F.nll_loss(x[0, :, 0], t[0, 0]),
        nn.NLLLoss(weight=w, reduction="sum")(x[:, :, 0], t[:, 0]),
    )
try:
    F.nll_loss(x[:, :, 0], torch.tensor([0, 1, 2]))
except Exception as e:
    print(type(e).__name__, e)
""",
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_layers_print_what_torch_prints(name, tmp_path):
    """python with real torch against ``playground run`` (the NumPy engine's kernel)."""
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
