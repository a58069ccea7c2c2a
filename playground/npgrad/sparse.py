"""``torch.sparse``: products and sums of sparse COO tensors (their values kept dense,
_sparse.py; what autograd records of them, _sparse_ops.py)."""

from __future__ import annotations

from ._linalg import mm as _mm
from ._missing import missing_attribute
from ._sparse_ops import sparse_addmm as addmm
from ._sparse_ops import sparse_mm
from ._sparse_ops import sparse_sum as sum  # noqa: A001 - torch's name
from ._tensor import Tensor


def mm(mat1: Tensor, mat2: Tensor, reduce: str = "sum") -> Tensor:
    """A sparse matrix times a dense one: torch's SparseAddmmBackward0 (other pairs: mm's)."""
    if reduce != "sum":
        raise NotImplementedError(f"torch.sparse.mm with reduce={reduce!r} is not in the "
                                  "built-in NumPy engine; switch the engine to torch")
    made = sparse_mm(mat1, mat2)
    return _mm(mat1, mat2) if made is None else made


__all__ = ["addmm", "mm", "sum"]
__getattr__ = missing_attribute("torch.sparse")
