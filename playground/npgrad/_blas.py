"""Matrix and vector products as torch's CPU build computes them: where torch is installed,
the calls its mm, addmm, mv, dot and bmm make of MKL's BLAS (``sgemm_``, ``sgemv_``,
``sdot_``, ``cblas_sgemm_batch`` and their float64 twins, from torch's own library: _vml),
made with the arguments torch derives from its operands' strides, so that the sums are added
in MKL's order and the results are torch's to the last bit (NumPy's BLAS adds them in another
order: a float32 product then differs from torch's in the last bits of most elements); and
bmm's own loop for its small products.

Without torch's library (or for other dtypes) these answer None and the engine takes NumPy's
``matmul`` and ``dot``."""

from __future__ import annotations

import ctypes

import numpy as np

from . import _compiled, _vml

_INT_LIMIT = 2 ** 31 - 1
_FUNCTIONS: dict[str, object] = {}
_SCALARS = {np.dtype(np.float32): ctypes.c_float, np.dtype(np.float64): ctypes.c_double}
# each dtype's gemm, gemv, dot and batched gemm
_NAMES = {np.dtype(np.float32): ("sgemm_", "sgemv_", "sdot_", "cblas_sgemm_batch"),
          np.dtype(np.float64): ("dgemm_", "dgemv_", "ddot_", "cblas_dgemm_batch")}
_GEMM, _GEMV, _DOT, _BATCHED = range(4)
_COLUMN_MAJOR, _NO_TRANSPOSE, _TRANSPOSE = 102, 111, 112  # (CBLAS's enums)


def _blas(dtype: np.dtype, which: int):
    """One of torch's BLAS functions for ``dtype`` (ctypes), None where it is not here."""
    names = _NAMES.get(dtype)
    if names is None:
        return None
    name = names[which]
    if name not in _FUNCTIONS:
        library = _vml.torch_library()
        function = None if library is None else getattr(library, name, None)
        if function is not None:
            function.restype = _SCALARS[dtype] if which == _DOT else None
        _FUNCTIONS[name] = function
    return _FUNCTIONS[name]


