"""What autograd records of sparse COO tensors, as torch does: to_dense (ToDenseBackward0),
coalesce and values (CoalesceBackward0, ValuesBackward0), torch.sparse.sum (SparseSumBackward0,
or a sum of the values) and torch.sparse.mm/addmm (SparseAddmmBackward0). Their gradients for
the sparse tensor are sparse (_sparse_grads.SparseGradient), at its coalesced positions."""

from __future__ import annotations

import numpy as np

from . import _sparse
from ._bindings import bind_method
from ._formula_kit import Kit
from ._missing import MISSING_HINT
from ._recording import output
from ._sparse_grads import SparseGradient, sparse_gradient
from ._tensor import Tensor, _wrap_dim


def coalesced_positions(tensor: Tensor) -> np.ndarray:
    """The sparse tensor's distinct coordinates (sparse dims × n), sorted as coalesce sorts."""
    coo = _sparse.parts(tensor)
    if coo.coalesced or not coo.indices.size:
        return coo.indices
    sparse_shape = tensor._data.shape[:len(coo.indices)]
    flat = np.unique(np.ravel_multi_index(tuple(coo.indices), sparse_shape))
    return np.array(np.unravel_index(flat, sparse_shape), np.int64).reshape(len(coo.indices), -1)


def _with_coo(made: Tensor, where: np.ndarray, coalesced: bool) -> Tensor:
    return _sparse.with_parts(made, _sparse.COO(where, made._data[tuple(where)], coalesced))


def constructed(dense: np.ndarray, values: Tensor, coo: _sparse.COO) -> Tensor:
    """torch.sparse_coo_tensor of ``values`` that require grad, recorded as torch records it
    (SparseCooTensorWithDimsAndTensorsBackward0)."""
    made = output("sparse_coo_tensor", dense, (values,), (coo.indices,))
    return _sparse.with_parts(made, coo)


def to_dense(self: Tensor, dtype=None, *, masked_grad=None) -> Tensor:
    if _sparse.parts(self) is None:
        if "_csr" in self.__dict__:  # (a CSR matrix: its values, kept dense)
            return Tensor._make(self._data.copy() if dtype is None else
                                self._data.astype(dtype.numpy))
        return self
    data = self._data.copy() if dtype is None else self._data.astype(dtype.numpy)
    return output("to_dense", data, (self,), (coalesced_positions(self),))


def coalesce(self: Tensor) -> Tensor:
    """The same values with their coordinates sorted and duplicates summed (itself, when it
    is coalesced already)."""
    coo = _sparse._coo_of(self, "coalesce")
    if coo.coalesced:
        return self
    made = output("sparse_coalesce", self._data, (self,), ())
    return _with_coo(made, coalesced_positions(self), True)


def _values(self: Tensor) -> Tensor:
    coo = _sparse._coo_of(self, "values")
    return output("sparse_values", coo.values, (self,), (self._data.shape, coo.indices))


def values(self: Tensor) -> Tensor:
    if "_csr" in self.__dict__:
        from ._sparse_csr import csr_values

        return csr_values(self)
    if not _sparse._coo_of(self, "values").coalesced:
        raise RuntimeError("Cannot get values on an uncoalesced tensor, please call "
                           ".coalesce() first")
    return _values(self)


def sparse_sum(input: Tensor, dim=None, dtype=None) -> Tensor:
    """``torch.sparse.sum``: of everything, the coalesced values' sum (SumBackward0); over
    ``dim``, SparseSumBackward0, sparse while sparse dimensions remain."""
    if dim is None:
        total = values(coalesce(input))
        return total.sum() if dtype is None else total.sum(dtype=dtype)
    coo = _sparse._coo_of(input, "coalesce")
    data = input._data if dtype is None else input._data.astype(dtype.numpy)
    dims = tuple(sorted({_wrap_dim(d, data.ndim) for d in
                         (dim if isinstance(dim, list | tuple) else (dim,))}))
    where = coalesced_positions(input)
    kept = [d for d in range(len(coo.indices)) if d not in dims]
    made = output("sparse_sum", np.asarray(data.sum(axis=dims)), (input,),
                  (data.shape, dims, where, bool(kept)))
    if not kept:  # every sparse dimension summed: a dense result
        return made
    remaining = np.unique(where[kept], axis=1) if where.size else where[kept]
    return _with_coo(made, remaining.astype(np.int64), True)


