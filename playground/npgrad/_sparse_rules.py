"""The derivative table's rows for sparse COO tensors (_sparse_ops.py): each gradient that
reaches the sparse tensor is sparse, its values at the tensor's coalesced positions."""

from __future__ import annotations


def sparse_rows(row) -> tuple:
    return (
        # torch.sparse_coo_tensor of values that require grad: each value's gradient is the
        # gradient at its coordinates (a repeated coordinate's whole, for each of its values)
        row("sparse_coo_tensor", "SparseCooTensorWithDimsAndTensorsBackward0", "values",
            "where", "k.sparse_values_at(grad, where)"),
        row("to_dense", "ToDenseBackward0", "self", "where", "k.sparse_at(grad, where, False)"),
        row("sparse_coalesce", "CoalesceBackward0", "self", "", "grad"),
        row("sparse_values", "ValuesBackward0", "self", "shape where",
            "k.sparse_from_values(grad, shape, where)"),
        row("sparse_sum", "SparseSumBackward0", "self", "shape dims where sparse_result",
            "k.sparse_sum_grad(grad, shape, dims, where, sparse_result)"),
        # torch.sparse.mm and torch.sparse.addmm: the sparse matrix's gradient masked to its
        # non-zeros (a dense mat1 @ mat2ᵀ product would fill every position)
        row("sparse_addmm", "SparseAddmmBackward0", "self mat1 mat2", "mat1 mat2 where beta alpha",
            "k.scale(grad, beta)",
            "k.sparse_at(k.scale(k.matmul(grad, k.t(mat2)), alpha), where, False)",
            "k.scale(k.matmul(k.t(mat1), grad), alpha)"),
    )
