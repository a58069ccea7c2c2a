"""Sparse CSR matrices (Tensor.to_sparse_csr, torch.sparse_csr_tensor) as recommender and
graph code makes them: kept, like the COO tensors of _sparse.py, as dense values with their
compressed rows beside them (crow_indices, col_indices, values) for layout, printing and the
parts' accessors. Products with them compute on the dense values; what other ops make of
them is a dense tensor. Autograd through them is torch's only."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_function, bind_method
from ._deprecations import warn_once
from ._missing import MISSING_HINT
from ._sparse import layout, warn_invariants_off
from ._tensor import Tensor

sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")


class CSR:
    """A matrix's compressed rows: where each row's entries start (rows + 1), their columns
    and values, row by row."""

    __slots__ = ("crow", "col", "values")

    def __init__(self, crow: np.ndarray, col: np.ndarray, values: np.ndarray) -> None:
        self.crow, self.col, self.values = crow, col, values


def csr_parts(tensor: Tensor) -> CSR | None:
    return tensor.__dict__.get("_csr")


def _made(dense: np.ndarray, csr: CSR, requires_grad: bool = False) -> Tensor:
    warn_once("sparse CSR beta")
    made = Tensor._make(dense)
    made.__dict__["_csr"] = csr
    if requires_grad:
        made.requires_grad_(True)
    return made


def to_sparse_csr(self: Tensor, dense_dim=None) -> Tensor:
    """The matrix's non-zeros row by row (a COO tensor's, coalesced)."""
    if csr_parts(self) is not None:
        return self
    if self._rg:
        raise NotImplementedError(f"to_sparse_csr of a tensor that requires grad {MISSING_HINT}")
    if self._data.ndim != 2 or dense_dim:
        raise NotImplementedError(f"to_sparse_csr of a {self._data.ndim}-D tensor (batches, "
                                  f"dense dimensions) {MISSING_HINT}")
    rows, cols = np.nonzero(self._data)
    crow = np.zeros(self._data.shape[0] + 1, np.int64)
    np.add.at(crow, rows + 1, 1)
    csr = CSR(np.cumsum(crow), cols.astype(np.int64), self._data[rows, cols])
    return _made(self._data.copy(), csr)


def sparse_csr_tensor(crow_indices, col_indices, values, size=None, *, dtype=None,
                      device=None, requires_grad: bool = False, check_invariants=None) -> Tensor:
    """A matrix from its compressed rows; its size, where not given, just holds them."""
    from ._factories import tensor

    if check_invariants is None:
        warn_invariants_off()
    crow, col = (np.asarray(getattr(part, "_data", part), np.int64)
                 for part in (crow_indices, col_indices))
    values = values if isinstance(values, Tensor) else tensor(values)
    given = values._data if dtype is None else values._data.astype(dtype.numpy)
    shape = tuple(size) if size is not None else (crow.size - 1, int(col.max(initial=-1)) + 1)
    dense = np.zeros(shape, given.dtype)
    rows = np.repeat(np.arange(crow.size - 1), np.diff(crow))
    np.add.at(dense, (rows, col), given)
    return _made(dense, CSR(crow, col, given), requires_grad)


def _csr_of(self: Tensor, what: str) -> CSR:
    found = csr_parts(self)
    if found is None:
        raise RuntimeError(f"{what} expected sparse row compressed tensor layout but got "
                           f"{layout_name(self)}")
    return found


def layout_name(tensor: Tensor) -> str:
    """The layout as torch's errors name it (Strided, Sparse, SparseCsr)."""
    if csr_parts(tensor) is not None:
        return "SparseCsr"
    return "Sparse" if "_coo" in tensor.__dict__ else "Strided"


def crow_indices(self: Tensor) -> Tensor:
    return Tensor._make(_csr_of(self, "crow_indices").crow)


def col_indices(self: Tensor) -> Tensor:
    return Tensor._make(_csr_of(self, "col_indices").col)


def csr_values(self: Tensor) -> Tensor:
    return Tensor._make(self.__dict__["_csr"].values)


def as_coo(self: Tensor) -> Tensor:
    """``to_sparse()`` of a CSR matrix: its entries as a coalesced COO tensor."""
    from ._sparse import COO, _sparse

    csr = self.__dict__["_csr"]
    rows = np.repeat(np.arange(csr.crow.size - 1), np.diff(csr.crow))
    return _sparse(self._data.copy(), COO(np.stack([rows, csr.col]).astype(np.int64),
                                          csr.values, True))


def csr_repr(tensor: Tensor, suffixes: list[str]) -> str:
    """torch's printing of a CSR matrix: its parts, then size, nnz, layout and autograd's."""
    from ._printing import _add_suffixes, array_text

    csr = tensor.__dict__["_csr"]
    inner = [f"crow_indices={array_text(csr.crow, len('tensor(crow_indices='))}",
             f"col_indices={array_text(csr.col, len('       col_indices='))}",
             f"values={array_text(csr.values, len('       values='))}"]
    dtype = dtypes.from_numpy_dtype(tensor._data.dtype)
    shown = [f"size={tuple(tensor._data.shape)}", f"nnz={csr.values.shape[0]}"]
    if dtype not in (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool):
        shown.append(f"dtype={dtype!r}")
    shown.append("layout=torch.sparse_csr")
    return _add_suffixes("tensor(" + ",\n       ".join(inner), [*shown, *suffixes],
                         len("tensor("))


for _name, _method in (("to_sparse_csr", to_sparse_csr), ("crow_indices", crow_indices),
                       ("col_indices", col_indices)):
    bind_method(_name, _method)
bind_method("is_sparse_csr", property(lambda self: csr_parts(self) is not None))
bind_function("sparse_csr_tensor", sparse_csr_tensor)