def sparse_addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * input + alpha * (mat1 @ mat2)`` of a sparse (or dense) mat1 and a dense mat2."""
    if _sparse.parts(mat2) is not None:
        raise NotImplementedError(f"torch.sparse.addmm of a sparse mat2 is not {MISSING_HINT}")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x"
                           f"{mat1.shape[1]} and {mat2.shape[0]}x{mat2.shape[1]})")
    product = mat1._data @ mat2._data
    product = product if alpha == 1 else product * product.dtype.type(alpha)
    start = input._data if beta == 1 else input._data * input._data.dtype.type(beta)
    where = None if _sparse.parts(mat1) is None else coalesced_positions(mat1)  # (None: dense)
    return output("sparse_addmm", np.asarray(start + product), (input, mat1, mat2),
                  (mat1, mat2, where, beta, alpha))


def sparse_mm(mat1: Tensor, mat2: Tensor) -> Tensor | None:
    """A sparse times a dense matrix as torch.sparse.mm records it (its ``self``: zeros that
    need no gradient); None for the pairs it does not treat so."""
    if _sparse.parts(mat1) is None or _sparse.parts(mat2) is not None:
        return None
    zeros = Tensor._make(np.zeros((mat1.shape[0], mat2.shape[1]), mat2._data.dtype))
    return sparse_addmm(zeros, mat1, mat2)


# ----- the formulas' helpers (the kit's) -----------------------------------------------------
def _arrays_only(grad) -> np.ndarray:
    if not isinstance(grad, np.ndarray | np.generic):  # create_graph: formulas on tensors
        raise NotImplementedError(f"a second derivative through a sparse tensor is not "
                                  f"{MISSING_HINT}")
    return np.asarray(grad).view(np.ndarray)


def _sparse_gradient(shape, where: np.ndarray, values: np.ndarray,
                     coalesced: bool) -> SparseGradient:
    return sparse_gradient(shape, (_sparse.COO(  # (an expanded sum's values: not contiguous)
        where, values, coalesced, bool(values.flags.c_contiguous)),))


def sparse_at(k, grad, where, coalesced):
    """A dense gradient kept at the sparse tensor's positions only (all of it: a dense one's)."""
    if where is None:
        return grad
    dense = _arrays_only(grad)
    return _sparse_gradient(dense.shape, where, dense[tuple(where)], coalesced)


def sparse_from_values(k, grad, shape, where):
    """values()'s gradient: the values' gradients at their coordinates."""
    return _sparse_gradient(shape, where, _arrays_only(grad), True)


def sparse_values_at(k, grad, where):
    """The constructor's values' gradient: the (sparse or dense) gradient at each value's
    coordinates, a row of the dense dimensions each."""
    return np.ascontiguousarray(_arrays_only(grad)[tuple(where)])


def sparse_sum_grad(k, grad, shape, dims, where, sparse_result):
    """Each position's share of the sum's gradient: the gradient at what it was summed into
    (a sparse result's gradient must be sparse, as torch's kernel checks)."""
    if sparse_result and not isinstance(grad, SparseGradient):
        raise RuntimeError("_sparse_sum_backward_cpu: expected grad_ Tensor to be sparse, but "
                           "got dense")
    spread = np.broadcast_to(np.expand_dims(_arrays_only(grad), dims), shape)
    return _sparse_gradient(shape, where, spread[tuple(where)], False)


for _helper in (sparse_at, sparse_from_values, sparse_sum_grad, sparse_values_at):
    setattr(Kit, _helper.__name__, _helper)
for _name, _method in (("to_dense", to_dense), ("coalesce", coalesce), ("values", values),
                       ("_values", _values)):
    bind_method(_name, _method)
