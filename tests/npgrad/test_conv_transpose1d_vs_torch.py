"""nn.ConvTranspose1d and F.conv_transpose1d (strides, padding, output padding, groups,
dilation; batched and not): values, initialisation, printing and gradients, as python with
real torch prints them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

CONV_TRANSPOSE_1D = """import torch
import torch.nn.functional as F
torch.manual_seed(0)
for dt in (torch.float64, torch.float32):
    m = torch.nn.ConvTranspose1d(2, 4, 3, stride=2, padding=1, output_padding=1, groups=2,
                                 dilation=2).to(dt)
    print(m, m.weight.shape, m.weight.flatten()[:4])
    x = torch.randn(2, 2, 5, dtype=dt, requires_grad=True)
    y = m(x)
    print(y.shape, y.grad_fn.name(), y[0, :, :4])
    (y * torch.linspace(-1, 1, y.numel(), dtype=dt).view_as(y)).sum().backward()
    print(x.grad[0], m.weight.grad.flatten()[:6], m.bias.grad)
    print(F.conv_transpose1d(x[0], m.weight, None, 1).shape,
          torch.nn.ConvTranspose1d(3, 2, 2, bias=False))
"""


def test_conv_transpose1d_matches_torch(tmp_path):
    assert_playground_prints_as_torch(CONV_TRANSPOSE_1D, tmp_path)
