"""``torch.sparse``: products with sparse COO tensors (their values kept dense, _sparse.py)."""

from __future__ import annotations

from ._linalg import mm as _mm
from ._missing import missing_attribute
from ._tensor import Tensor


def mm(mat1: Tensor, mat2: Tensor, reduce: str = "sum") -> Tensor:
    """A sparse matrix times a dense one (or two sparse): torch's MmBackward0."""
    if reduce != "sum":
        raise NotImplementedError(f"torch.sparse.mm with reduce={reduce!r} is not in the "
                                  "built-in NumPy engine; switch the engine to torch")
    return _mm(mat1, mat2)


__all__ = ["mm"]
__getattr__ = missing_attribute("torch.sparse")
