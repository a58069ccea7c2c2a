/* torch's RowwiseMoments in float32, the mean and biased variance of each row that its
 * layer and group norms take, as _moments.py reproduces it in NumPy (that module is this
 * file's twin and says why each step rounds as it does): Welford's steps over 8-float
 * lanes in chunks of 16 vectors, the chunks merged pairwise by a carry stack, the
 * leftover elements one by one, then the 8 lanes merged into them. Each step is one IEEE
 * operation or an explicit fmaf (setup.py passes -ffp-contract=off), so the bits are the
 * same on every CPU and compiler. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#define MOMENT_LANES 8
#define MOMENT_CHUNK 16

typedef struct {
    Py_ssize_t count;
    float mean[MOMENT_LANES], square[MOMENT_LANES];
} LaneMoments;

/* a set of lanes merged into base, as torch's AddMomentsVec rounds it */
static inline __attribute__((always_inline)) void merge_lanes(const LaneMoments *add, LaneMoments *base)
{
    Py_ssize_t total = base->count + add->count;
    float share = (float)add->count / (float)(total > 0 ? total : 1);
    float weight = share * (float)base->count;
    for (int lane = 0; lane < MOMENT_LANES; lane++) {
        float delta = add->mean[lane] - base->mean[lane];
        float step = share * delta;
        float squares = base->square[lane] + add->square[lane];
        float spread = delta * weight;
        base->mean[lane] = base->mean[lane] + step;
        base->square[lane] = fmaf(delta, spread, squares);
    }
    base->count = total;
}

/* Welford's fused steps along one chunk's vectors */
static inline __attribute__((always_inline)) void welford_chunk(const float *values, Py_ssize_t vectors, LaneMoments *out)
{
    float *mean = out->mean, *square = out->square;
    for (int lane = 0; lane < MOMENT_LANES; lane++)
        mean[lane] = square[lane] = 0.0f;
    for (Py_ssize_t step = 0; step < vectors; step++) {
        float inverse = 1.0f / (float)(step + 1);
        const float *vector = values + step * MOMENT_LANES;
        for (int lane = 0; lane < MOMENT_LANES; lane++) {
            float delta = vector[lane] - mean[lane];
            mean[lane] = fmaf(delta, inverse, mean[lane]);
            square[lane] = fmaf(delta, vector[lane] - mean[lane], square[lane]);
        }
    }
    out->count = vectors;
}

/* the chunks of one row's whole vectors merged as torch's carry stack merges them: in
 * pairs level by level, what a level leaves over merged at the end from the lowest up */
static inline __attribute__((always_inline)) LaneMoments merged_chunks(const float *row, Py_ssize_t vectors, LaneMoments *chunks)
{
    Py_ssize_t count = 0;
    for (Py_ssize_t first = 0; first < vectors; first += MOMENT_CHUNK, count++) {
        Py_ssize_t size = vectors - first < MOMENT_CHUNK ? vectors - first : MOMENT_CHUNK;
        welford_chunk(row + first * MOMENT_LANES, size, &chunks[count]);
    }
    LaneMoments left_over[64];
    int levels_left = 0;
    while (count > 1) {
        if (count % 2)
            left_over[levels_left++] = chunks[--count];
        for (Py_ssize_t pair = 0; pair < count / 2; pair++) {
            LaneMoments base = chunks[2 * pair];
            merge_lanes(&chunks[2 * pair + 1], &base);
            chunks[pair] = base;
        }
        count /= 2;
    }
    if (!levels_left)
        return chunks[0];
    LaneMoments merged = left_over[0];
    for (int level = 1; level < levels_left; level++)
        merge_lanes(&left_over[level], &merged);
    merge_lanes(&chunks[0], &merged);
    return merged;
}

static inline __attribute__((always_inline)) void row_moments(const float *row, Py_ssize_t length, LaneMoments *chunks,
                        float *mean_out, float *variance_out)
{
    Py_ssize_t vectors = length / MOMENT_LANES, rest = length - vectors * MOMENT_LANES;
    float mean = 0.0f, square = 0.0f;
    for (Py_ssize_t step = 0; step < rest; step++) {
        float value = row[vectors * MOMENT_LANES + step];
        float delta = value - mean;
        mean = mean + delta / (float)(step + 1);
        square = square + delta * (value - mean);
    }
    if (vectors) {
        LaneMoments lanes = merged_chunks(row, vectors, chunks);
        Py_ssize_t count = rest;
        for (int lane = 0; lane < MOMENT_LANES; lane++) {  /* torch's scalar AddMoments */
            Py_ssize_t total = count + vectors;
            float share = (float)vectors / (float)total;
            float delta = lanes.mean[lane] - mean;
            float spread = (delta * delta) * share;
            mean = fmaf(share, delta, mean);
            square = square + fmaf(spread, (float)count, lanes.square[lane]);
            count = total;
        }
    }
    *mean_out = mean;
    *variance_out = square / (float)length;
}

