"""Linear algebra: mm, mv, dot, bmm, matmul (dispatched as torch does), outer, addmm."""

from __future__ import annotations

import numpy as np

from ._arithmetic import mul
from ._autocast import lower_precision
from ._bindings import binds
from ._blas import matrix_product, product_of_matrices
from ._dtype_checks import (
    check_addmm,
    check_baddbmm,
    check_dot,
    check_mm,
    check_mv,
    check_scalar_type,
)
from ._formula_kit import Kit
from ._operands import as_tensor_operand, operands
from ._recording import output
from ._shapes import expand, expanded_shape, reshape, squeeze_to, unsafe_view, unsqueeze
from ._tensor import Tensor


def column_major(matrix: np.ndarray) -> bool:
    """Whether a matrix lies column by column, as torch's mm backward asks of an operand (a
    transposed weight, LAPACK's factors): its gradient is then worked out transposed, which
    records ``.t()`` around the product under create_graph."""
    steps = matrix.strides
    return steps[0] == matrix.itemsize and steps[1] == matrix.shape[0] * matrix.itemsize


def lapack_layout(values: np.ndarray) -> np.ndarray:
    """A LAPACK routine's matrices laid out as torch returns them, column by column (each
    matrix of a batch), so that ``stride()``, ``is_contiguous()`` and the mm backward's choice
    of formula read as torch's; vectors contiguous."""
    if values.ndim < 2:
        return np.ascontiguousarray(values)
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(values, -1, -2)), -1, -2)


def _shape_text(shape) -> str:
    return "x".join(str(s) for s in shape)


@binds("mm")
@lower_precision
def mm(self: Tensor, mat2: Tensor) -> Tensor:
    if self.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if mat2.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if self.shape[1] != mat2.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_shape_text(self.shape)} and "
            f"{_shape_text(mat2.shape)})"
        )
    check_mm(self, mat2)
    a, b = operands(self, mat2)
    return output("mm", product_of_matrices(a, b), (self, mat2),
                  (self, mat2, column_major(self._data), column_major(mat2._data)))


@binds("mv")
def mv(self: Tensor, vec: Tensor) -> Tensor:
    if self.ndim != 2 or vec.ndim != 1 or self.shape[1] != vec.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({self.shape[0]}), mat ({_shape_text(self.shape)}), "
            f"vec ({vec.shape[0]})"
        )
    check_mv(self, vec)
    a, b = operands(self, vec)
    return output("mv", product_of_matrices(a, b), (self, vec), (self, vec))


@binds("dot")
def dot(self: Tensor, other: Tensor) -> Tensor:
    if self.ndim != 1 or other.ndim != 1:
        raise RuntimeError(
            f"1D tensors expected, but got {self.ndim}D and {other.ndim}D tensors"
        )
    if self.shape[0] != other.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{self.shape[0]}] and src "
            f"[{other.shape[0]}] to have the same number of elements, but got {self.shape[0]} "
            f"and {other.shape[0]} elements respectively"
        )
    check_dot(self, other)
    a, b = operands(self, other)
    return output("dot", np.asarray(product_of_matrices(a, b)), (self, other), (self, other))


@binds("bmm")
@lower_precision
def bmm(self: Tensor, mat2: Tensor) -> Tensor:
    check_batches(self, mat2)
    check_scalar_type(self, mat2)
    a, b = operands(self, mat2)
    return output("bmm", product_of_matrices(a, b), (self, mat2), (self, mat2))


def check_three_dimensional(batch1: Tensor, batch2: Tensor) -> None:
    """torch's first check of bmm's, baddbmm's and addbmm's batches of matrices."""
    for name, batch in (("batch1", batch1), ("batch2", batch2)):
        if batch.ndim != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")


def check_batches(batch1: Tensor, batch2: Tensor) -> None:
    """torch's checks of bmm's and baddbmm's batches of matrices."""
    check_three_dimensional(batch1, batch2)
    expected = [batch1.shape[0], batch1.shape[2]]
    if list(batch2.shape[:2]) != expected:
        raise RuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{expected[0]}, {expected[1]}] but got: [{batch2.shape[0]}, {batch2.shape[1]}]."
        )


