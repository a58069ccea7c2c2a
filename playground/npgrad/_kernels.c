/* torch's float32 kernels' own arithmetic where NumPy cannot do it at speed: Sleef's expf,
 * which torch's AVX2 and AVX-512 sigmoid and silu run on their vector loop's elements, and
 * the fused multiply-add that torch's add(alpha=), lerp and addcmul kernels compute.
 *
 * Optional: _kernel_exp.py and _numerics.py hold the same in NumPy (fused multiply-adds
 * emulated in float64), run it when this module did not build, and the tests compare both
 * bit for bit. Each step
 * is one float32 operation rounded once, as Sleef's vector code does it: multiply-adds fused
 * (fmaf, the FMA instruction where the CPU has one), nothing else contracted
 * (-ffp-contract=off, set by setup.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define LOG2_E 1.442695040888963407359924681001892137426645954152985934135449406931f
#define LN2_HIGH 0.693145751953125f
#define LN2_LOW 1.428606765330187045e-06f

/* 2^q as a float (q within the normal exponents' range) */
static inline float power_of_two(int q)
{
    uint32_t bits = (uint32_t)(q + 127) << 23;
    float result;
    memcpy(&result, &bits, sizeof result);
    return result;
}

/* Sleef's expf: e^d = 2^q e^s with q = rint(d log2 e) and s = d - q ln2 in two fused steps,
 * e^s from a minimax polynomial by fused multiply-adds; 0 below -104, inf above 100 (d is
 * clamped first, as the vector code below does, so that q stays an int). */
#define SLEEF_EXPF_BODY(FMA, RINT)                                                          \
    {                                                                                       \
        float x = d < -104.0f ? -104.0f : d > 100.0f ? 100.0f : d;                         \
        x = x == x ? x : 0.0f;                                                              \
        int q = (int)RINT(x * LOG2_E);                                                      \
        float steps = (float)q;                                                             \
        float s = FMA(steps, -LN2_HIGH, x);                                                 \
        s = FMA(steps, -LN2_LOW, s);                                                        \
        float u = 0.000198527617612853646278381f;                                           \
        u = FMA(u, s, 0.00139304355252534151077271f);                                       \
        u = FMA(u, s, 0.00833336077630519866943359f);                                       \
        u = FMA(u, s, 0.0416664853692054748535156f);                                        \
        u = FMA(u, s, 0.166666671633720397949219f);                                         \
        u = FMA(u, s, 0.5f);                                                                \
        u = 1.0f + FMA(s * s, u, s);                                                        \
        /* 2^q in two exact halves, as Sleef's ldexp2: one rounding, at the second */       \
        u = u * power_of_two(q >> 1) * power_of_two(q - (q >> 1));                          \
        u = d < -104.0f ? 0.0f : u;                                                         \
        u = d > 100.0f ? INFINITY : u;                                                      \
        return d == d ? u : d;                                                              \
    }

static float expf_portable(float d) SLEEF_EXPF_BODY(fmaf, rintf)

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HAVE_AVX2_TARGET 1

__attribute__((target("avx2,fma"))) static inline float expf_fma(float d)
    SLEEF_EXPF_BODY(__builtin_fmaf, __builtin_rintf)

/* The same eight at a time in AVX2 registers, as Sleef's AVX2 build (cvtps rounds to nearest
 * even; max/min take the clamp's bound where d is NaN, the last blend puts NaN back). */
__attribute__((target("avx2,fma"))) static void exps_avx2(const float *in, float *out,
                                                          Py_ssize_t n)
{
    static const float polynomial[] = {0.00139304355252534151077271f,
                                       0.00833336077630519866943359f,
                                       0.0416664853692054748535156f,
                                       0.166666671633720397949219f, 0.5f};
    const __m256 low = _mm256_set1_ps(-104.0f), high = _mm256_set1_ps(100.0f);
    const __m256i bias = _mm256_set1_epi32(127);
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 d = _mm256_loadu_ps(in + i);
        __m256 x = _mm256_min_ps(_mm256_max_ps(d, low), high);
        __m256i q = _mm256_cvtps_epi32(_mm256_mul_ps(x, _mm256_set1_ps(LOG2_E)));
        __m256 steps = _mm256_cvtepi32_ps(q);
        __m256 s = _mm256_fmadd_ps(steps, _mm256_set1_ps(-LN2_HIGH), x);
        s = _mm256_fmadd_ps(steps, _mm256_set1_ps(-LN2_LOW), s);
        __m256 u = _mm256_set1_ps(0.000198527617612853646278381f);
        for (int c = 0; c < 5; c++)
            u = _mm256_fmadd_ps(u, s, _mm256_set1_ps(polynomial[c]));
        u = _mm256_add_ps(_mm256_set1_ps(1.0f), _mm256_fmadd_ps(_mm256_mul_ps(s, s), u, s));
        __m256i half = _mm256_srai_epi32(q, 1);
        __m256 first = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(half, bias), 23));
        __m256 second = _mm256_castsi256_ps(
            _mm256_slli_epi32(_mm256_add_epi32(_mm256_sub_epi32(q, half), bias), 23));
        u = _mm256_mul_ps(_mm256_mul_ps(u, first), second);
        u = _mm256_blendv_ps(u, _mm256_setzero_ps(), _mm256_cmp_ps(d, low, _CMP_LT_OQ));
        u = _mm256_blendv_ps(u, _mm256_set1_ps(INFINITY), _mm256_cmp_ps(d, high, _CMP_GT_OQ));
        u = _mm256_blendv_ps(u, d, _mm256_cmp_ps(d, d, _CMP_UNORD_Q));
        _mm256_storeu_ps(out + i, u);
    }
    for (; i < n; i++)
        out[i] = expf_fma(in[i]);
}
#endif

