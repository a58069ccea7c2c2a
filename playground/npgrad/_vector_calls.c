/* Calls of one of torch's own vector functions (Sleef's logf8_u10 and the like, which
 * torch's AVX2 and AVX-512 kernels run on their vectors; found in torch's library by _vml.py)
 * over a buffer: a vector of lanes per call, a last partial one padded with zeros as torch's
 * vec::map loads it. Such a function takes and returns its vector in a register, which ctypes
 * cannot pass; hence this module. Without it (or without torch) the engine rounds once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_VECTOR_CALLS 1

typedef __m256 (*floats8)(__m256);
typedef __m256d (*doubles4)(__m256d);
typedef __m512 (*floats16)(__m512);
typedef __m512d (*doubles8)(__m512d);
typedef __m256 (*floats8_2)(__m256, __m256);
typedef __m256d (*doubles4_2)(__m256d, __m256d);
typedef __m512 (*floats16_2)(__m512, __m512);
typedef __m512d (*doubles8_2)(__m512d, __m512d);

/* a function of two vectors (pow) over two buffers, lane by lane */
#define MAP2(NAME, TARGET, TYPE, VECTOR, LANES, LOAD, STORE)                                  \
    __attribute__((target(TARGET))) static void NAME(void *function, const TYPE *a,          \
                                                     const TYPE *b, TYPE *out, Py_ssize_t n)  \
    {                                                                                         \
        VECTOR call = (VECTOR)function;                                                       \
        Py_ssize_t i = 0;                                                                     \
        for (; i + LANES <= n; i += LANES)                                                    \
            STORE(out + i, call(LOAD(a + i), LOAD(b + i)));                                   \
        if (i < n) {                                                                          \
            TYPE first[LANES] = {0}, second[LANES] = {0}, done[LANES];                        \
            memcpy(first, a + i, (size_t)(n - i) * sizeof(TYPE));                             \
            memcpy(second, b + i, (size_t)(n - i) * sizeof(TYPE));                            \
            STORE(done, call(LOAD(first), LOAD(second)));                                     \
            memcpy(out + i, done, (size_t)(n - i) * sizeof(TYPE));                            \
        }                                                                                     \
    }

MAP2(map2_floats8, "avx2", float, floats8_2, 8, _mm256_loadu_ps, _mm256_storeu_ps)
MAP2(map2_doubles4, "avx2", double, doubles4_2, 4, _mm256_loadu_pd, _mm256_storeu_pd)
MAP2(map2_floats16, "avx512f", float, floats16_2, 16, _mm512_loadu_ps, _mm512_storeu_ps)
MAP2(map2_doubles8, "avx512f", double, doubles8_2, 8, _mm512_loadu_pd, _mm512_storeu_pd)

/* a function of one vector over a buffer, a vector at a time */
#define MAP1(NAME, TARGET, TYPE, VECTOR, LANES, LOAD, STORE)                                  \
    __attribute__((target(TARGET))) static void NAME(void *function, const TYPE *in,         \
                                                     TYPE *out, Py_ssize_t n)                 \
    {                                                                                         \
        VECTOR call = (VECTOR)function;                                                       \
        Py_ssize_t i = 0;                                                                     \
        for (; i + LANES <= n; i += LANES)                                                    \
            STORE(out + i, call(LOAD(in + i)));                                               \
        if (i < n) {                                                                          \
            TYPE padded[LANES] = {0}, done[LANES];                                            \
            memcpy(padded, in + i, (size_t)(n - i) * sizeof(TYPE));                           \
            STORE(done, call(LOAD(padded)));                                                  \
            memcpy(out + i, done, (size_t)(n - i) * sizeof(TYPE));                            \
        }                                                                                     \
    }

MAP1(map_floats8, "avx2", float, floats8, 8, _mm256_loadu_ps, _mm256_storeu_ps)
MAP1(map_doubles4, "avx2", double, doubles4, 4, _mm256_loadu_pd, _mm256_storeu_pd)
MAP1(map_floats16, "avx512f", float, floats16, 16, _mm512_loadu_ps, _mm512_storeu_ps)
MAP1(map_doubles8, "avx512f", double, doubles8, 8, _mm512_loadu_pd, _mm512_storeu_pd)
#endif

/* One of torch's float32 vector functions (``bytes``: 32, AVX2's; 64, AVX-512's) over ``n``
 * floats, as vector_map below; 0 where this build or CPU has no such vectors (softmax's
 * rows: _softmax_rows.c). */
