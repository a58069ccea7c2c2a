/* The sum of one contiguous float32 or float64 row as torch's cascade_sum adds it, the
 * order _summation_order._row_sum reproduces in NumPy (that function is this file's twin
 * and says why each step comes where it does): ILP vectors of LANES numbers side by side,
 * their rows added in blocks, blocks in groups and groups in supergroups; then the first
 * vector, the vectors left over and the other three, one after another; then the numbers
 * past the last vector and the lanes, one by one, into a zero. A row shorter than a vector
 * is added number by number (_summation_order._scalar_sum's order). Every step is one IEEE
 * addition in the row's own type (setup.py passes -ffp-contract=off), so the bits are the
 * same on every CPU and compiler. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#define ILP 4

static int ceil_log2(Py_ssize_t value)
{
    int bits = 0;
    while (((Py_ssize_t)1 << bits) < value)
        bits++;
    return bits;
}

/* ROW_SUM(T, NAME) makes NAME(row, size, lanes, scratch): the sum in type T; scratch holds
 * size / 16 + ILP * 8 numbers (the block totals). */
#define ROW_SUM(T, NAME)                                                                     \
    /* out[j] = +0 + rows[0][j] + rows[1][j] + ... (NumPy's add.reduce starts at zero); \
     * out may be the first row: it is written last */                                     \
    static void NAME##_running(const T *rows, Py_ssize_t count, Py_ssize_t width, T *out)  \
    {                                                                                        \
        T acc[ILP * 8] = {0};                                                                \
        for (Py_ssize_t i = 0; i < count; i++)                                               \
            for (Py_ssize_t j = 0; j < width; j++)                                           \
                acc[j] = acc[j] + rows[i * width + j];                                       \
        memcpy(out, acc, (size_t)width * sizeof(T));                                         \
    }                                                                                        \
                                                                                             \
    /* total[j] += the running total of rows (computed first, then added) */                \
    static void NAME##_add_running(const T *rows, Py_ssize_t count, Py_ssize_t width,       \
                                   T *total)                                                 \
    {                                                                                        \
        T part[ILP * 8];                                                                     \
        NAME##_running(rows, count, width, part);                                            \
        for (Py_ssize_t j = 0; j < width; j++)                                               \
            total[j] = total[j] + part[j];                                                   \
    }                                                                                        \
                                                                                             \
    /* each run of step rows summed into one row of out: count / step rows */               \
    static void NAME##_blocks(const T *rows, Py_ssize_t count, Py_ssize_t step,             \
                              Py_ssize_t width, T *out)                                      \
    {                                                                                        \
        for (Py_ssize_t b = 0; b < count / step; b++)                                        \
            NAME##_running(rows + b * step * width, step, width, out + b * width);           \
    }                                                                                        \
                                                                                             \
    /* column sums of count rows of width numbers, as _summation_order._cascade adds them */ \
    static void NAME##_cascade(const T *rows, Py_ssize_t count, Py_ssize_t width, T *out,   \
                               T *scratch)                                                   \
    {                                                                                        \
        int shift = ceil_log2(count) / 4;                                                    \
        Py_ssize_t step = (Py_ssize_t)1 << (shift > 4 ? shift : 4);                          \
        Py_ssize_t whole = count / step * step;                                              \
        if (!whole) {                                                                        \
            NAME##_running(rows, count, width, out);                                         \
            return;                                                                          \
        }                                                                                    \
        if (whole < count)                                                                   \
            NAME##_running(rows + whole * width, count - whole, width, out);                 \
        else                                                                                 \
            for (Py_ssize_t j = 0; j < width; j++)                                           \
                out[j] = 0;                                                                  \
        Py_ssize_t blocks = whole / step, grouped = blocks / step * step;                   \
        NAME##_blocks(rows, whole, step, width, scratch);                                    \
        if (grouped < blocks)                                                                \
            NAME##_add_running(scratch + grouped * width, blocks - grouped, width, out);     \
        if (!grouped)                                                                        \
            return;                                                                          \
        /* the groups' totals over the first blocks' (each block read before it is \
         * overwritten: group g lies before block g * step) */                               \
        Py_ssize_t groups = grouped / step, regrouped = groups / step * step;               \
        NAME##_blocks(scratch, grouped, step, width, scratch);                               \
        if (regrouped < groups)                                                              \
            NAME##_add_running(scratch + regrouped * width, groups - regrouped, width, out); \
        if (regrouped) {                                                                     \
            NAME##_blocks(scratch, regrouped, step, width, scratch);                         \
            NAME##_add_running(scratch, regrouped / step, width, out);                       \
        }                                                                                    \
    }                                                                                        \
                                                                                             \
    static T NAME(const T *flat, Py_ssize_t size, Py_ssize_t lanes, T *scratch)              \
    {                                                                                        \
        Py_ssize_t vectors = size / lanes, rows = vectors / ILP;                             \
        Py_ssize_t used = rows * ILP * lanes, width = ILP * lanes;                           \
        T partial[ILP * 8], combined[8];                                                     \
        if (rows)                                                                            \
            NAME##_cascade(flat, rows, width, partial, scratch);                             \
        else                                                                                 \
            memset(partial, 0, sizeof partial);                                              \
        /* +0, the first vector, the vectors left over, the other three */                  \
        for (Py_ssize_t j = 0; j < lanes; j++)                                               \
            combined[j] = (T)0 + partial[j];                                                 \
        for (Py_ssize_t v = used; v < vectors * lanes; v += lanes)                           \
            for (Py_ssize_t j = 0; j < lanes; j++)                                           \
                combined[j] = combined[j] + flat[v + j];                                     \
        for (Py_ssize_t k = 1; k < ILP; k++)                                                 \
            for (Py_ssize_t j = 0; j < lanes; j++)                                           \
                combined[j] = combined[j] + partial[k * lanes + j];                          \
        T total = 0;                                                                         \
        for (Py_ssize_t i = vectors * lanes; i < size; i++)                                  \
            total = total + flat[i];                                                         \
        for (Py_ssize_t j = 0; j < lanes; j++)                                               \
            total = total + combined[j];                                                     \
        return total + (T)0; /* torch adds into a zeroed output */                          \
    }