static void exps_portable(const float *in, float *out, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = expf_portable(in[i]);
}

/* Sleef's expf of ``n`` floats, as sleef_expf below (softmax's rows: _softmax_rows.c). */
void sleef_exps(const float *in, float *out, Py_ssize_t n)
{
#ifdef HAVE_AVX2_TARGET
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        exps_avx2(in, out, n);
        return;
    }
#endif
    exps_portable(in, out, n);
}

/* sleef_expf(source, destination): e^x of each float32 of source into destination (two
 * contiguous buffers of the same length; destination writable). */
static PyObject *sleef_expf(PyObject *self, PyObject *args)
{
    Py_buffer source, destination;
    if (!PyArg_ParseTuple(args, "y*w*", &source, &destination))
        return NULL;
    PyObject *result = NULL;
    if (source.len != destination.len || source.len % (Py_ssize_t)sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "two float32 buffers of one length expected");
        goto done;
    }
    Py_ssize_t count = source.len / (Py_ssize_t)sizeof(float);
    Py_BEGIN_ALLOW_THREADS
    sleef_exps((const float *)source.buf, (float *)destination.buf, count);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&source);
    PyBuffer_Release(&destination);
    return result;
}

/* a[i] * b[i] + c[i] rounded once; an operand of one element is the same for every i */
static void fmas_portable(const float *a, const float *b, const float *c, float *out,
                          Py_ssize_t n, Py_ssize_t sa, Py_ssize_t sb, Py_ssize_t sc)
{
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = fmaf(a[i * sa], b[i * sb], c[i * sc]);
}

#ifdef HAVE_AVX2_TARGET
/* the same with the FMA instruction (libm's fmaf may be a call where the build's target
 * lacks it): one rounding either way */
__attribute__((target("avx2,fma"))) static void fmas_fma(const float *a, const float *b,
                                                         const float *c, float *out,
                                                         Py_ssize_t n, Py_ssize_t sa,
                                                         Py_ssize_t sb, Py_ssize_t sc)
{
    /* the usual shapes in loops of their own, which the compiler turns into vector code */
    if (sa && sb && sc) {
        for (Py_ssize_t i = 0; i < n; i++)
            out[i] = __builtin_fmaf(a[i], b[i], c[i]);
    } else if (sa && sb) {
        const float z = c[0];
        for (Py_ssize_t i = 0; i < n; i++)
            out[i] = __builtin_fmaf(a[i], b[i], z);
    } else {
        for (Py_ssize_t i = 0; i < n; i++)
            out[i] = __builtin_fmaf(a[i * sa], b[i * sb], c[i * sc]);
    }
}
#endif

/* fma_f32(a, b, c, out): a * b + c of float32 buffers rounded once into out; a, b and c
 * hold as many floats as out, or one. */
static PyObject *fma_f32(PyObject *self, PyObject *args)
{
    Py_buffer a, b, c, out;
    if (!PyArg_ParseTuple(args, "y*y*y*w*", &a, &b, &c, &out))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t n = out.len / (Py_ssize_t)sizeof(float), size = (Py_ssize_t)sizeof(float);
    Py_buffer *operands[] = {&a, &b, &c};
    Py_ssize_t steps[3];
    if (out.len % size) {
        PyErr_SetString(PyExc_ValueError, "a float32 buffer expected for out");
        goto done;
    }
    for (int k = 0; k < 3; k++) {
        if (operands[k]->len != out.len && operands[k]->len != size) {
            PyErr_SetString(PyExc_ValueError, "operands of out's length, or of one float32");
            goto done;
        }
        steps[k] = operands[k]->len == out.len ? 1 : 0;
    }
    Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_AVX2_TARGET
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        fmas_fma(a.buf, b.buf, c.buf, out.buf, n, steps[0], steps[1], steps[2]);
    else
#endif
        fmas_portable(a.buf, b.buf, c.buf, out.buf, n, steps[0], steps[1], steps[2]);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < 3; k++)
        PyBuffer_Release(operands[k]);
    PyBuffer_Release(&out);
    return result;
}

