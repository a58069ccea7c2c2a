"""torch.linalg's LU factorisation on npgrad against real torch, run here: lu_factor (packed,
1-based pivots, column-major), lu (P, L, U), lu_unpack, lu_solve (and its adjoint), the
deprecated torch.lu, batches and tall matrices, with the gradients through each."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
torch.manual_seed(0)
A = torch.tensor([[2.0, 1.0, 1.0], [4.0, -6.0, 0.0], [-2.0, 7.0, 2.0]], dtype=torch.float64,
                 requires_grad=True)
LU, pivots = torch.linalg.lu_factor(A)
print(LU, pivots, type(LU.grad_fn).__name__, LU.stride())
P, L, U = torch.linalg.lu(A)
print(P, L, U, type(L.grad_fn).__name__)
print(torch.allclose(P @ L @ U, A))
(LU * torch.arange(9.0, dtype=torch.float64).view(3, 3)).sum().backward()
print(A.grad)
A.grad = None
(L.sum() + (U ** 2).sum()).backward()
print(A.grad)
A.grad = None
B = torch.tensor([[1.0, 0.5], [2.0, -1.0], [0.0, 3.0]], dtype=torch.float64, requires_grad=True)
LU, pivots = torch.linalg.lu_factor(A)
X = torch.linalg.lu_solve(LU, pivots, B)
print(X, type(X.grad_fn).__name__, torch.allclose(A @ X, B))
X.pow(2).sum().backward()
print(A.grad, B.grad)
print(torch.linalg.lu_solve(LU, pivots, B, adjoint=True))
P2, L2, U2 = torch.lu_unpack(LU, pivots)
print(torch.allclose(P2 @ L2 @ U2, A), type(L2.grad_fn).__name__)
R = torch.randn(4, 3)
print(torch.linalg.lu(R), torch.linalg.lu_factor(torch.randn(2, 3, 3))[1])
print(torch.linalg.lu_factor_ex(A.detach()).info)
"""


def test_lu_factorisations_are_torchs(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
