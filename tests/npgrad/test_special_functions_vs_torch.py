"""torch.special's own functions on npgrad against real torch, run here: entr, erfcx, ndtr,
ndtri, log_ndtr, xlog1py (tensor and number operands) and the modified Bessel functions i0,
i0e, i1, i1e, in float32 and float64, in their tails, with their gradients."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
S = torch.special
x = torch.tensor([0.5, 1.5, -0.3, 4.0, -7.5, 31.0], dtype=torch.float64, requires_grad=True)
for name in ("entr", "erfcx", "ndtr", "log_ndtr", "i0", "i0e", "i1", "i1e"):
    f = getattr(S, name)
    y = f(x.abs() if name == "entr" else x)
    g, = torch.autograd.grad(y.sum(), x)
    print(name, y, type(y.grad_fn).__name__, g)
p = torch.tensor([1e-10, 0.025, 0.3, 0.5, 0.8, 0.999999], dtype=torch.float64, requires_grad=True)
q = S.ndtri(p)
print(q, type(q.grad_fn).__name__, torch.autograd.grad(q.sum(), p)[0])
y = torch.tensor([0.5, -0.2, 3.0, 0.0], dtype=torch.float64, requires_grad=True)
z = torch.tensor([0.0, 1.0, -0.5, 2.0], dtype=torch.float64, requires_grad=True)
for value in (S.xlog1py(z, y), S.xlog1py(z, 2.0), S.xlog1py(3.0, y)):
    print(value, type(value.grad_fn).__name__,
          torch.autograd.grad(value.sum(), (y, z), allow_unused=True))
print(S.entr(torch.tensor([0., -1., 0.5, float("nan"), float("inf")])))
print(S.erfcx(torch.tensor([-30., -5., 0., 1., 30., 1e4], dtype=torch.float64)))
print(S.ndtri(torch.tensor([0., 1e-300, 0.025, 0.5, 0.975, 1.0, 1.5], dtype=torch.float64)))
print(S.log_ndtr(torch.tensor([-40., -5., 0., 3., 10.], dtype=torch.float64)))
r = torch.tensor([0., 1., 10., -3., 800.], dtype=torch.float64)
print(S.i0(r), S.i1(r), S.i0e(r), S.i1e(r), torch.i0(r), r.i0())
f = torch.linspace(-3, 3, 7)
print(S.ndtr(f), S.i0(f), S.i1e(f), S.erfcx(f), S.log_ndtr(f), S.entr(f.abs()))
"""


def test_torch_specials_own_functions_are_torchs(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
