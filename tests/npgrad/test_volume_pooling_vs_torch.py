"""F.adaptive_max_pool3d and F.max_unpool3d (and their modules) on npgrad against real torch,
run here: values, indices (the last NaN of a box), nodes of the first and second derivative,
reprs and torch's refusals."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 5, 6, 7, dtype=torch.float64, requires_grad=True)
y, i = F.adaptive_max_pool3d(x, (2, None, 3), return_indices=True)
print(y.shape, i[1, 2, 1], y.grad_fn.name(), y[0, 0, 1, :2])
g, = torch.autograd.grad(y.pow(2).sum(), x, create_graph=True)
print(g.grad_fn.name(), [f.name() for f, _ in g.grad_fn.next_functions])
print(torch.autograd.grad(g.sum(), x)[0][0, 0, 0])
print(nn.AdaptiveMaxPool3d(2), nn.AdaptiveMaxPool3d((1, 2, 3), return_indices=True))
print(nn.AdaptiveMaxPool3d(1)(x[0])[2], F.adaptive_max_pool3d_with_indices(x[1], 2)[1][0])
nan = torch.tensor([1., float('nan'), 3., float('nan'), 2.]).view(1, 1, 1, 5)
print(F.adaptive_max_pool3d(nan, 1, True), F.adaptive_max_pool2d(nan[0], 1, True))
print(F.adaptive_max_pool1d(nan[0, 0], 2, True))
p, idx = F.max_pool3d(x, 2, return_indices=True)
u = F.max_unpool3d(p, idx, 2, output_size=x.shape)
print(u.shape, u.grad_fn.name(), u[0, 0, 0, :3])
gu, = torch.autograd.grad(u.pow(2).sum(), p, create_graph=True)
print(gu.grad_fn.name(), gu[0, 1, 0])
unpool = nn.MaxUnpool3d(2)
print(unpool, nn.MaxUnpool3d((2, 1, 2), stride=1), unpool(p, idx, x.shape).shape)
q, qi = F.max_pool3d(x[0], 2, return_indices=True)
print(F.max_unpool3d(q, qi, 2, output_size=x.shape[2:]).shape, F.adaptive_max_pool3d(x[0], 1).shape)
wrong = idx.clone()
wrong[0, 1, 0, 2, 1] = 1000  # (one bad index: torch's threads name one of several as they come)
for bad in [lambda: F.max_unpool3d(p, wrong, 2, output_size=x.shape),
            lambda: F.max_unpool3d(p, idx, 2, output_size=(1, 2)),
            lambda: F.max_unpool3d(p, idx, 2, output_size=(9, 9, 9)),
            lambda: F.adaptive_max_pool3d(torch.randn(3, 4), 2)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
torch.set_num_threads(1)  # (one thread names the last bad index of all; several race)
wrong = idx.clone().view(-1)
wrong[[1, 5, wrong.numel() // 2, -3]] = torch.tensor([-1, 700, 900, 800])
try:
    F.max_unpool3d(p, wrong.view(idx.shape), 2, output_size=x.shape)
except RuntimeError as e:
    print(e)
"""


def test_volume_pooling_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


EMPTY_BATCHES = r"""
import torch, torch.nn.functional as F
x = torch.randn(0, 2, 4, 4, 4, requires_grad=True)
y, i = F.adaptive_max_pool3d(x, 2, return_indices=True)
y.sum().backward()
print(y.shape, x.grad.shape)
p = torch.randn(0, 2, 2, 2, 2, requires_grad=True)
u = F.max_unpool3d(p, torch.zeros(0, 2, 2, 2, 2, dtype=torch.long), 2)
u.sum().backward()
print(u.shape, p.grad.shape)
z = torch.randn(0, 2, 4, 4, requires_grad=True)
F.adaptive_max_pool2d(z, 2).sum().backward()
print(z.grad.shape, F.adaptive_max_pool3d(torch.randn(0, 3, 2, 4), 1).shape)
v = torch.randn(0, 2, 2, 2, 2, requires_grad=True)
for mode in ("trilinear", "nearest"):
    w = F.interpolate(v, scale_factor=2, mode=mode)
    w.sum().backward()
    print(w.shape, v.grad.shape)
for shape in ((1, 2, 0, 4, 4), (2, 3, 0, 4)):
    try:
        F.adaptive_max_pool3d(torch.randn(*shape), 2)
    except RuntimeError as e:
        print(e)
"""


def test_empty_batches_pool_and_resample_as_on_torch(tmp_path) -> None:
    """A batch of none goes through (forward and backward); an empty volume is refused."""
    assert_playground_prints_as_torch(EMPTY_BATCHES, tmp_path)
