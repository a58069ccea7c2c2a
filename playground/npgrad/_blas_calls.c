/* One call of torch's gemm (MKL's sgemm_ or dgemm_, found in torch's library by _blas.py) for
 * a product of two matrices into a row-major result, with the arguments torch's addmm derives
 * from the operands' strides. _blas.matrix_product makes the same call through ctypes where
 * this module is not built: there, deciding the arguments and building ctypes' objects took
 * some 12 µs a product, more than a small nn.Linear's whole product. The decisions here are
 * that function's, line for line (tests/npgrad/test_matrix_products_vs_torch.py holds the two
 * equal).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>

typedef void (*sgemm_function)(const char *, const char *, const int *, const int *,
                               const int *, const float *, const void *, const int *,
                               const void *, const int *, const float *, void *, const int *);
typedef void (*dgemm_function)(const char *, const char *, const int *, const int *,
                               const int *, const double *, const void *, const int *,
                               const void *, const int *, const double *, void *, const int *);

/* A matrix's strides in items, as the array itself holds them (0 where one is not a whole
 * number of items, which no choice below takes: such a matrix is copied by the caller). Not
 * the buffer's: NumPy exports a matrix with a side of 1 with strides made up for it (a 1x1
 * view of every other float becomes contiguous), where torch's addmm reads the real ones. */
static int steps_of(PyObject *matrix, Py_ssize_t itemsize, Py_ssize_t steps[2])
{
    PyObject *strides = PyObject_GetAttrString(matrix, "strides");
    if (strides == NULL)
        return 0;
    int taken = PyTuple_Check(strides) && PyTuple_GET_SIZE(strides) == 2;
    for (int axis = 0; taken && axis < 2; axis++) {
        Py_ssize_t stride = PyLong_AsSsize_t(PyTuple_GET_ITEM(strides, axis));
        taken = !(stride == -1 && PyErr_Occurred());
        steps[axis] = stride % itemsize ? 0 : stride / itemsize;
    }
    Py_DECREF(strides);
    if (!taken && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "a matrix's two strides expected");
    return taken;
}

/* Whether gemm reads the matrix transposed (1), as it is (0), or neither way (-1: its strides
 * suit neither, and addmm_impl_cpu_ copies it), for ``rows`` x ``columns`` of it. */
static int operand_transposed(const Py_ssize_t steps[2], int transpose_c, Py_ssize_t rows,
                              Py_ssize_t columns)
{
    Py_ssize_t inner = transpose_c ? steps[1] : steps[0];
    Py_ssize_t outer = transpose_c ? steps[0] : steps[1];
    if (inner == 1 && outer >= (rows > 1 ? rows : 1))
        return 0;
    if (outer == 1 && inner >= (columns > 1 ? columns : 1))
        return 1;
    return -1;
}

/* The leading dimension gemm reads an operand with: the step between its columns as gemm
 * sees it (column-major), as _blas.matrix_product takes it. */
static Py_ssize_t leading(const Py_ssize_t steps[2], int transposed, int transpose_c)
{
    return steps[transposed == transpose_c ? 1 : 0];
}

static int fits_int(Py_ssize_t value)
{
    return value >= 0 && value <= INT_MAX;
}

/* The gemm call itself; 0 where a side or leading dimension does not fit a C int. */
static int call_gemm(unsigned long long address, Py_ssize_t itemsize, int transpose_a,
                     int transpose_b, const Py_ssize_t sides[3], Py_ssize_t lda,
                     Py_ssize_t ldb, Py_ssize_t ldc, const void *a, const void *b, void *c,
                     double alpha, double beta)
{
    Py_ssize_t m = sides[0], n = sides[1], k = sides[2];
    /* cpublas's normalize_last_dims: the leading dimensions of a side of 1 */
    if (n == 1)
        ldc = m;
    if (transpose_a)
        lda = m == 1 ? k : lda;
    else if (k == 1)
        lda = m;
    if (transpose_b)
        ldb = k == 1 ? n : ldb;
    else if (n == 1)
        ldb = k;
    if (!fits_int(m) || !fits_int(n) || !fits_int(k) || !fits_int(lda) || !fits_int(ldb) ||
        !fits_int(ldc))
        return 0;
    int integers[6] = {(int)m, (int)n, (int)k, (int)lda, (int)ldb, (int)ldc};
    const char *first = transpose_a ? "T" : "N", *second = transpose_b ? "T" : "N";
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4) {
        float alpha_f = (float)alpha, beta_f = (float)beta;
        ((sgemm_function)(uintptr_t)address)(first, second, &integers[0], &integers[1],
                                             &integers[2], &alpha_f, a, &integers[3], b,
                                             &integers[4], &beta_f, c, &integers[5]);
    } else {
        ((dgemm_function)(uintptr_t)address)(first, second, &integers[0], &integers[1],
                                             &integers[2], &alpha, a, &integers[3], b,
                                             &integers[4], &beta, c, &integers[5]);
    }
    Py_END_ALLOW_THREADS
    return 1;
}

