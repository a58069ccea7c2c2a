"""nn.Bilinear and F.bilinear (rows and batches of rows, with and without bias): initial
values, printing, outputs, torch's graph (views around TrilinearBackward0) and the
gradients of both inputs, the weight and the bias, as python with real torch prints them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

BILINEAR = """import torch
import torch.nn.functional as F
torch.manual_seed(0)
for dt in (torch.float64, torch.float32):
    m = torch.nn.Bilinear(3, 2, 4).to(dt)
    print(m, m.weight[0], m.bias)
    x1 = torch.randn(5, 3, dtype=dt, requires_grad=True)
    x2 = torch.randn(5, 2, dtype=dt, requires_grad=True)
    y = m(x1, x2)
    print(y[:2], y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(),
          y.grad_fn.next_functions[0][0].next_functions[0][0].name())
    (y * torch.linspace(-1, 1, 20, dtype=dt).view(5, 4)).sum().backward()
    print(x1.grad[:2], x2.grad[:2], m.weight.grad[0], m.bias.grad)
    z = F.bilinear(torch.randn(2, 3, 3, dtype=dt), torch.randn(2, 3, 2, dtype=dt), m.weight)
    print(z.shape, z.grad_fn.name())
print(torch.nn.Bilinear(2, 2, 1, bias=False))
"""


def test_bilinear_matches_torch(tmp_path):
    assert_playground_prints_as_torch(BILINEAR, tmp_path)
