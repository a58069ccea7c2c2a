"""The gamma function's family and torch.special's names on npgrad against real torch, run
here: lgamma, digamma, polygamma (trigamma, and Hurwitz's zeta past it), mvlgamma and zeta, in
float32 and float64, at poles, infinities and NaN, with first and second derivatives."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import torch

x = torch.linspace(-2.7, 6, 7, dtype=torch.float64, requires_grad=True)
special = torch.special
for function in (special.gammaln, special.psi, special.digamma,
                 lambda v: special.polygamma(2, v), special.expit):
    y = function(x)
    print(y, torch.autograd.grad(y.sum(), x)[0])
print(special.erfinv(x.tanh()), special.multigammaln(torch.tensor([3.0, 4.5]), 3),
      special.zeta(torch.tensor([2.0, 3.0]), 1.0))
x32 = torch.linspace(-4.5, 40, 9)
print(torch.lgamma(x32), torch.digamma(x32), torch.polygamma(1, x32),
      torch.polygamma(4, x32.abs() + 0.1))
print(torch.digamma(torch.tensor([0.0, -0.0, -2.0, float("inf"), float("nan")])),
      torch.lgamma(torch.tensor([0.0, -1.0, float("-inf")])))
a = torch.tensor([1.5, 2.5], requires_grad=True)
g, = torch.autograd.grad(torch.lgamma(a).sum(), a, create_graph=True)
print(g, torch.autograd.grad(g.sum(), a))
print(torch.mvlgamma(torch.tensor([1.5, 2.5, 0.2]), 4))  # (torch 2.13 checks no domain)
for bad in ("torch.polygamma(-1, a)", "torch.mvlgamma(a, 0)"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_the_gamma_family_prints_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
