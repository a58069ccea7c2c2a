"""torch.igamma and torch.igammac (torch.special.gammainc, gammaincc) print what torch prints:
values at the edges of the domain, the gradient for x (and none for a, in torch's words), the
second derivative's nodes, in-place forms, dtypes and refusals (forward-mode AD's too); and
against torch in float64 to 1e-12 where torch computes them exactly (for a > 20 and x near a,
torch's asymptotic series is good to some 1e-9, this engine's series and continued fraction to
1e-14)."""

from __future__ import annotations

import numpy as np
import pytest

import playground.npgrad as pg
from tests.oracle import assert_playground_prints_as_torch

torch = pytest.importorskip("torch")


def test_the_incomplete_gamma_functions_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch('''
import torch
a = torch.tensor([0., 0.5, 1., 2., 5., 30., -1., float('inf'), 3., 0., 2., 100.])
x = torch.tensor([1., 0.5, 2., 0., 4., 25., 1., 3., float('inf'), 0., -1., 101.])
print(torch.igamma(a, x)); print(torch.igammac(a, x))
print(torch.special.gammainc(a.double(), x.double()))
print(torch.special.gammaincc(a.double(), x.double()))
xx = x.clone().requires_grad_()
y = torch.igamma(a, xx); print(y.grad_fn.name()); y.sum().backward(); print(xx.grad)
xx.grad = None; y = torch.igammac(a, xx); print(y.grad_fn.name()); y.sum().backward()
print(xx.grad)
try:
    y = torch.igamma(a.clone().requires_grad_(), x); print(y.grad_fn.name()); y.sum().backward()
except Exception as e: print(type(e).__name__, e)
for f in (lambda: torch.igamma(torch.tensor([1, 2]), torch.tensor([1, 2])),
          lambda: torch.igamma(torch.tensor([1., 2.]), 2.0),
          lambda: torch.igamma(2.0, torch.tensor([1.])),
          lambda: torch.igamma(torch.tensor([1+1j]), torch.tensor([1+1j])),
          lambda: torch.igammac(torch.tensor([1, 2]), torch.tensor([1, 2]))):
    try: print(f())
    except Exception as e: print(type(e).__name__, e)
print(torch.igamma(torch.tensor([1., 2.]), torch.tensor([1, 2])).dtype,
      torch.igamma(torch.tensor([True]), torch.tensor([1.])))
t = torch.tensor([1., 2.]); t.igamma_(torch.tensor([1., 1.])); print(t)
print(torch.tensor([1., 2.]).igammac(torch.tensor([1., 1.])))
print(torch.igamma(torch.tensor(2.), torch.tensor([1., 2.])),
      torch.igamma(torch.tensor(1.5, dtype=torch.float64), torch.tensor([1.])).dtype)
print(torch.igamma(torch.tensor([1., 2.], dtype=torch.float16),
                   torch.tensor([1., 2.], dtype=torch.float16)))
qq = torch.tensor([1., 3.], requires_grad=True)
s = torch.igamma(torch.tensor([1.5, 2.]), qq)
g, = torch.autograd.grad(s.sum(), qq, create_graph=True); print(g, g.grad_fn.name())
g.sum().backward(); print(qq.grad)
w2 = torch.tensor([1.5, 2.]) * 1; xx = torch.tensor([1., 3.], requires_grad=True)
w2.igammac_(xx); print(w2.grad_fn.name()); w2.sum().backward(); print(xx.grad)
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():  # torch has no forward-mode rule for either
    dual = fwAD.make_dual(torch.tensor([1., 3.]), torch.tensor([1., 1.]))
    for f in (lambda: torch.igamma(torch.tensor([1.5, 2.]), dual),
              lambda: torch.igammac(dual, torch.tensor([1.5, 2.]))):
        try: print(fwAD.unpack_dual(f()).tangent)
        except Exception as e: print(type(e).__name__, e)
from torch.func import jacrev, vmap
print(jacrev(lambda t: torch.igamma(torch.tensor([1.5, 2.]), t))(torch.tensor([1., 3.])))
print(vmap(lambda t: torch.igammac(torch.tensor([1.5, 2.]), t))(torch.tensor([[1., 3.], [2., 2.]])))
''', tmp_path)


@pytest.mark.parametrize("op", ["igamma", "igammac"])
def test_float64_values_are_torchs_where_torch_computes_them_exactly(op):
    rng = np.random.default_rng(3)
    a = np.concatenate([rng.uniform(0, 20, 3000), rng.uniform(20, 200, 1000)])
    x = np.concatenate([rng.uniform(0, 60, 3000), a[3000:] * rng.choice([0.3, 1.8], 1000)])
    x[::7] = rng.exponential(1e-3, x[::7].size)  # near zero
    theirs = getattr(torch, op)(torch.from_numpy(a), torch.from_numpy(x)).numpy()
    mine = getattr(pg, op)(pg.tensor(a), pg.tensor(x)).numpy()
    np.testing.assert_allclose(mine, theirs, rtol=1e-12, atol=1e-14)


def test_float64_values_near_a_equal_x_are_torchs_to_its_series_accuracy():
    a = np.linspace(20.5, 400.0, 500)
    x = a * np.linspace(0.8, 1.2, 500)
    theirs = torch.igamma(torch.from_numpy(a), torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(pg.igamma(pg.tensor(a), pg.tensor(x)).numpy(), theirs,
                               rtol=1e-8, atol=1e-9)