def _steps(array: np.ndarray) -> tuple[int, int]:
    return tuple(stride // array.itemsize for stride in array.strides)


def matrix_product(mat1: np.ndarray, mat2: np.ndarray, added: np.ndarray | None = None,
                   beta: float = 1.0, alpha: float = 1.0) -> np.ndarray | None:
    """``beta * added + alpha * (mat1 @ mat2)`` of two matrices as torch's addmm (mm: no
    ``added``; it broadcasts to the product's shape) computes it, into a fresh row-major
    result; None where torch's gemm is not here, the dtype is not float32 or float64, or a
    side is empty."""
    dtype = mat1.dtype
    if mat2.dtype != dtype or mat1.ndim != 2 or mat2.ndim != 2 or 0 in mat1.shape or \
            0 in mat2.shape or max(*mat1.shape, *mat2.shape) > _INT_LIMIT:
        return None
    if _blas(dtype, _GEMM) is None:
        return None
    result = np.empty((mat1.shape[0], mat2.shape[1]), dtype)
    if added is not None and beta != 0:
        result[...] = added
    else:
        beta = 0.0
    kernels = _compiled.kernels
    if kernels is not None and kernels.gemm_product(_address(dtype, _GEMM), mat1, mat2, result,
                                                    alpha, beta):
        return result
    return _product_here(mat1, mat2, result, alpha, beta)


def _address(dtype: np.dtype, which: int) -> int:
    """The address of one of torch's BLAS functions that ``_blas`` found, for the C module."""
    key = (dtype, which)
    address = _ADDRESSES.get(key)
    if address is None:
        address = _ADDRESSES[key] = ctypes.cast(_blas(dtype, which), ctypes.c_void_p).value
    return address


_ADDRESSES: dict[tuple[np.dtype, int], int] = {}


def _product_here(mat1: np.ndarray, mat2: np.ndarray, result: np.ndarray, alpha: float,
                  beta: float) -> np.ndarray:
    """matrix_product's gemm call made through ctypes (the C module's gemm_product makes the
    same one where it is built, and leaves to this an operand its strides make a copy of)."""
    dtype = result.dtype
    # result is row-major: torch computes its transpose, column-major, as mat2ᵀ mat1ᵀ
    transpose_c = result.shape[1] != 1
    first, second = (mat2, mat1) if transpose_c else (mat1, mat2)
    m = result.shape[1] if transpose_c else result.shape[0]
    n = result.shape[0] if transpose_c else result.shape[1]
    k = first.shape[0] if transpose_c else first.shape[1]
    transpose_a, a = _operand(first, transpose_c, m, k)
    transpose_b, b = _operand(second, transpose_c, k, n)
    lda = _steps(a)[1 if transpose_a == transpose_c else 0]
    ldb = _steps(b)[1 if transpose_b == transpose_c else 0]
    ldc = _steps(result)[0 if transpose_c else 1]
    _gemm(dtype, transpose_a, transpose_b, (m, n, k), (a.ctypes.data, lda),
          (b.ctypes.data, ldb), (result.ctypes.data, ldc), alpha, beta)
    return result


def _normalized(transpose_a: bool, transpose_b: bool, sides, lda: int, ldb: int, ldc: int
                ) -> tuple[int, int, int]:
    """The leading dimensions as cpublas's normalize_last_dims sets them for a side of 1."""
    m, n, k = sides
    if n == 1:
        ldc = m
    if transpose_a:
        lda = k if m == 1 else lda
    elif k == 1:
        lda = m
    if transpose_b:
        ldb = n if k == 1 else ldb
    elif n == 1:
        ldb = k
    return lda, ldb, ldc


def _gemm(dtype: np.dtype, transpose_a: bool, transpose_b: bool, sides, a, b, c,
          alpha: float, beta: float) -> None:
    """cpublas::gemm: C = alpha op(A) op(B) + beta C, column-major; ``a``, ``b``, ``c`` are
    (address, leading dimension)."""
    lda, ldb, ldc = _normalized(transpose_a, transpose_b, sides, a[1], b[1], c[1])
    scalar = _SCALARS[dtype]
    integers = [ctypes.c_int(value) for value in (*sides, lda, ldb, ldc)]
    _blas(dtype, _GEMM)(
        ctypes.c_char_p(b"T" if transpose_a else b"N"),
        ctypes.c_char_p(b"T" if transpose_b else b"N"),
        ctypes.byref(integers[0]), ctypes.byref(integers[1]), ctypes.byref(integers[2]),
        ctypes.byref(scalar(alpha)), ctypes.c_void_p(a[0]), ctypes.byref(integers[3]),
        ctypes.c_void_p(b[0]), ctypes.byref(integers[4]), ctypes.byref(scalar(beta)),
        ctypes.c_void_p(c[0]), ctypes.byref(integers[5]))


def _operand(matrix: np.ndarray, transpose_c: bool, rows: int, columns: int
             ) -> tuple[bool, np.ndarray]:
    """Whether gemm reads ``matrix`` transposed, and the array it reads (a contiguous copy
    where its strides suit neither way), as addmm_impl_cpu_ decides."""
    steps = _steps(matrix)
    inner, outer = (steps[1], steps[0]) if transpose_c else (steps[0], steps[1])
    if inner == 1 and outer >= max(1, rows):
        return False, matrix
    if outer == 1 and inner >= max(1, columns):
        return True, matrix
    return not transpose_c, np.ascontiguousarray(matrix)



def matrix_vector_product(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray | None:
    """``matrix @ vector`` as torch's mv calls MKL's gemv (addmv_impl_cpu's choice of
    transposition by the matrix's strides); None where torch's gemv is not here, the dtype
    is not float32 or float64, a side is empty or the vector's stride is not positive."""
    dtype = matrix.dtype
    if vector.dtype != dtype or matrix.ndim != 2 or vector.ndim != 1 or 0 in matrix.shape or \
            max(matrix.shape) > _INT_LIMIT or vector.strides[0] <= 0:
        return None
    gemv = _blas(dtype, _GEMV)
    if gemv is None:
        return None
    rows, columns = matrix.shape
    steps = _steps(matrix)
    if steps[0] == 1 and (columns == 1 or steps[1] >= max(1, rows)):
        trans, m, n, lda, a = b"N", rows, columns, steps[1], matrix
    elif steps[1] == 1 and (rows == 1 or steps[0] >= max(1, columns)):
        trans, m, n, lda, a = b"T", columns, rows, steps[0], matrix
    else:
        a = np.ascontiguousarray(matrix)
        trans, m, n, lda = b"T", columns, rows, _steps(a)[0]
    if n == 1:
        lda = m
    result = np.empty(rows, dtype)
    scalar = _SCALARS[dtype]
    integers = [ctypes.c_int(value) for value in (m, n, lda, vector.strides[0] // vector.itemsize,
                                                  1)]
    gemv(ctypes.c_char_p(trans), ctypes.byref(integers[0]), ctypes.byref(integers[1]),
         ctypes.byref(scalar(1.0)), ctypes.c_void_p(a.ctypes.data), ctypes.byref(integers[2]),
         ctypes.c_void_p(vector.ctypes.data), ctypes.byref(integers[3]),
         ctypes.byref(scalar(0.0)), ctypes.c_void_p(result.ctypes.data),
         ctypes.byref(integers[4]))
    return result


def dot_product(first: np.ndarray, second: np.ndarray) -> np.ndarray | None:
    """``first · second`` of two vectors as torch's dot calls MKL's dot (a 0-d array); None
    where it is not here or the dtype is not float32 or float64."""
    dtype = first.dtype
    if second.dtype != dtype or first.ndim != 1 or second.ndim != 1 or \
            first.size > _INT_LIMIT:
        return None
    dot = _blas(dtype, _DOT)
    if dot is None:
        return None
    # (torch's tensors never step backwards or stand still: such an operand is a copy there)
    first, second = (array if array.strides[0] > 0 else np.ascontiguousarray(array)
                     for array in (first, second))
    steps = [1, 1] if first.size == 1 else [array.strides[0] // array.itemsize
                                            for array in (first, second)]
    integers = [ctypes.c_int(value) for value in (first.size, *steps)]
    value = dot(ctypes.byref(integers[0]), ctypes.c_void_p(first.ctypes.data),
                ctypes.byref(integers[1]), ctypes.c_void_p(second.ctypes.data),
                ctypes.byref(integers[2]))
    return np.asarray(value, dtype)


# bmm's own loop takes products smaller than this (contraction x rows x columns), MKL the rest
NAIVE_BMM_BELOW = 400


def batched_product(batch1: np.ndarray, batch2: np.ndarray) -> np.ndarray | None:
    """``batch1 @ batch2`` of two batches of matrices as torch's bmm computes it: a small
    product by its own loop (each term rounded, added in order to a sum from 0, nothing fused:
    that file is built without FMA), a larger one by MKL (one batched gemm, or matrix by matrix
    where an operand's matrices are neither row- nor column-major); None where the dtype is not
    float32 or float64, or MKL is not here for a larger one."""
    dtype = batch1.dtype
    if batch2.dtype != dtype or dtype not in _SCALARS or batch1.ndim != 3 or \
            batch2.ndim != 3 or 0 in batch1.shape or 0 in batch2.shape:
        return None
    count, rows, inner = batch1.shape
    columns = batch2.shape[2]
    if inner * rows * columns < NAIVE_BMM_BELOW:
        total = np.zeros((count, rows, columns), dtype)
        for k in range(inner):
            total += batch1[:, :, k, None] * batch2[:, None, k, :]
        return total
    if _blas(dtype, _GEMM) is None or _blas(dtype, _BATCHED) is None:
        return None
    if _whole_matrices(batch1) and _whole_matrices(batch2):
        return _gemm_of_batches(batch1, batch2)
    return np.stack([matrix_product(batch1[b], batch2[b]) for b in range(count)])


def _whole_matrices(batch: np.ndarray) -> bool:
    """bmm's batch_items_contiguous_or_transposed: each matrix row- or column-major."""
    steps, sizes = _steps3(batch), batch.shape
    return (steps[2] == 1 and (sizes[1] == 1 or steps[1] >= sizes[2])) or \
        (steps[1] == 1 and (sizes[2] == 1 or steps[2] >= sizes[1]))


def _steps3(batch: np.ndarray) -> list[int]:
    return [stride // batch.itemsize for stride in batch.strides]


def _gemm_of_batches(batch1: np.ndarray, batch2: np.ndarray) -> np.ndarray:
    """baddbmm_with_gemm_: column-major gemms of the operands swapped (batch2's first), each
    transposed where its matrices are column-major; one gemm for one matrix, else MKL's
    batched gemm (pointers to each matrix)."""
    dtype = batch1.dtype
    count, rows, inner = batch1.shape
    columns = batch2.shape[2]
    result = np.empty((count, rows, columns), dtype)

    def transposed(batch: np.ndarray) -> bool:
        steps = _steps3(batch)
        return steps[1] == 1 and steps[2] >= batch.shape[1]

    transpose_a, transpose_b = transposed(batch2), transposed(batch1)
    lda = _steps3(batch2)[2 if transpose_a else 1]
    ldb = _steps3(batch1)[2 if transpose_b else 1]
    sides = (columns, rows, inner)
    if count == 1:
        _gemm(dtype, transpose_a, transpose_b, sides, (batch2.ctypes.data, lda),
              (batch1.ctypes.data, ldb), (result.ctypes.data, columns), 1.0, 0.0)
        return result
    lda, ldb, ldc = _normalized(transpose_a, transpose_b, sides, lda, ldb, columns)
    pointers = ctypes.c_void_p * count

    def starts(batch: np.ndarray):
        return pointers(*(batch.ctypes.data + b * batch.strides[0] for b in range(count)))

    number, scalar = ctypes.c_int, _SCALARS[dtype]
    _blas(dtype, _BATCHED)(
        number(_COLUMN_MAJOR), ctypes.byref(number(_TRANSPOSE if transpose_a else _NO_TRANSPOSE)),
        ctypes.byref(number(_TRANSPOSE if transpose_b else _NO_TRANSPOSE)),
        *(ctypes.byref(number(side)) for side in sides), ctypes.byref(scalar(1.0)),
        starts(batch2), ctypes.byref(number(lda)), starts(batch1), ctypes.byref(number(ldb)),
        ctypes.byref(scalar(0.0)), starts(result), ctypes.byref(number(ldc)), number(1),
        ctypes.byref(number(count)))
    return result


_BY_DIMENSIONS = {(2, 2): matrix_product, (3, 3): batched_product,
                  (2, 1): matrix_vector_product, (1, 1): dot_product}


def product_of_matrices(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` of two matrices, two batches of them, a matrix and a vector or two vectors,
    as torch adds it up (mm's, bmm's, mv's and dot's calls of MKL, where torch's library is
    here), else NumPy's."""
    product = _BY_DIMENSIONS.get((a.ndim, b.ndim), _nothing)(a, b)
    return np.matmul(a, b) if product is None else product


def _nothing(a, b) -> None:
    return None
