"""torch.linalg.tensorinv and tensorsolve on npgrad against real torch, run here: values,
shapes, ``dims``, torch's errors and the nodes they end in (ReshapeAliasBackward0 after the
inverse, ViewBackward0 after the solve), with gradients."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + """
import torch

A = torch.eye(6).reshape(6, 2, 3) * 2
show('ti', lambda: torch.linalg.tensorinv(A, ind=1).shape)
show('ti2', lambda: torch.linalg.tensorinv(torch.eye(4).reshape(2, 2, 2, 2) * 3)
     .reshape(4, 4).diag())
show('ti bad', lambda: torch.linalg.tensorinv(torch.ones(2, 3), ind=1))
show('ti ind0', lambda: torch.linalg.tensorinv(torch.ones(2, 2), ind=0))
show('ti sing', lambda: torch.linalg.tensorinv(torch.zeros(2, 2), ind=1))
torch.manual_seed(0)
a = torch.eye(2 * 3 * 4).reshape((2 * 3, 4, 2, 3, 4)); b = torch.randn(2 * 3, 4)
show('ts', lambda: torch.linalg.tensorsolve(a, b).shape)
show('ts vals', lambda: torch.allclose(torch.linalg.tensorsolve(a, b), b.reshape(2, 3, 4)))
show('ts dims', lambda: torch.linalg.tensorsolve(
    torch.eye(6).reshape(2, 3, 6).permute(2, 0, 1), torch.ones(6), dims=(0,)).shape)
show('ts dims ok', lambda: torch.linalg.tensorsolve(
    torch.eye(6).reshape(6, 2, 3).permute(1, 2, 0) * 2, torch.ones(2, 3), dims=(0, 1)))
x = torch.eye(4, requires_grad=True)
show('ti grad', lambda: (torch.linalg.tensorinv(x.reshape(2, 2, 2, 2) * 2).sum().backward(),
                         x.grad.sum(),
                         torch.linalg.tensorinv(x.reshape(4, 4) * 1, ind=1).grad_fn)[1:])
y = (torch.eye(6) * 2).reshape(6, 2, 3).requires_grad_()
r = torch.linalg.tensorsolve(y, torch.ones(6))
print(r, r.grad_fn, r.grad_fn.next_functions)
r.sum().backward()
print(y.grad.sum())
"""


def test_tensor_inverses_as_in_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
