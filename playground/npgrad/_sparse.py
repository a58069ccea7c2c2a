"""Sparse COO tensors (torch.sparse_coo_tensor, Tensor.to_sparse) as the tutorials use them:
a graph's adjacency multiplied into dense features. Such a tensor is a Tensor whose values
are also kept dense, so that mm, spmm, @ and + compute with it as torch does (the zeros add
nothing); its COO parts (indices in the order given, values) are kept beside them for
layout, indices(), values(), _nnz(), coalesce() and printing. Arithmetic with numbers, dense
tensors and other sparse tensors keeps it sparse as torch does (_sparse_arithmetic.py); what
other ops make of it is a dense tensor: where torch's result would be sparse (sparse.t(),
clone, deepcopy), the values are the same and the layout is strided."""

from __future__ import annotations

import numpy as np

from . import _dtype as dtypes
from ._bindings import bind_function, bind_method
from ._deprecations import warn_once
from ._tensor import SparseTensor, Tensor
from ._type_info import TorchConstant


class layout(TorchConstant):
    """``torch.strided`` and ``torch.sparse_coo``."""

    __module__ = "torch"


strided = layout("strided")
sparse_coo = layout("sparse_coo")


class COO:
    """A sparse tensor's coordinates (sparse dims × nnz, int64) and values, as given;
    ``contiguous``: whether torch's values would be (a sum of two sparse tensors merges
    their rows only when both are: _sparse_grads.sparse_sum_of)."""

    __slots__ = ("indices", "values", "coalesced", "contiguous")

    def __init__(self, indices: np.ndarray, values: np.ndarray, coalesced: bool,
                 contiguous: bool = True) -> None:
        self.indices, self.values, self.coalesced = indices, values, coalesced
        self.contiguous = contiguous


def parts(tensor: Tensor) -> COO | None:
    return tensor.__dict__.get("_coo")


def with_parts(made: Tensor, coo: COO) -> Tensor:
    """``made`` (dense values) as a sparse tensor of ``coo``."""
    made.__dict__["_coo"] = coo
    if made.__class__ is Tensor:
        made.__class__ = SparseTensor
    return made


def _sparse(dense: np.ndarray, coo: COO, requires_grad: bool = False) -> Tensor:
    made = with_parts(Tensor._make(dense), coo)
    if requires_grad:
        made.requires_grad_(True)
    return made


def dense_of(coo: COO, shape: tuple) -> np.ndarray:
    """The dense sum of a sparse tensor's rows, one after another, as torch adds them."""
    dense = np.zeros(shape, coo.values.dtype)
    np.add.at(dense, tuple(coo.indices), coo.values)
    return dense


def warn_invariants_off() -> None:
    """torch's warning, once a process, when a sparse tensor is made without saying whether
    to check it (by the script, or inside torch: Adagrad's sparse step)."""
    warn_once("sparse invariants off")


def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None,
                      requires_grad: bool = False, check_invariants=None,
                      is_coalesced=None) -> Tensor:
    """A sparse tensor holding ``values`` at the columns of ``indices``; duplicates add up."""
    if check_invariants is None:
        warn_invariants_off()
    where = np.asarray(getattr(indices, "_data", indices), np.int64)
    where = where.reshape(1, -1) if where.ndim == 1 else where
    if not isinstance(values, Tensor):  # (Python numbers: torch.tensor's dtypes)
        from ._factories import tensor

        values = tensor(values)
    target = values._data.dtype if dtype is None else dtype.numpy
    if values._rg and target != values._data.dtype:  # (ToCopyBackward0 in the graph, as torch)
        values = values.to(dtype)
    given = values._data.astype(target)
    shape = tuple(size) if size is not None else tuple(int(row.max()) + 1 if row.size else 0
                                                      for row in where)
    coo = COO(where, given, bool(is_coalesced))
    if values._rg:  # recorded (where grad mode is on); requires_grad then changes nothing
        from ._sparse_ops import constructed

        return constructed(dense_of(coo, shape), values, coo)
    return _sparse(dense_of(coo, shape), coo, requires_grad)


def to_sparse(self: Tensor, sparse_dim=None, *, layout=None) -> Tensor:
    """The tensor's non-zeros in row-major order (coalesced), as torch's to_sparse (a CSR
    matrix with ``layout=torch.sparse_csr``)."""
    from . import _sparse_csr

    if layout is not None and layout is not sparse_coo:
        return _sparse_csr.to_sparse_csr(self)
    if _sparse_csr.csr_parts(self) is not None:
        return _sparse_csr.as_coo(self)
    if parts(self) is not None:
        return self
    if self._rg:
        raise NotImplementedError("to_sparse of a tensor that requires grad is not in the "
                                  "built-in NumPy engine; switch the engine to torch")
    where = np.array(np.nonzero(self._data), np.int64).reshape(self._data.ndim, -1)
    return _sparse(self._data.copy(), COO(where, self._data[tuple(where)], True))


def _layout(self: Tensor) -> layout:
    if parts(self) is not None:
        return sparse_coo
    from ._sparse_csr import csr_parts, sparse_csr

    return sparse_csr if csr_parts(self) is not None else strided


def _coo_of(self: Tensor, what: str) -> COO:
    found = parts(self)
    if found is None:
        from ._sparse_csr import layout_name

        raise RuntimeError(f"{what} expected sparse coordinate tensor layout but got "
                           f"{layout_name(self)}")
    return found


def _nnz(self: Tensor) -> int:
    csr = self.__dict__.get("_csr")
    return (csr or _coo_of(self, "_nnz")).values.shape[0]


def _indices(self: Tensor) -> Tensor:
    return Tensor._make(_coo_of(self, "indices").indices)


def indices(self: Tensor) -> Tensor:
    if not _coo_of(self, "indices").coalesced:
        raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call "
                           ".coalesce() first")
    return _indices(self)


def sparse_repr(tensor: Tensor, suffixes: list[str]) -> str:
    """torch's printing of a sparse tensor: its indices and values, then size and nnz (and
    its autograd ``suffixes``)."""
    from ._printing import _add_suffixes, array_text

    coo = parts(tensor)
    inner = [f"indices={array_text(coo.indices, len('tensor(indices='))}",
             f"values={array_text(coo.values, len('       values='))}"]
    dtype = dtypes.from_numpy_dtype(tensor._data.dtype)
    shown = [f"size={tuple(tensor._data.shape)}", f"nnz={coo.values.shape[0]}"]
    if dtype not in (dtypes.get_default_dtype(), dtypes.int64, dtypes.bool):
        shown.append(f"dtype={dtype!r}")
    shown.append("layout=torch.sparse_coo")
    return _add_suffixes("tensor(" + ",\n       ".join(inner), [*shown, *suffixes],
                         len("tensor("), force_newline=True)


def _install() -> None:
    for name, method in (("to_sparse", to_sparse), ("to_sparse_coo", to_sparse),
                         ("indices", indices), ("_indices", _indices), ("_nnz", _nnz)):
        bind_method(name, method)
    bind_method("layout", property(_layout))
    bind_method("is_sparse", property(lambda self: parts(self) is not None))
    bind_method("is_coalesced", lambda self: _coo_of(self, "is_coalesced").coalesced)
    bind_function("sparse_coo_tensor", sparse_coo_tensor)
    from ._linalg import mm

    bind_function("spmm", mm)


_install()