int map_float_vectors(void *function, int bytes, const float *in, float *out, Py_ssize_t n)
{
#ifdef HAVE_VECTOR_CALLS
    if (bytes == 32 && __builtin_cpu_supports("avx2")) {
        map_floats8(function, in, out, n);
        return 1;
    }
    if (bytes == 64 && __builtin_cpu_supports("avx512f")) {
        map_floats16(function, in, out, n);
        return 1;
    }
#endif
    return 0;
}

static int supported(int bytes, int itemsize, unsigned long long address)
{
    if ((itemsize != 4 && itemsize != 8) || (bytes != 32 && bytes != 64) || address == 0) {
        PyErr_SetString(PyExc_ValueError, "a function, 32 or 64 bytes and 4 or 8 bytes an "
                        "item expected");
        return 0;
    }
#ifdef HAVE_VECTOR_CALLS
    if (bytes == 64 ? !__builtin_cpu_supports("avx512f") : !__builtin_cpu_supports("avx2")) {
        PyErr_SetString(PyExc_RuntimeError, "this CPU has no vectors of that size");
        return 0;
    }
    return 1;
#else
    PyErr_SetString(PyExc_RuntimeError, "vector calls need an x86-64 build with GCC or Clang");
    return 0;
#endif
}

/* Whether buffers of these lengths (in bytes) are all of one length, a whole number of
 * items of ``itemsize``; a ValueError set where they are not. */
static int whole_items_of_one_length(int itemsize, Py_ssize_t first, Py_ssize_t second,
                                     Py_ssize_t third)
{
    if (first == second && second == third && first % itemsize == 0)
        return 1;
    PyErr_SetString(PyExc_ValueError, "buffers of one length of whole items expected");
    return 0;
}

/* vector_map2(address, bytes, itemsize, first, second, destination): a function of two
 * vectors (pow) over two buffers, lane by lane, into a third; all of one length. */
PyObject *vector_map2(PyObject *self, PyObject *args)
{
    unsigned long long address;
    int bytes, itemsize;
    Py_buffer first, second, destination;
    if (!PyArg_ParseTuple(args, "Kiiy*y*w*", &address, &bytes, &itemsize, &first, &second,
                          &destination))
        return NULL;
    PyObject *result = NULL;
    if (!supported(bytes, itemsize, address))
        goto done;
    if (!whole_items_of_one_length(itemsize, first.len, second.len, destination.len))
        goto done;
#ifdef HAVE_VECTOR_CALLS
    Py_ssize_t count = destination.len / itemsize;
    void *function = (void *)(uintptr_t)address;
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4 && bytes == 32)
        map2_floats8(function, first.buf, second.buf, destination.buf, count);
    else if (itemsize == 8 && bytes == 32)
        map2_doubles4(function, first.buf, second.buf, destination.buf, count);
    else if (itemsize == 4)
        map2_floats16(function, first.buf, second.buf, destination.buf, count);
    else
        map2_doubles8(function, first.buf, second.buf, destination.buf, count);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
#endif
done:
    PyBuffer_Release(&first);
    PyBuffer_Release(&second);
    PyBuffer_Release(&destination);
    return result;
}

/* vector_map(address, bytes, itemsize, source, destination): the function at ``address``,
 * which takes and returns one vector of ``bytes`` (32: AVX2, 64: AVX-512) of float32
 * (itemsize 4) or float64 (8), over a contiguous buffer into another of its length. */
PyObject *vector_map(PyObject *self, PyObject *args)
{
    unsigned long long address;
    int bytes, itemsize;
    Py_buffer source, destination;
    if (!PyArg_ParseTuple(args, "Kiiy*w*", &address, &bytes, &itemsize, &source, &destination))
        return NULL;
    PyObject *result = NULL;
    if (!supported(bytes, itemsize, address))
        goto done;
    if (!whole_items_of_one_length(itemsize, source.len, destination.len, destination.len))
        goto done;
#ifdef HAVE_VECTOR_CALLS
    Py_ssize_t count = source.len / itemsize;
    void *function = (void *)(uintptr_t)address;
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 4) /* (supported: this CPU has the vectors) */
        map_float_vectors(function, bytes, source.buf, destination.buf, count);
    else if (bytes == 32)
        map_doubles4(function, source.buf, destination.buf, count);
    else
        map_doubles8(function, source.buf, destination.buf, count);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
#endif
done:
    PyBuffer_Release(&source);
    PyBuffer_Release(&destination);
    return result;
}