/* a row normalised by its mean and 1/std, then scaled and shifted, as torch's scalar loop
 * rounds it (its compiler split the loop by case): with no weight, the shift is fused
 * into the scaling; with one, the normalised value is rounded, then fused with both */
static inline __attribute__((always_inline)) void normalized_row(
    const float *row, Py_ssize_t length, float mean, float rstd, const float *weight,
    const float *bias, float *out)
{
    for (Py_ssize_t i = 0; i < length; i++) {
        float shift = bias ? bias[i] : 0.0f, centred = row[i] - mean;
        out[i] = weight ? fmaf(centred * rstd, weight[i], shift) : fmaf(centred, rstd, shift);
    }
}

#define EACH_NORMALIZED_ROW                                                               \
    {                                                                                     \
        for (Py_ssize_t index = 0; index < count; index++)                                \
            normalized_row(rows + index * length, length, means[index], rstds[index],     \
                           weight, bias, out + index * length);                           \
    }

static void normalized_portable(const float *rows, Py_ssize_t count, Py_ssize_t length,
                                const float *means, const float *rstds, const float *weight,
                                const float *bias, float *out) EACH_NORMALIZED_ROW

#define EACH_ROW                                                                          \
    {                                                                                     \
        for (Py_ssize_t index = 0; index < count; index++)                                \
            row_moments(rows + index * length, length, chunks, means + index,             \
                        variances + index);                                               \
    }

static void rows_portable(const float *rows, Py_ssize_t count, Py_ssize_t length,
                          LaneMoments *chunks, float *means, float *variances) EACH_ROW

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_FMA_TARGET 1
/* the same steps where each fmaf is the FMA instruction (libm's may be a call when the
 * build's own target lacks it): one rounding either way, so the same bits */
__attribute__((target("avx2,fma"))) static void rows_fma(
    const float *rows, Py_ssize_t count, Py_ssize_t length, LaneMoments *chunks,
    float *means, float *variances) EACH_ROW

__attribute__((target("avx2,fma"))) static void normalized_fma(
    const float *rows, Py_ssize_t count, Py_ssize_t length, const float *means,
    const float *rstds, const float *weight, const float *bias, float *out)
    EACH_NORMALIZED_ROW
#endif

/* row_moments_f32(rows, length, mean, variance): each row's mean and biased variance of a
 * row-major float32 buffer of rows `length` long, into two float32 buffers (one a row) */
PyObject *row_moments_f32(PyObject *self, PyObject *args)
{
    Py_buffer rows, means, variances;
    Py_ssize_t length;
    if (!PyArg_ParseTuple(args, "y*nw*w*", &rows, &length, &means, &variances))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size = (Py_ssize_t)sizeof(float), count = means.len / size;
    LaneMoments *chunks = NULL;
    if (length <= 0 || means.len != variances.len || means.len % size ||
            rows.len != count * length * size) {
        PyErr_SetString(PyExc_ValueError, "rows of `length` float32, one mean and variance each");
        goto done;
    }
    chunks = PyMem_Malloc(sizeof(LaneMoments) * (size_t)(length / (MOMENT_LANES * MOMENT_CHUNK) + 1));
    if (!chunks) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_FMA_TARGET
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        rows_fma(rows.buf, count, length, chunks, means.buf, variances.buf);
    else
#endif
        rows_portable(rows.buf, count, length, chunks, means.buf, variances.buf);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(chunks);
    PyBuffer_Release(&rows);
    PyBuffer_Release(&means);
    PyBuffer_Release(&variances);
    return result;
}

/* layer_norm_rows_f32(rows, length, mean, rstd, weight, bias, out): torch's float32 layer
 * norm's second pass over row-major rows `length` long, with each row's mean and 1/std;
 * weight and bias hold `length` floats each, or are None */
PyObject *layer_norm_rows_f32(PyObject *self, PyObject *args)
{
    Py_buffer rows, means, rstds, weight, bias, out;
    Py_ssize_t length;
    if (!PyArg_ParseTuple(args, "y*ny*y*z*z*w*", &rows, &length, &means, &rstds, &weight,
                          &bias, &out))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t size = (Py_ssize_t)sizeof(float), count = means.len / size;
    if (length <= 0 || means.len != rstds.len || means.len % size || out.len != rows.len ||
            rows.len != count * length * size || (weight.buf && weight.len != length * size) ||
            (bias.buf && bias.len != length * size)) {
        PyErr_SetString(PyExc_ValueError, "rows of `length` float32, a mean and 1/std each, "
                        "weight and bias `length` long or None");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_FMA_TARGET
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        normalized_fma(rows.buf, count, length, means.buf, rstds.buf, weight.buf, bias.buf,
                       out.buf);
    else
#endif
        normalized_portable(rows.buf, count, length, means.buf, rstds.buf, weight.buf,
                            bias.buf, out.buf);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&means);
    PyBuffer_Release(&rstds);
    PyBuffer_Release(&weight);
    PyBuffer_Release(&bias);
    PyBuffer_Release(&out);
    return result;
}
