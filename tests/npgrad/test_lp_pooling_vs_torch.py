"""F.lp_pool1d/2d/3d and LPPool1d/2d/3d on npgrad against real torch, run here: torch's
composite of average pooling (values, node, gradients, strides, ceil_mode) and, for a norm of
±∞, of max pooling."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch, torch.nn as nn, torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 5, 6, requires_grad=True)
y = F.lp_pool3d(x, 2, 2); print(y.shape, y[0, 0, 0], y.grad_fn.name())
print(torch.autograd.grad(y.sum(), x)[0][0, 0, 0, 0])
print(nn.LPPool3d(3, (2, 2, 3), stride=(1, 2, 2))(x)[1, 2, 0], nn.LPPool3d(2, 2), nn.LPPool3d)
for p in (float("inf"), -float("inf")):
    print(F.lp_pool2d(x[0], p, 2)[0, 0], F.lp_pool1d(x[0, 0], p, 3)[0],
          F.lp_pool3d(x, p, 2)[0, 0, 0], nn.LPPool2d(p, 2)(x[0])[1, 0])
    y = F.lp_pool2d(x[0], p, 2)
    print(y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions if f])
x2 = torch.randn(1, 2, 5, 5, requires_grad=True)
print(F.lp_pool2d(x2, 1.5, 3, stride=1, ceil_mode=True)[0, 0, 0], F.lp_pool1d(x2[0], 2, 2)[0, 0])
"""


def test_lp_pooling_prints_what_torch_prints(tmp_path) -> None:
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
