/* log_softmax of float32 rows along their last dimension, and its backward, as torch's
 * AVX2/AVX-512 kernels compute them (_vec_log_softmax_lastdim, _vec_log_softmax_backward):
 * each row's largest value taken off, Sleef's expf of the differences, their sum added lane
 * by lane in vectors of ``lanes`` floats then the lanes halved onto each other (fewer than a
 * vector: one by one), Sleef's log of the sums from torch's library (found by _vml.py); the
 * backward's grad - e^result Σ grad in one fused multiply-add. _summation_order.py and
 * _kernel_exp.py hold the same steps in NumPy, which a classifier's step of a few rows spent
 * some 40 µs in (tests/npgrad/test_softmax_rows.py holds the two equal).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

void sleef_exps(const float *in, float *out, Py_ssize_t n); /* _kernels.c */
int map_float_vectors(void *function, int bytes, const float *in, float *out, Py_ssize_t n);

/* A row's sum as torch's softmax kernels add it (_summation_order.softmax_sums): from +0,
 * so that a sum of -0s is +0. ``lane`` holds ``lanes`` floats of scratch. */
static float row_sum_in_lanes(const float *row, Py_ssize_t length, int lanes, float *lane)
{
    if (length < lanes) {
        float total = row[0];
        for (Py_ssize_t i = 1; i < length; i++)
            total = total + row[i];
        return total + 0.0f;
    }
    Py_ssize_t whole = length / lanes * lanes;
    for (int l = 0; l < lanes; l++)
        lane[l] = row[l];
    for (Py_ssize_t start = lanes; start < whole; start += lanes)
        for (int l = 0; l < lanes; l++)
            lane[l] = lane[l] + row[start + l];
    for (Py_ssize_t l = 0; l < length - whole; l++)
        lane[l] = lane[l] + row[whole + l];
    for (int width = lanes / 2; width >= 1; width /= 2) /* (vec_reduce_all's shuffles) */
        for (int l = 0; l < width; l++)
            lane[l] = lane[l] + lane[l + width];
    return lane[0] + 0.0f;
}

/* The row's largest value; NaN where it has one (as NumPy's max). */
static float row_max(const float *row, Py_ssize_t length)
{
    float largest = row[0];
    for (Py_ssize_t i = 1; i < length; i++)
        if (row[i] > largest || isnan(row[i]))
            largest = row[i];
    return largest;
}

static int lanes_supported(int lanes)
{
    if (lanes == 8 || lanes == 16)
        return 1;
    PyErr_SetString(PyExc_ValueError, "8 or 16 lanes expected");
    return 0;
}

/* ``count`` rows of ``length`` floats in each of the buffers, which are float32 ones of one
 * length; a ValueError set where they are not. */
static int rows_of(Py_ssize_t length, Py_ssize_t *count, Py_buffer *const *buffers, int many)
{
    Py_ssize_t bytes = buffers[0]->len;
    int same = length > 0 && bytes > 0 && bytes % ((Py_ssize_t)sizeof(float) * length) == 0;
    for (int k = 0; same && k < many; k++)
        same = buffers[k]->len == bytes;
    if (!same) {
        PyErr_SetString(PyExc_ValueError, "float32 buffers of one length, whole rows expected");
        return 0;
    }
    *count = bytes / (Py_ssize_t)sizeof(float) / length;
    return 1;
}

/* Rows of differences from the row's largest into ``out`` and each row's log of the sum of
 * their exponentials into ``logs`` (each sum written there first, its log over it); 0 where
 * there is no memory or the log's vectors are not this CPU's. */
static int shifted_and_logs(const float *in, float *out, Py_ssize_t count, Py_ssize_t length,
                            int lanes, void *log, int log_bytes, float *logs)
{
    float *exps = malloc(sizeof(float) * (size_t)length);
    float lane[16];
    if (exps == NULL)
        return 0;
    for (Py_ssize_t r = 0; r < count; r++) {
        const float *row = in + r * length;
        float *shifted = out + r * length;
        float largest = row_max(row, length);
        for (Py_ssize_t i = 0; i < length; i++)
            shifted[i] = row[i] - largest;
        sleef_exps(shifted, exps, length);
        logs[r] = row_sum_in_lanes(exps, length, lanes, lane);
    }
    free(exps);
    return map_float_vectors(log, log_bytes, logs, logs, count); /* (lane by lane: in place) */
}

/* log_softmax_rows_f32(rows, length, lanes, log_address, log_bytes, out): rows of
 * ``length`` float32 values (contiguous) into out; False, out unspecified, where this CPU
 * lacks the log's vectors. */
PyObject *log_softmax_rows_f32(PyObject *self, PyObject *args)
{
    Py_ssize_t length;
    int lanes, log_bytes;
    unsigned long long log_address;
    Py_buffer rows, out;
    if (!PyArg_ParseTuple(args, "y*niKiw*", &rows, &length, &lanes, &log_address, &log_bytes,
                          &out))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t count;
    Py_buffer *buffers[2] = {&rows, &out};
    if (!lanes_supported(lanes) || !rows_of(length, &count, buffers, 2))
        goto done;
    float *logs = malloc(sizeof(float) * (size_t)count);
    if (logs == NULL) {
        result = PyErr_NoMemory();
        goto done;
    }
    int computed;
    Py_BEGIN_ALLOW_THREADS
    computed = shifted_and_logs(rows.buf, out.buf, count, length, lanes,
                                (void *)(uintptr_t)log_address, log_bytes, logs);
    float *values = out.buf;
    for (Py_ssize_t r = 0; computed && r < count; r++)
        for (Py_ssize_t i = 0; i < length; i++)
            values[r * length + i] = values[r * length + i] - logs[r];
    Py_END_ALLOW_THREADS
    free(logs);
    result = PyBool_FromLong(computed);
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&out);
    return result;
}

/* log_softmax_grad_rows_f32(grad, result, length, lanes, out): grad - e^result Σ grad of
 * each row (the sum in lanes, e^x Sleef's), one fused multiply-add, into out. */
PyObject *log_softmax_grad_rows_f32(PyObject *self, PyObject *args)
{
    Py_ssize_t length;
    int lanes;
    Py_buffer grad, output, out;
    if (!PyArg_ParseTuple(args, "y*y*niw*", &grad, &output, &length, &lanes, &out))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t count;
    Py_buffer *buffers[3] = {&grad, &output, &out};
    if (!lanes_supported(lanes) || !rows_of(length, &count, buffers, 3))
        goto done;
    float *exps = malloc(sizeof(float) * (size_t)length);
    if (exps == NULL) {
        result = PyErr_NoMemory();
        goto done;
    }
    const float *grads = grad.buf, *results = output.buf;
    float *values = out.buf, lane[16];
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < count; r++) {
        const float *row = grads + r * length;
        float total = row_sum_in_lanes(row, length, lanes, lane);
        sleef_exps(results + r * length, exps, length);
        for (Py_ssize_t i = 0; i < length; i++)
            values[r * length + i] = fmaf(-exps[i], total, row[i]);
    }
    Py_END_ALLOW_THREADS
    free(exps);
    result = Py_NewRef(Py_True);
done:
    PyBuffer_Release(&grad);
    PyBuffer_Release(&output);
    PyBuffer_Release(&out);
    return result;
}