/* vml_map(address, mode, itemsize, source, destination, one_thread=0): MKL's vector function
 * at ``address`` (vmsSin and the like, as torch's vml.h calls them: void f(MKL_INT n, const
 * T *a, T *r, MKL_INT64 mode), MKL_INT a C int) over a contiguous buffer into another of its
 * length, in calls of at most INT_MAX items. ``one_thread``: MKL_Set_Num_Threads_Local's
 * address, with which the calls run on this thread alone, as torch's (inside its own
 * parallel_for) do: left to itself MKL wakes its OpenMP team for a large call, whose threads
 * then spin on a core for milliseconds, and a chain of million-float ops around such calls
 * ran in 1.3x its time. _vml.vector_math makes the same calls through ctypes where this
 * module is not built; ctypes costs some 4 µs a call, a 2x2 tensor's whole op. */
typedef void (*vml_function)(int, const void *, void *, long long);
typedef int (*threads_setter)(int);

PyObject *vml_map(PyObject *self, PyObject *args)
{
    unsigned long long address, mode, one_thread = 0;
    int itemsize;
    Py_buffer source, destination;
    if (!PyArg_ParseTuple(args, "KKiy*w*|K", &address, &mode, &itemsize, &source, &destination,
                          &one_thread))
        return NULL;
    PyObject *result = NULL;
    if (address == 0 || (itemsize != 4 && itemsize != 8)) {
        PyErr_SetString(PyExc_ValueError, "a function and 4 or 8 bytes an item expected");
        goto done;
    }
    if (!whole_items_of_one_length(itemsize, source.len, destination.len, destination.len))
        goto done;
    vml_function call = (vml_function)(uintptr_t)address;
    threads_setter set_threads = (threads_setter)(uintptr_t)one_thread;
    Py_ssize_t count = source.len / itemsize;
    const char *in = source.buf;
    char *out = destination.buf;
    Py_BEGIN_ALLOW_THREADS
    int previous = set_threads ? set_threads(1) : 0;
    for (Py_ssize_t start = 0; start < count; start += INT_MAX) {
        Py_ssize_t n = count - start < INT_MAX ? count - start : INT_MAX;
        call((int)n, in + start * itemsize, out + start * itemsize, (long long)mode);
    }
    if (set_threads)
        set_threads(previous); /* (MKL's other calls on this thread, its BLAS's, as before) */
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&source);
    PyBuffer_Release(&destination);
    return result;
}

/* libm_pow(itemsize, bases, exponents, destination, widened): the C library's pow of each
 * pair, as torch's scalar loop computes it (the tail after its vector body, and all of it
 * under ATEN_CPU_CAPABILITY=default): std::pow(float, float), that is powf, of float32
 * pairs, pow of float64 ones; ``widened``: float32 bases to float64 exponents in double,
 * rounded once (torch's x ** number: std::pow(float, double)). NumPy's power is not this
 * where it dispatches to SVML (AVX-512), and powf is not pow rounded once. */
PyObject *libm_pow(PyObject *self, PyObject *args)
{
    int itemsize, widened;
    Py_buffer bases, exponents, destination;
    if (!PyArg_ParseTuple(args, "iy*y*w*p", &itemsize, &bases, &exponents, &destination,
                          &widened))
        return NULL;
    PyObject *result = NULL;
    if (itemsize != 4 && itemsize != 8) {
        PyErr_SetString(PyExc_ValueError, "4 or 8 bytes an item expected");
        goto done;
    }
    if (!whole_items_of_one_length(itemsize, bases.len, destination.len, destination.len))
        goto done;
    Py_ssize_t count = bases.len / itemsize;
    if (exponents.len != count * (widened ? 8 : itemsize)) {
        PyErr_SetString(PyExc_ValueError, "an exponent for each base expected");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    if (itemsize == 8) {
        const double *base = bases.buf, *exponent = exponents.buf;
        double *out = destination.buf;
        for (Py_ssize_t i = 0; i < count; i++)
            out[i] = pow(base[i], exponent[i]);
    } else if (widened) {
        const float *base = bases.buf;
        const double *exponent = exponents.buf;
        float *out = destination.buf;
        for (Py_ssize_t i = 0; i < count; i++)
            out[i] = (float)pow((double)base[i], exponent[i]);
    } else {
        const float *base = bases.buf, *exponent = exponents.buf;
        float *out = destination.buf;
        for (Py_ssize_t i = 0; i < count; i++)
            out[i] = powf(base[i], exponent[i]);
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&bases);
    PyBuffer_Release(&exponents);
    PyBuffer_Release(&destination);
    return result;
}