PyObject *split_arith(PyObject *self, PyObject *args); /* _split_pool.c */
PyObject *split_rest(PyObject *self, PyObject *unused);
PyObject *row_moments_f32(PyObject *self, PyObject *args); /* _row_moments.c */
PyObject *layer_norm_rows_f32(PyObject *self, PyObject *args);
PyObject *row_sum(PyObject *self, PyObject *args); /* _row_sum.c */
PyObject *vector_map(PyObject *self, PyObject *args); /* _vector_calls.c */
PyObject *vector_map2(PyObject *self, PyObject *args);
PyObject *vml_map(PyObject *self, PyObject *args);
PyObject *libm_pow(PyObject *self, PyObject *args);
PyObject *gemm_product(PyObject *self, PyObject *args); /* _blas_calls.c */
PyObject *log_softmax_rows_f32(PyObject *self, PyObject *args); /* _softmax_rows.c */
PyObject *log_softmax_grad_rows_f32(PyObject *self, PyObject *args);
PyObject *open_library(PyObject *self, PyObject *args); /* _library_open.c */

static PyMethodDef methods[] = {
    {"sleef_expf", sleef_expf, METH_VARARGS,
     "sleef_expf(source, destination): Sleef's expf of each float32, as torch's kernels"},
    {"fma_f32", fma_f32, METH_VARARGS,
     "fma_f32(a, b, c, out): a * b + c rounded once, float32 (an operand may be one float)"},
    {"split_arith", split_arith, METH_VARARGS,
     "split_arith(op, itemsize, a, b, out, workers): large float arithmetic on every core"},
    {"split_rest", split_rest, METH_NOARGS,
     "split_rest(): split_arith's threads sleep now (other threads need the cores)"},
    {"row_moments_f32", row_moments_f32, METH_VARARGS,
     "row_moments_f32(rows, length, mean, variance): torch's float32 row moments"},
    {"layer_norm_rows_f32", layer_norm_rows_f32, METH_VARARGS,
     "layer_norm_rows_f32(rows, length, mean, rstd, weight, bias, out): its second pass"},
    {"row_sum", row_sum, METH_VARARGS,
     "row_sum(row, itemsize): a float32 or float64 row's sum, added as torch's cascade_sum"},
    {"vector_map", vector_map, METH_VARARGS,
     "vector_map(address, bytes, itemsize, source, destination): a vector function of "
     "torch's (Sleef's) over a buffer"},
    {"vector_map2", vector_map2, METH_VARARGS,
     "vector_map2(address, bytes, itemsize, first, second, destination): a vector function of "
     "two vectors (Sleef's pow) over two buffers"},
    {"vml_map", vml_map, METH_VARARGS,
     "vml_map(address, mode, itemsize, source, destination, one_thread=0): one of MKL's "
     "vector functions "
     "(torch's) over a buffer"},
    {"libm_pow", libm_pow, METH_VARARGS,
     "libm_pow(itemsize, bases, exponents, destination, widened): the C library's pow of "
     "each pair, as torch's scalar loop"},
    {"gemm_product", gemm_product, METH_VARARGS,
     "gemm_product(address, mat1, mat2, result, alpha, beta): one call of torch's gemm, with "
     "the arguments its addmm derives from the strides; False where an operand needs a copy"},
    {"log_softmax_rows_f32", log_softmax_rows_f32, METH_VARARGS,
     "log_softmax_rows_f32(rows, length, lanes, log_address, log_bytes, out): torch's float32 "
     "log_softmax along rows"},
    {"log_softmax_grad_rows_f32", log_softmax_grad_rows_f32, METH_VARARGS,
     "log_softmax_grad_rows_f32(grad, result, length, lanes, out): its backward kernel"},
    {"open_library", open_library, METH_VARARGS,
     "open_library(path): a shared library's dlopen handle, loaded with the GIL released"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernels",
    "torch's float32 kernels' own arithmetic in C; _kernel_exp.py and _numerics.py hold the "
    "same in NumPy.",
    -1, methods,
};

PyMODINIT_FUNC PyInit__kernels(void)
{
    PyObject *created = PyModule_Create(&module);
    /* _compiled.KERNELS_API: Python ignores a build whose functions it does not expect */
    if (created && PyModule_AddIntConstant(created, "API", 13) < 0)
        Py_CLEAR(created);
    return created;
}
