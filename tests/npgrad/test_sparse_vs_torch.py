"""Sparse COO tensors as graph tutorials use them: made by sparse_coo_tensor (duplicates,
indices in any order) and to_sparse, printed, coalesced, multiplied into dense tensors
(spmm, torch.sparse.mm, @) with gradients for the dense side, as python with real torch
prints them."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SPARSE = '''import torch

d = torch.diag(torch.tensor([1., 2., 0.], dtype=torch.float64)).to_sparse()
print(d)
print(torch.diag(torch.tensor([1., 2., 0.])).to_sparse().requires_grad_())
print(torch.zeros(2, 2).to_sparse(), torch.ones(3).to_sparse())
x = torch.tensor([[0., 1.5], [2., 0.]]).to_sparse()
print(x.indices(), x.values(), x.is_coalesced(), x.to_dense(), x._nnz())
s = torch.sparse_coo_tensor(torch.tensor([[1, 0, 1], [0, 1, 0]]), torch.tensor([3., 4., 5.]),
                            (2, 2), check_invariants=True)
print(s, s.is_coalesced(), s._nnz())
print(s.coalesce(), s.to_dense())
try:
    s.indices()
except RuntimeError as error:
    print(error)
w = torch.randn(2, 3, generator=torch.Generator().manual_seed(0), requires_grad=True)
y = torch.spmm(x, w)
print(y, y.grad_fn.name(), (x @ w).grad_fn.name(), torch.sparse.mm(x, w).layout)
y.sum().backward()
print(w.grad)
print((torch.eye(2) + x).layout, torch.eye(2) + s, x.layout, torch.ones(2).layout, x.is_sparse)
print(torch.sparse_coo, torch.strided, x.dtype, x.shape)
print(torch.sparse_coo_tensor([[0, 2]], [1., 2.], dtype=torch.int64, check_invariants=False))
try:
    torch.ones(2).indices()
except RuntimeError as error:
    print(error)
'''


def test_sparse_coo_tensors_print_and_multiply_as_torchs(tmp_path):
    assert_playground_prints_as_torch(SPARSE, tmp_path)