ROW_SUM(float, row_sum_float)
ROW_SUM(double, row_sum_double)

/* SHORT_SUM(T, NAME) makes NAME(row, size): the sum of fewer numbers than a vector holds, in
 * the order of torch's scalar loop (_summation_order._scalar_sum): the first ILP side by side
 * (zeros where there are fewer), then the first of those, the rest and the other three, then
 * into a zero. */
#define SHORT_SUM(T, NAME)                                                                   \
    static T NAME(const T *flat, Py_ssize_t size)                                            \
    {                                                                                        \
        T side[ILP] = {0};                                                                   \
        Py_ssize_t first = size >= ILP ? ILP : 0;                                            \
        for (Py_ssize_t k = 0; k < first; k++)                                               \
            side[k] = flat[k];                                                               \
        T total = side[0];                                                                   \
        for (Py_ssize_t i = first; i < size; i++)                                            \
            total = total + flat[i];                                                         \
        for (Py_ssize_t k = 1; k < ILP; k++)                                                 \
            total = total + side[k];                                                         \
        return total + (T)0;                                                                 \
    }

SHORT_SUM(float, short_sum_float)
SHORT_SUM(double, short_sum_double)

/* row_sum(row, itemsize): the sum of a contiguous row of float32 (itemsize 4, 8 lanes) or
 * float64 (itemsize 8, 4 lanes), as a Python float. */
PyObject *row_sum(PyObject *self, PyObject *args)
{
    Py_buffer row;
    Py_ssize_t itemsize;
    if (!PyArg_ParseTuple(args, "y*n", &row, &itemsize))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t lanes = itemsize == 4 ? 8 : 4, size = row.len / (itemsize ? itemsize : 1);
    if ((itemsize != 4 && itemsize != 8) || row.len % itemsize) {
        PyErr_SetString(PyExc_ValueError, "a row of float32 or float64");
        goto done;
    }
    if (size < lanes) { /* a loss of a few points, every step: no scratch, the GIL kept */
        result = PyFloat_FromDouble(itemsize == 4
                                        ? short_sum_float((const float *)row.buf, size)
                                        : short_sum_double((const double *)row.buf, size));
        goto done;
    }
    /* the block totals: a row of ILP vectors for every 16 such rows at most */
    void *scratch = PyMem_Malloc((size_t)(size / 16 + ILP * 8) * itemsize);
    if (!scratch) {
        PyErr_NoMemory();
        goto done;
    }
    double total;
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4)
        total = row_sum_float((const float *)row.buf, size, lanes, scratch);
    else
        total = row_sum_double((const double *)row.buf, size, lanes, scratch);
    Py_END_ALLOW_THREADS
    PyMem_Free(scratch);
    result = PyFloat_FromDouble(total);
done:
    PyBuffer_Release(&row);
    return result;
}
