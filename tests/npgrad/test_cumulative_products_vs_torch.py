"""Running products and sums to the last bit, against torch run here: cumprod's values
(torch keeps a float32 running product in float64), its gradient with and without zeros
(torch's O(n) path), its second derivative through zeros (torch's path of omitted products,
ending in CopySlices), and the tangents of cumsum, cumprod and prod (torch's cumprod_jvp and
prod_backward-based jvp, zeros included)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

ROWS = r'''
import torch
torch.manual_seed(0)
def rows(dtype, zeros):
    x = torch.randn(3, 6, dtype=dtype) * 1.3
    for place in [(1, 2), (1, 4), (2, 3), (0, 0)][:zeros]:
        x[place] = 0
    return x
'''

SCRIPTS = {
    "values_and_gradients": ROWS + r'''
for dtype in (torch.float32, torch.float64):
    for zeros in (0, 1, 4):
        x = rows(dtype, zeros).requires_grad_()
        g = torch.randn(3, 6, dtype=dtype)
        for dim in (0, 1):
            y = x.cumprod(dim)
            print(y.tolist())
            print(torch.autograd.grad(y, x, g)[0].tolist())
''',
    "second_derivatives": ROWS + r'''
for dtype in (torch.float32, torch.float64):
    x = rows(dtype, 4).requires_grad_()
    for dim in (0, 1):
        g, = torch.autograd.grad((x.cumprod(dim) ** 2).sum(), x, create_graph=True)
        print(g.tolist(), g.grad_fn.name())
        print(torch.autograd.grad((g * g).sum(), x)[0].tolist())
''',
    "tangents": ROWS + r'''
import torch.autograd.forward_ad as fwAD
for dtype in (torch.float32, torch.float64):
    for zeros in (0, 1, 4):
        x, t = rows(dtype, zeros), torch.randn(3, 6, dtype=dtype)
        with fwAD.dual_level():
            d = fwAD.make_dual(x, t)
            for y in (d.cumprod(1), d.cumprod(0), d.cumsum(1), d.prod(), d.prod(1),
                      d.prod(0, keepdim=True)):
                print(fwAD.unpack_dual(y).tangent.tolist())
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_prints_as_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
