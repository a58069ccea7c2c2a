"""Sparse gradients, as ``nn.Embedding(sparse=True)`` makes them: the rows looked up, in the
order looked up, kept as COO parts beside their dense sum while the backward pass carries
them (``SparseGradient``), and a sparse ``.grad`` at the leaf, concatenated as torch
concatenates them: in a node's buffer the rows that arrive last come first, in ``.grad`` the
earlier rows stay first. Anything else done with one adds it up densely."""

from __future__ import annotations

import numpy as np

from . import _sparse
from ._numerics import plus_scaled


class SparseGradient(np.ndarray):
    """A gradient's dense value with ``coo`` (indices 1 × nnz, values nnz × row) beside it.
    Only the engine's buffer sum keeps ``coo``; every other operation gives plain arrays."""

    coo: _sparse.COO | None

    def __array_finalize__(self, obj) -> None:
        self.coo = None

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        pending = inputs[0] if len(inputs) == 2 else None
        incoming = inputs[1] if len(inputs) == 2 else None
        if (ufunc is np.add and method == "__call__" and not kwargs
                and _carries(pending) and _carries(incoming)):
            return sparse_gradient(pending.shape, (incoming.coo, pending.coo))
        if method == "__call__" and not kwargs and ufunc in _SCALINGS:
            scaled = _scaled_sparse(ufunc, inputs)
            if scaled is not None:
                return scaled
        plain = tuple(value.view(np.ndarray) if isinstance(value, SparseGradient) else value
                      for value in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(value.view(np.ndarray) if isinstance(value, SparseGradient)
                                  else value for value in kwargs["out"])
        return getattr(ufunc, method)(*plain, **kwargs)


def _carries(value) -> bool:
    return isinstance(value, SparseGradient) and value.coo is not None


# What a sparse tensor's arithmetic does to its gradient, which stays sparse as in torch (a
# MulBackward0 or NegBackward0 after torch.sparse.sum): scaled by a number, negated
_SCALINGS = (np.multiply, np.true_divide, np.negative)


def _scaled_sparse(ufunc, inputs: tuple) -> SparseGradient | None:
    """The sparse gradient times or divided by a number (a 0-d array), or negated; None for
    any other operands (they add up densely)."""
    if ufunc is np.negative:
        sparse, number = inputs[0], None
    elif len(inputs) == 2 and _carries(inputs[0]) and np.ndim(inputs[1]) == 0:
        sparse, number = inputs
    elif ufunc is np.multiply and len(inputs) == 2 and _carries(inputs[1]) and \
            np.ndim(inputs[0]) == 0:
        number, sparse = inputs
    else:
        return None
    if not _carries(sparse):
        return None
    coo = sparse.coo
    values = ufunc(coo.values) if number is None else ufunc(coo.values, number)
    if values.dtype != sparse.dtype:  # (a number of a wider kind: summed densely)
        return None
    return sparse_gradient(sparse.shape, (_sparse.COO(coo.indices, values, coo.coalesced),))


def embedding_rows(shape, indices: np.ndarray, rows: np.ndarray, padding_idx) -> SparseGradient:
    """EmbeddingBackward0's sparse gradient: each looked-up row's gradient at its index, the
    padding row's left out."""
    if padding_idx is not None:
        keep = indices != padding_idx
        indices, rows = indices[keep], rows[keep]
    coo = _sparse.COO(indices.reshape(1, -1).astype(np.int64), np.ascontiguousarray(rows),
                      False, bool(rows.flags.c_contiguous))  # (torch's: grad.reshape's)
    return sparse_gradient(shape, (coo,))


def sparse_gradient(shape, pieces: tuple) -> SparseGradient:
    """One sparse gradient of the pieces' rows, concatenated (copied) in the order given; one
    piece keeps its flags (cat's values are contiguous, and not coalesced)."""
    alone = pieces[0] if len(pieces) == 1 else None
    coo = _sparse.COO(np.concatenate([piece.indices for piece in pieces], axis=1),
                      np.concatenate([piece.values for piece in pieces]),
                      alone is not None and alone.coalesced,
                      alone is None or alone.contiguous)
    made = _sparse.dense_of(coo, shape).view(SparseGradient)
    made.coo = coo
    return made


def accumulate_sparse(tensor, grad: SparseGradient) -> None:
    """AccumulateGrad with a sparse gradient: taken as ``.grad``, appended to a sparse one, or
    added row by row into a dense one (a sparse ``.grad`` meeting a dense gradient becomes
    their dense sum)."""
    current = tensor._grad
    coo = grad.coo
    if current is None:
        tensor._grad = _sparse._sparse(grad.view(np.ndarray).copy(),
                                       _sparse.COO(coo.indices.copy(), coo.values.copy(),
                                                   coo.coalesced))  # (a copy: contiguous)
        return
    held = _sparse.parts(current)
    if held is not None:
        total = sparse_sum_of(held, coo, 1, current._data.shape)
        current._data[...] = _sparse.dense_of(total, current._data.shape)
        current.__dict__["_coo"] = total
    else:
        add_rows(current._data, coo.indices, coo.values)
    from ._tensor import bump_version

    bump_version(current)


def sparse_sum_of(first: _sparse.COO, second: _sparse.COO, alpha,
                  shape: tuple) -> _sparse.COO:
    """``first + alpha * second`` of two sparse tensors, as torch's CPU add: with contiguous
    values, one pass over both in step (a coordinate met in both at once is summed, fused as
    axpy; coalesced or not), else the rows concatenated (coalesced once they outnumber the
    tensor's elements)."""
    kind = first.values.dtype.type
    if first.contiguous and second.contiguous:
        return _merged(first, second, alpha, first.coalesced)  # (torch keeps the first's)
    scaled = second.values if alpha == 1 else second.values * kind(alpha)
    joined = _sparse.COO(np.concatenate([first.indices, second.indices], axis=1),
                         np.concatenate([first.values, scaled]), False)
    if joined.values.shape[0] > int(np.prod(shape)):
        where = np.unique(joined.indices, axis=1)
        joined = _sparse.COO(where, _sparse.dense_of(joined, shape)[tuple(where)], True)
    return joined


def _merged(first: _sparse.COO, second: _sparse.COO, alpha, coalesced: bool) -> _sparse.COO:
    indices, values = [], []
    i = j = 0
    a, b = first.indices.T.tolist(), second.indices.T.tolist()
    while i < len(a) and j < len(b):
        if a[i] < b[j]:
            indices.append(a[i])
            values.append(first.values[i])
            i += 1
        elif a[i] > b[j]:
            indices.append(b[j])
            values.append(second.values[j] * second.values.dtype.type(alpha))
            j += 1
        else:
            values.append(plus_scaled(first.values[i], second.values[j], alpha))
            indices.append(a[i])
            i, j = i + 1, j + 1
    indices += a[i:] + b[j:]
    values += list(first.values[i:]) + [value * second.values.dtype.type(alpha)
                                       for value in second.values[j:]]
    where = np.array(indices, np.int64).T.reshape(len(first.indices), -1)
    rows = np.array(values, first.values.dtype).reshape(-1, *first.values.shape[1:])
    return _sparse.COO(where, rows, coalesced)


def accumulated_sparsely(tensor, grad: np.ndarray) -> np.ndarray | None:
    """AccumulateGrad where a sparse gradient or a sparse ``.grad`` takes part: None when it
    is done, else the gradient as a plain array, to add up densely."""
    if getattr(grad, "coo", None) is not None:
        accumulate_sparse(tensor, grad)
        return None
    grad = np.asarray(grad)
    return None if accumulate_dense_into_sparse(tensor, grad) else grad


def accumulate_dense_into_sparse(tensor, grad: np.ndarray) -> bool:
    """A dense gradient reaching a sparse ``.grad``: ``.grad`` becomes a new dense tensor,
    the gradient plus the sparse rows (torch: new_grad + variable_grad). False when
    ``.grad`` is not sparse."""
    current = tensor._grad
    held = None if current is None else _sparse.parts(current)
    if held is None:
        return False
    total = np.array(grad, dtype=current._data.dtype, copy=True)
    add_rows(total, held.indices, held.values)
    tensor._grad = current.__class__._make(total, None, None)
    return True


def add_rows(target: np.ndarray, indices: np.ndarray, values: np.ndarray, alpha=1) -> None:
    """``target.add_(sparse, alpha=alpha)`` as torch's CPU kernel does it: each row in turn,
    ``row + alpha * value`` fused (BLAS's axpy); a row listed twice gets both, in order.
    ``alpha`` is a number or one per row (a column)."""
    where = indices.reshape(-1)
    order = np.argsort(where, kind="stable")
    sorted_where = where[order]
    starts = np.r_[0, np.flatnonzero(np.diff(sorted_where)) + 1]
    rank = np.empty(where.shape[0], np.int64)
    rank[order] = np.arange(where.shape[0]) - np.repeat(starts, np.diff(np.r_[starts,
                                                                              where.shape[0]]))
    for layer in range(int(rank.max(initial=-1)) + 1):  # the rows' first, second... mention
        chosen = rank == layer
        rows = where[chosen]
        scale = alpha[chosen] if np.ndim(alpha) else alpha  # (one per row, or one for all)
        target[rows] = plus_scaled(target[rows], values[chosen], scale)
