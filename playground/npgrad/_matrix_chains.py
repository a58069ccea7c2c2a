"""The product of a chain of matrices in the cheapest order: torch.linalg.multi_dot and the
older torch.chain_matmul, with torch's chain order, checks, messages and warning."""

from __future__ import annotations

import math
import warnings

from ._bindings import binds
from ._linalg import mm
from ._pointwise import clone
from ._shapes import unsqueeze
from ._tensor import Tensor

_TYPE_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int"}


def multi_dot(tensors, *, out=None) -> Tensor:
    """The product of the matrices in the cheapest order (torch's chain order), a first or
    last vector taken as a row or column and viewed away at the end."""
    tensors = list(tensors)
    count = len(tensors)
    if count < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {count}")
    shape, matrices = [], list(tensors)
    for end, position, axis in (("first", 0, 0), ("last", count - 1, -1)):
        tensor = tensors[position]
        if tensor.ndim not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {end} tensor must be 1D or 2D but got "
                               f"{tensor.ndim}D")
        if tensor.ndim == 1:
            matrices[position] = unsqueeze(tensor, axis)
        else:
            shape.append(tensor.shape[axis])
    for i in range(1, count - 1):
        if tensors[i].ndim != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].ndim}D")
    for i in range(1, count):
        if tensors[i].dtype != tensors[0].dtype:
            names = [_TYPE_NAMES.get(t._data.dtype.name, t._data.dtype.name)
                     for t in (tensors[0], tensors[i])]
            raise RuntimeError("multi_dot(): all tensors must have be the same dtype but tensor "
                               f"0 is {names[0]} and tensor {i} {names[1]}")
        if matrices[i - 1].shape[-1] != matrices[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes "
                               f"{list(tensors[i - 1].shape)} and {list(tensors[i].shape)} cannot "
                               "be multiplied")
    sizes = [m.shape[0] for m in matrices] + [matrices[-1].shape[1]]
    split = _chain_order(sizes)
    if count == 3:  # torch's own rule for three: (AB)C unless A(BC) costs less
        a, b, c, d = sizes
        split[0][2] = 0 if a * c * (b + d) > b * d * (a + c) else 1
    return _chain(matrices, split, 0, count - 1).view(tuple(shape))


_CHAIN_MATMUL_WARNING = (
    "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
    "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
    "multiple parameters. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
    "LinearAlgebra.cpp:1102.)")
_warned = []


@binds("chain_matmul", method=False)
def chain_matmul(*matrices) -> Tensor:
    """linalg.multi_dot of the matrices (one: a copy), with torch's warning, once."""
    if not _warned:  # once a process, as torch's
        _warned.append(True)
        warnings.warn(_CHAIN_MATMUL_WARNING, UserWarning, stacklevel=2)
    for matrix in matrices:
        if matrix.ndim != 2:
            raise RuntimeError(f"Tensor dimension is {matrix.ndim}, expected 2 instead.")
    if len(matrices) < 2:
        if not matrices:
            raise RuntimeError("chain_matmul(): Expected one or more matrices")
        return clone(matrices[0])
    return multi_dot(matrices)


def _chain_order(p: list[int]) -> list[list[int]]:
    """torch's matrix_chain_order: where to split each run of the chain (fewest products)."""
    n = len(p) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                total = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if total < cost[i][j]:
                    cost[i][j], split[i][j] = total, k
    return split


def _chain(matrices: list, split: list, i: int, j: int) -> Tensor:
    if i == j:
        return matrices[i]
    return mm(_chain(matrices, split, i, split[i][j]), _chain(matrices, split, split[i][j] + 1, j))
