"""Forward-mode AD through ops with several outputs, against torch run here: the
factorizations (qr, svd, eigh, eig, lu, lu_factor, slogdet, cholesky with a tangent that is not
symmetric, lstsq; lstsq's and solve's refusal of mixed dtypes), the statistics and extremes
that come in pairs (std_mean, var_mean, aminmax), split's pieces of a tensor that requires
grad, and torch's refusal of an LSTM's oneDNN layer (a projection, off oneDNN, has tangents)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPTS = {
    "factorizations": r'''
import torch
import torch.autograd.forward_ad as fwAD
torch.set_printoptions(precision=6)
torch.manual_seed(0)
A = torch.randn(2, 4, 4, dtype=torch.float64)
S = A @ A.mT + torch.eye(4, dtype=torch.float64)
T = torch.randn(2, 4, 4, dtype=torch.float64)
B = torch.randn(2, 4, 3, dtype=torch.float64)
CASES = [("qr", torch.linalg.qr, A), ("svd", lambda m: torch.linalg.svd(m, full_matrices=False), A),
         ("eigh", torch.linalg.eigh, S), ("eig", torch.linalg.eig, A),
         ("lu", torch.linalg.lu, A), ("lu_factor", torch.linalg.lu_factor, A),
         ("slogdet", torch.linalg.slogdet, A), ("cholesky", torch.linalg.cholesky, S),
         ("cholesky upper", lambda m: torch.linalg.cholesky(m, upper=True), S),
         ("cholesky_ex", torch.linalg.cholesky_ex, S), ("svdvals", torch.linalg.svdvals, A),
         ("eigvalsh", torch.linalg.eigvalsh, S),
         ("lstsq", lambda m: torch.linalg.lstsq(m, B.to(m.dtype)), A)]

def tangents(name, f, a, dtype):
    """The tangents of f's floating outputs; eigenvectors' with LAPACK's free sign of each
    column taken out (MKL's and OpenBLAS's choose differently)."""
    with fwAD.dual_level():
        outs = f(fwAD.make_dual(a.to(dtype), T.to(dtype)))
        outs = outs if isinstance(outs, tuple) else (outs,)
        found = []
        for out in outs:
            if out.is_floating_point() or out.is_complex():
                primal, tangent = fwAD.unpack_dual(out)
                if name == "eig":
                    tangent = tangent.abs()
                elif name == "eigh" and out.ndim == 3:
                    tangent = tangent * primal[..., :1, :].sign()
                found.append(tangent)
        return found

for name, f, a in CASES:
    wide = tangents(name, f, a, torch.float64)
    narrow = tangents(name, f, a, torch.float32)
    print(name, *wide)
    # float32: LAPACK's rounding differs between MKL and OpenBLAS; near the float64 answer
    print(name, [None if t is None else torch.allclose(t.double(), w, rtol=1e-3, atol=1e-4)
                 for t, w in zip(narrow, wide)])
for solve in (torch.linalg.lstsq, torch.linalg.solve, torch.linalg.solve_ex):
    try:
        solve(A.float(), B)
    except RuntimeError as error:
        print(error)
''',
    "pairs_and_pieces": r'''
import warnings
import torch
import torch.autograd.forward_ad as fwAD
warnings.simplefilter("ignore")  # (where python shows torch's warnings from: torch's files)
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
t = torch.randn(3, 4)
with fwAD.dual_level():
    d = fwAD.make_dual(x.detach(), t)
    for pair in (torch.std_mean(d, 1), torch.var_mean(d), torch.aminmax(d, dim=0),
                 torch.aminmax(d), d.split([1, 2]), d.unbind(1), d.chunk(2, 1)):
        print([fwAD.unpack_dual(p).tangent for p in pair])
    d = fwAD.make_dual(x, t)
    print([p.grad_fn.name() for p in torch.aminmax(d, dim=1)])
    a, b = d.split(2)
    print(fwAD.unpack_dual(b).tangent, b.grad_fn.name())
    (a * 3).sum().backward()
print(x.grad)
for make in (lambda: torch.nn.LSTM(4, 3), lambda: torch.nn.LSTM(4, 3, proj_size=2),
             lambda: torch.nn.GRU(4, 3, bidirectional=True)):
    module = make()
    with fwAD.dual_level():
        try:
            out, _ = module(fwAD.make_dual(x.detach()[:, None], t[:, None]))
            print(out.grad_fn.name(), fwAD.unpack_dual(out).tangent)
        except NotImplementedError as error:
            print(str(error).splitlines()[0])
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_prints_as_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