@binds("baddbmm")
@lower_precision
def baddbmm(self: Tensor, batch1: Tensor, batch2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta * self + alpha * (batch1 @ batch2), one BaddbmmBackward0 node."""
    expanded_shape(self.shape, (batch1.size(0), batch1.size(1), batch2.size(2)))
    check_batches(batch1, batch2)
    check_baddbmm(self, batch1, batch2)
    a, b = operands(batch1, batch2)
    product = product_of_matrices(a, b)  # (torch's own sum for a small one: then all of it)
    if alpha != 1:
        product = product * product.dtype.type(alpha)
    base = np.broadcast_to(self._data, product.shape).astype(product.dtype)
    values = product + (base if beta == 1 else base * product.dtype.type(beta)) if beta else \
        product
    return output("baddbmm", values, (self, batch1, batch2), (batch1, batch2, beta, alpha))


@binds("matmul")
@binds("__matmul__", function=False)
@lower_precision
def matmul(self: Tensor, other: Tensor) -> Tensor:
    """Dispatch like torch: dot, mv, mm, or folded/batched mm with torch's graph shape."""
    if self.ndim == 0 or other.ndim == 0:
        raise RuntimeError(
            "both arguments to matmul need to be at least 1D, but they are "
            f"{self.ndim}D and {other.ndim}D"
        )
    if self.ndim == 1 and other.ndim == 1:
        return dot(self, other)
    if self.ndim == 2 and other.ndim == 1:
        return mv(self, other)
    if self.ndim == 2 and other.ndim == 2:
        return mm(self, other)
    if self.ndim == 1 and other.ndim == 2:
        product = mm(unsqueeze(self, 0), other)
        return squeeze_to(product, product.shape[1:], "squeeze_dims")
    if other.ndim <= 2 and self.ndim >= 3:  # the batch folded into rows: one mm (or mv)
        folded = reshape(self, (-1, self.shape[-1]))
        if other.ndim == 1:
            return unsafe_view(mv(folded, other), tuple(self.shape[:-1]))
        return unsafe_view(mm(folded, other), (*self.shape[:-1], other.shape[1]))
    return _batched_matmul(self, other)


def _batched_matmul(self: Tensor, other: Tensor) -> Tensor:
    left = self if self.ndim > 1 else unsqueeze(self, 0)
    right = other if other.ndim > 1 else unsqueeze(other, 1)
    batch = np.broadcast_shapes(tuple(left.shape[:-2]), tuple(right.shape[:-2]))
    count = int(np.prod(batch)) if batch else 1
    # (reshape, as torch's: a transposed operand's is a _reshape_alias, or a copy)
    left3 = reshape(expand(left, (*batch, *left.shape[-2:])), (count, *left.shape[-2:]))
    right3 = reshape(expand(right, (*batch, *right.shape[-2:])), (count, *right.shape[-2:]))
    product = bmm(left3, right3)
    shape = (*batch, left.shape[-2], right.shape[-1])
    if self.ndim == 1:
        shape = (*batch, right.shape[-1])
    elif other.ndim == 1:
        shape = (*batch, left.shape[-2])
    return unsafe_view(product, shape)


@binds("__rmatmul__", function=False)
def rmatmul(self: Tensor, other) -> Tensor:
    return matmul(as_tensor_operand(other), self)


@binds("outer")
def outer(self: Tensor, other: Tensor) -> Tensor:
    return mul(reshape(self, -1, 1), other)  # (torch reshapes: a ViewBackward0)


@binds("addmm")
@lower_precision
def addmm(self: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """``beta * self + alpha * (mat1 @ mat2)`` as one node: what nn.Linear records for a
    batch of rows (beta 0: self is not read, as BLAS's)."""
    if mat1.ndim != 2 or mat2.ndim != 2:
        raise RuntimeError(f"mat1 must be a matrix, got {mat1.ndim}-D tensor" if mat1.ndim != 2
                           else f"mat2 must be a matrix, got {mat2.ndim}-D tensor")
    if mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({mat1.shape[0]}x"
                           f"{mat1.shape[1]} and {mat2.shape[0]}x{mat2.shape[1]})")
    check_addmm(self, mat1, mat2)
    data = matrix_product(mat1._data, mat2._data, self._data  # (check_addmm: it broadcasts)
                          if self._data.dtype == mat1._data.dtype else None, beta, alpha)
    if data is not None and (beta == 0 or self._data.dtype == mat1._data.dtype):
        return output("addmm", data, (self, mat1, mat2),
                      (mat1, mat2, column_major(mat1._data), column_major(mat2._data), beta,
                       alpha))
    product = mat1._data @ mat2._data
    if beta == 1 and alpha == 1:
        data = np.asarray(self._data + product)
    else:
        kind = product.dtype.type
        start = np.zeros_like(product) if beta == 0 else self._data * kind(beta)
        data = np.asarray(start + product * kind(alpha))
    return output("addmm", data, (self, mat1, mat2),
                  (mat1, mat2, column_major(mat1._data), column_major(mat2._data), beta, alpha))


# ----- mm's and addmm's gradients, methods of the formula kit -----------------------------------
def mm_mat1_grad(k, grad, mat2, column_major: bool):
    """torch's mm_mat1_backward: grad mat2ᵀ, or (mat2 gradᵀ)ᵀ for a column-major mat1."""
    if column_major:
        return k.t(k.matmul(mat2, k.t(grad)))
    return k.matmul(grad, k.t(mat2))


def mm_mat2_grad(k, grad, mat1, column_major: bool):
    """torch's mm_mat2_backward: mat1ᵀ grad, or (gradᵀ mat1)ᵀ for a column-major mat2."""
    if column_major:
        return k.t(k.matmul(k.t(grad), mat1))
    return k.matmul(k.t(mat1), grad)


Kit.mm_mat1_grad, Kit.mm_mat2_grad = mm_mat1_grad, mm_mat2_grad