/* ``steps``: mat1's, mat2's and the result's strides in items. */
static int product_into(unsigned long long address, const Py_buffer *mat1,
                        const Py_buffer *mat2, const Py_buffer *result,
                        Py_ssize_t steps[3][2], double alpha, double beta)
{
    /* the result is row-major: torch computes its transpose, column-major, as mat2ᵀ mat1ᵀ */
    int transpose_c = result->shape[1] != 1;
    const Py_buffer *first = transpose_c ? mat2 : mat1, *second = transpose_c ? mat1 : mat2;
    const Py_ssize_t *first_steps = steps[transpose_c ? 1 : 0];
    const Py_ssize_t *second_steps = steps[transpose_c ? 0 : 1];
    Py_ssize_t m = transpose_c ? result->shape[1] : result->shape[0];
    Py_ssize_t n = transpose_c ? result->shape[0] : result->shape[1];
    Py_ssize_t k = transpose_c ? first->shape[0] : first->shape[1];
    int transpose_a = operand_transposed(first_steps, transpose_c, m, k);
    int transpose_b = operand_transposed(second_steps, transpose_c, k, n);
    if (transpose_a < 0 || transpose_b < 0)
        return 0;
    Py_ssize_t sides[3] = {m, n, k};
    return call_gemm(address, result->itemsize, transpose_a, transpose_b, sides,
                     leading(first_steps, transpose_a, transpose_c),
                     leading(second_steps, transpose_b, transpose_c),
                     steps[2][transpose_c ? 0 : 1], first->buf, second->buf, result->buf,
                     alpha, beta);
}

/* A float32 or float64 matrix (its format "f" or "d", in this machine's byte order). */
static int float_matrix(const Py_buffer *matrix, Py_ssize_t itemsize)
{
    const char *format = matrix->format;
    if (format == NULL || matrix->ndim != 2 || matrix->itemsize != itemsize)
        return 0;
    if (*format == '=' || *format == '@' || (PY_LITTLE_ENDIAN && *format == '<') ||
        (!PY_LITTLE_ENDIAN && *format == '>'))
        format++;
    return format[1] == '\0' && *format == (itemsize == 4 ? 'f' : 'd');
}

/* gemm_product(address, mat1, mat2, result, alpha, beta): result = beta result + alpha mat1
 * mat2 by one call of the gemm at ``address`` (float32 or float64 by the itemsize), the
 * result a C-contiguous matrix of the product's shape; False, nothing done, where an operand's
 * strides suit neither reading (the caller copies it) or a number does not fit a C int. */
PyObject *gemm_product(PyObject *self, PyObject *args)
{
    unsigned long long address;
    PyObject *objects[3];
    double alpha, beta;
    if (!PyArg_ParseTuple(args, "KOOOdd", &address, &objects[0], &objects[1], &objects[2],
                          &alpha, &beta))
        return NULL;
    Py_buffer views[3];
    int read = PyBUF_STRIDES | PyBUF_FORMAT;
    int flags[3] = {read, read, read | PyBUF_WRITABLE};
    int taken = 0;
    PyObject *answer = NULL;
    for (; taken < 3; taken++)
        if (PyObject_GetBuffer(objects[taken], &views[taken], flags[taken]) < 0)
            goto done;
    const Py_buffer *result = &views[2];
    Py_ssize_t itemsize = result->itemsize;
    if (address == 0 || (itemsize != 4 && itemsize != 8) || !float_matrix(result, itemsize) ||
        !float_matrix(&views[0], itemsize) || !float_matrix(&views[1], itemsize) ||
        !PyBuffer_IsContiguous(result, 'C') || views[0].shape[0] != result->shape[0] ||
        views[1].shape[1] != result->shape[1] || views[0].shape[1] != views[1].shape[0]) {
        PyErr_SetString(PyExc_ValueError, "two matrices of one float dtype and a row-major "
                        "result of their product's shape expected");
        goto done;
    }
    Py_ssize_t steps[3][2];
    for (int k = 0; k < 3; k++)
        if (!steps_of(objects[k], itemsize, steps[k]))
            goto done;
    answer = PyBool_FromLong(product_into(address, &views[0], &views[1], result, steps, alpha,
                                          beta));
done:
    for (int k = 0; k < taken; k++)
        PyBuffer_Release(&views[k]);
    return answer;
}
