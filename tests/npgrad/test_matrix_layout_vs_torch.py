"""Matrices laid out as torch lays them out, against real torch run here: LAPACK's results
(inverse, solve, the factors) lie column by column, which ``stride()`` and ``is_contiguous()``
show and which picks the formula of mm's backward, so a create_graph gradient through a
transposed operand (an nn.Linear's weight, a factor) records torch's ``.t()`` nodes."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import node_names

RESULTS = {
    "inv": "L.inv(A)",
    "inv batched": "L.inv(A.expand(2, 4, 4) + 0)",
    "inv_ex": "L.inv_ex(A).inverse",
    "solve": "L.solve(A, B)",
    "solve a vector": "L.solve(A, B[:, 0])",
    "solve on the right": "L.solve(A, B.mT, left=False)",
    "solve_ex on the right": "L.solve_ex(A.expand(2, 4, 4), B.mT.expand(2, 2, 4), left=False)"
                             ".result",
    "cholesky": "L.cholesky(P)",
    "cholesky upper": "L.cholesky(P, upper=True)",
    "cholesky_ex": "L.cholesky_ex(P).L",
    "cholesky_solve": "torch.cholesky_solve(B, L.cholesky(P))",
    "solve_triangular": "L.solve_triangular(A.triu(), B, upper=True)",
    "solve_triangular on the right": "L.solve_triangular(A.triu(), B.mT, upper=True, left=False)",
    "lstsq": "L.lstsq(A, B).solution",
    "qr": "L.qr(A[:, :3]).Q",
    "qr complete": "L.qr(A[:, :3], mode='complete').R",
    "qr batched": "L.qr(A.expand(2, 4, 4) + 0).Q",
    "eigh": "L.eigh(P).eigenvectors",
    "svd": "L.svd(A[:, :3]).U",
    "svd Vh": "L.svd(A[:, :3], full_matrices=False).Vh",
    "torch.svd V": "torch.svd(A[:, :3]).V",
    "householder_product": "L.householder_product(A, torch.ones(2, dtype=A.dtype))",
    "geqrf": "torch.geqrf(A).a",
}


def _evaluated(module, text: str):
    generator = np.random.default_rng(3)
    A = module.tensor(generator.normal(size=(4, 4)))
    B = module.tensor(generator.normal(size=(4, 2)))
    P = A @ A.mT + module.eye(4, dtype=A.dtype)
    return eval(text, {"torch": module, "L": module.linalg, "A": A, "B": B, "P": P})


@pytest.mark.parametrize("name", list(RESULTS))
def test_a_lapack_result_lies_as_torchs(name, torch, engine):
    expected, actual = (_evaluated(module, RESULTS[name]) for module in (torch, engine))
    assert (actual.stride(), actual.is_contiguous()) == (expected.stride(),
                                                         expected.is_contiguous())


PRODUCTS = {
    "nn.Linear": lambda m, x, w: m.nn.functional.linear(x, w, m.ones(w.shape[0], dtype=x.dtype)),
    "x @ w.T": lambda m, x, w: x @ w.T,
    "x.mT @ x": lambda m, x, w: x.mT @ x @ w,
    "mm with a transposed left": lambda m, x, w: m.mm(w.t(), x.mT),
    "through an inverse": lambda m, x, w: x @ m.linalg.inv(w[:, :3] @ w[:, :3].mT + m.eye(
        3, dtype=x.dtype)),
    "addmm": lambda m, x, w: m.addmm(m.zeros(4, 3, dtype=x.dtype), x, w.mT),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(PRODUCTS))
def test_a_products_second_derivative_records_torchs_nodes(name, dtype, torch, engine):
    generator = np.random.default_rng(len(name))
    values = generator.normal(size=(4, 3)), generator.normal(size=(3, 3))
    found = []
    for module in (torch, engine):
        x, w = (module.tensor(v, dtype=getattr(module, dtype), requires_grad=True)
                for v in values)
        loss = (PRODUCTS[name](module, x, w) ** 2).sum()
        grads = module.autograd.grad(loss, (x, w), create_graph=True)
        (grads[0].sum() + (grads[1] ** 2).sum()).backward()
        found.append(([node_names(g) for g in grads],
                      [t.detach().numpy() for t in (*grads, x.grad, w.grad)]))
    assert found[1][0] == found[0][0]
    tolerance = dict(rtol=1e-4, atol=1e-4) if dtype == "float32" else dict(rtol=1e-10)
    for got, want in zip(found[1][1], found[0][1], strict=True):
        np.testing.assert_allclose(got, want, **tolerance)
