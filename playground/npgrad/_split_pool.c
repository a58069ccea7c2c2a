/* Large float add, subtract, multiply, divide and negate on every core, with threads that
 * stay awake between ops, as torch's OpenMP threads do; and tanh's gradient, grad * (1 - y²)
 * in one pass, as torch's tanh_backward kernel (one fused multiply-add, then a multiply).
 *
 * _parallel.py splits such an op between Python threads; each hand-over wakes a sleeping
 * thread (30-70 µs on a virtual machine, against 130 µs for a whole multiply of a million
 * floats), so a split multiply took 105 µs where torch's took 71. Here the workers look for
 * the next op for SPIN_NS before they sleep (less where other threads want their cores),
 * and every thread, the caller's too, takes the op's chunks one at a time until none is
 * left (the caller from the front, the workers from the back): a worker that is late takes
 * fewer, and none is waited for. Each element is one IEEE operation, correctly rounded
 * whatever the code around it (no contraction: setup.py
 * passes -ffp-contract=off; tanh's gradient's fused multiply-add is an explicit fma, one
 * rounding as its NumPy twin's), so the result is
 * NumPy's bit for bit (tests/npgrad/test_split_pool.py compares them), but for one thing no
 * one fixes: where both operands are NaN, which of the two NaNs (sign, payload) comes out,
 * which depends on the order the machine code takes them in (NumPy's own loops differ there:
 * its float64 array + scalar gives the scalar's, its array + array the first array's).
 * _parallel.py is the twin where this did not build.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

/* float32 arithmetic must be float32's (x87's excess precision would round otherwise) */
#if (defined(__unix__) || defined(__APPLE__)) && defined(__GNUC__) && FLT_EVAL_METHOD == 0 && \
    !defined(__STDC_NO_ATOMICS__)
#define HAVE_POOL 1
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define SPIN_PAUSE() _mm_pause()
#elif defined(__aarch64__)
#define SPIN_PAUSE() __asm__ __volatile__("yield")
#else
#define SPIN_PAUSE() ((void)0)
#endif
#endif

enum { OP_ADD, OP_SUBTRACT, OP_MULTIPLY, OP_DIVIDE, OP_NEGATE, OP_TANH_GRAD };

/* out[i] = EXPR for every i; out is either one of the operands or apart from both
 * (split_arith checks), so the vector loop needs no overlap test (the compiler is told) */
#if defined(__clang__)
#define NO_OVERLAP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define NO_OVERLAP _Pragma("GCC ivdep")
#else
#define NO_OVERLAP
#endif
#define LOOP(EXPR) NO_OVERLAP for (Py_ssize_t i = 0; i < n; i++) out[i] = (EXPR)
#define OPS(X, Y, FMA)                                                                      \
    switch (op) {                                                                           \
    case OP_ADD: LOOP(X + Y); break;                                                        \
    case OP_SUBTRACT: LOOP(X - Y); break;                                                   \
    case OP_MULTIPLY: LOOP(X * Y); break;                                                   \
    case OP_DIVIDE: LOOP(X / Y); break;                                                     \
    case OP_NEGATE: LOOP(-X); break;                                                        \
    default: LOOP(X * FMA(-(Y), Y, 1)); break; /* X the gradient, Y tanh's result */       \
    }
/* an operand is a whole array (its step 1) or one value for every element (step 0) */
#define ELEMENTWISE(NAME, ATTRIBUTES, T, FMA)                                               \
    ATTRIBUTES static void NAME(int op, const T *a, const T *b, T *out, Py_ssize_t n,       \
                                int whole_a, int whole_b)                                   \
    {                                                                                       \
        if (whole_a && whole_b) {                                                           \
            OPS(a[i], b[i], FMA)                                                            \
        } else if (whole_a) {                                                               \
            const T y = b[0];                                                               \
            OPS(a[i], y, FMA)                                                               \
        } else if (whole_b) {                                                               \
            const T x = a[0];                                                               \
            OPS(x, b[i], FMA)                                                               \
        } else {                                                                            \
            const T x = a[0], y = b[0];                                                     \
            OPS(x, y, FMA)                                                                  \
        }                                                                                   \
    }

/* (without the FMA instruction in the build's target, fma and fmaf are the C library's:
 * exact, and slower) */
ELEMENTWISE(floats, , float, fmaf)
ELEMENTWISE(doubles, , double, fma)
#if defined(__GNUC__) && defined(__x86_64__)
#define HAVE_AVX2_LOOPS 1
ELEMENTWISE(floats_avx2, __attribute__((target("avx2,fma"))), float, __builtin_fmaf)
ELEMENTWISE(doubles_avx2, __attribute__((target("avx2,fma"))), double, __builtin_fma)
#endif

#ifdef HAVE_AVX2_LOOPS
/* whether the CPU has AVX2 and FMA: read by the first op, under the GIL */
static int avx2 = -1;
#endif

typedef struct {
    int op, is_double, whole_a, whole_b;
    const char *a, *b;
    char *out;
    Py_ssize_t n, chunk; /* elements, and elements a chunk (the last may hold fewer) */
} Job;

/* The floating-point exceptions an op raised, as NumPy names them in its error settings */
enum { RAISED_DIVIDE = 1, RAISED_OVER = 2, RAISED_UNDER = 4, RAISED_INVALID = 8 };

static int raised_since_cleared(void)
{
    int raised = fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
    return (raised & FE_DIVBYZERO ? RAISED_DIVIDE : 0) | (raised & FE_OVERFLOW ? RAISED_OVER : 0) |
           (raised & FE_UNDERFLOW ? RAISED_UNDER : 0) | (raised & FE_INVALID ? RAISED_INVALID : 0);
}

static void compute_elements(const Job *job, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t size = job->is_double ? 8 : 4, n = end - start;
    const char *a = job->a + (job->whole_a ? start * size : 0);
    const char *b = job->b + (job->whole_b ? start * size : 0);
    char *out = job->out + start * size;
#ifdef HAVE_AVX2_LOOPS
    if (avx2) {
        if (job->is_double)
            doubles_avx2(job->op, (const double *)a, (const double *)b, (double *)out, n,
                         job->whole_a, job->whole_b);
        else
            floats_avx2(job->op, (const float *)a, (const float *)b, (float *)out, n,
                        job->whole_a, job->whole_b);
        return;
    }
#endif
    if (job->is_double)
        doubles(job->op, (const double *)a, (const double *)b, (double *)out, n, job->whole_a,
                job->whole_b);
    else
        floats(job->op, (const float *)a, (const float *)b, (float *)out, n, job->whole_a,
               job->whole_b);
}

/* elements [start, end) of the job; the exceptions they raised (NumPy tells of them) */
static int compute(const Job *job, Py_ssize_t start, Py_ssize_t end)
{
    feclearexcept(FE_ALL_EXCEPT);
    compute_elements(job, start, end);
    return raised_since_cleared();
}

#ifdef HAVE_POOL
#define MAX_WORKERS 7
#define CHUNK 16384        /* elements a thread takes at a time (a multiple of 64) */
#define FIELD_BITS 14      /* a count's bits in the state (below) */
#define MOST_CHUNKS 0x3FFF /* chunks an op has at most (FIELD_BITS bits) */
#define SPIN_NS 1000000   /* a worker looks for the next op this long (1 ms), then sleeps */
#define YIELDED_NS 20000  /* ... or sooner, once its core ran another thread this long */

/* The pool's state is one 64-bit word: the op's generation (22 bits), its chunks (14), the
 * chunks taken from the front (14) and from the back (14). The caller takes chunks from the
 * front, the workers from the back, until they meet: on two cores each keeps to its own end
 * of the arrays from op to op, as torch's static split does, and finds more of it in its
 * own cache (on a 2-core Xeon a chain of million-float ops took some 4% less time than with
 * the chunks taken in turns); a late thread still takes fewer. A thread takes a chunk by
 * raising its field, and only while the generation is the one it read the op of: the op
 * cannot end (nor the next one be written over it) while a chunk taken is not done. */
#define GENERATION_MASK 0x3FFFFF
#define GENERATION(state) ((uint32_t)((state) >> (3 * FIELD_BITS)))
#define CHUNKS(state) ((uint32_t)(((state) >> (2 * FIELD_BITS)) & MOST_CHUNKS))
#define FRONT(state) ((uint32_t)(((state) >> FIELD_BITS) & MOST_CHUNKS))
#define BACK(state) ((uint32_t)((state) & MOST_CHUNKS))

static struct {
    int started, workers;
    pthread_mutex_t busy; /* one op at a time: another caller computes its op alone */
    pthread_mutex_t sleep_lock;
    pthread_cond_t wake;
    atomic_int sleepers;
    atomic_int rest; /* set by split_rest: the workers sleep now, not after SPIN_NS */
    _Atomic uint64_t state;
    atomic_long done; /* chunks of the current op finished */
    atomic_int raised; /* the exceptions its chunks raised */
    Job job;
} pool = {0, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};

/* Take and compute the op's chunks, from the front or the back, while generation
 * ``generation`` has any left. */
static void take_chunks(uint32_t generation, int from_back)
{
    uint64_t state = atomic_load(&pool.state);
    uint64_t step = from_back ? 1 : (uint64_t)1 << FIELD_BITS;
    while (GENERATION(state) == generation && FRONT(state) + BACK(state) < CHUNKS(state)) {
        if (!atomic_compare_exchange_weak(&pool.state, &state, state + step))
            continue; /* (state now holds the word as it is) */
        Py_ssize_t index = from_back ? (Py_ssize_t)(CHUNKS(state) - 1 - BACK(state))
                                     : (Py_ssize_t)FRONT(state);
        Py_ssize_t start = index * pool.job.chunk;
        Py_ssize_t end = start + pool.job.chunk;
        int raised = compute(&pool.job, start, end < pool.job.n ? end : pool.job.n);
        if (raised)
            atomic_fetch_or(&pool.raised, raised);
        atomic_fetch_add(&pool.done, 1);
        state = atomic_load(&pool.state);
    }
}

static long long elapsed_ns(const struct timespec *since)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - since->tv_sec) * 1000000000LL + (now.tv_nsec - since->tv_nsec);
}

/* Until an op newer than ``seen`` is posted: looking for it a while, then asleep. The look
 * yields the core at every turn, and ends as soon as a turn came back late: another thread
 * wanted the core (OpenBLAS's, in a matrix product between two ops: spinning through those
 * made a 1024-wide network's step 8% slower). */
static void wait_for_op(uint32_t seen)
{
    struct timespec since;
    clock_gettime(CLOCK_MONOTONIC, &since);
    long long before = 0;
    while (GENERATION(atomic_load(&pool.state)) == seen) {
        SPIN_PAUSE();
        sched_yield();
        long long now = elapsed_ns(&since);
        int wanted = now - before > YIELDED_NS;
        before = now;
        if (!wanted && !atomic_load_explicit(&pool.rest, memory_order_relaxed) &&
            now < SPIN_NS)
            continue;
        pthread_mutex_lock(&pool.sleep_lock);
        atomic_fetch_add(&pool.sleepers, 1); /* the poster reads it after posting */
        while (GENERATION(atomic_load(&pool.state)) == seen)
            pthread_cond_wait(&pool.wake, &pool.sleep_lock);
        atomic_fetch_sub(&pool.sleepers, 1);
        pthread_mutex_unlock(&pool.sleep_lock);
        return;
    }
}

static void *serve(void *unused)
{
    (void)unused;
    uint32_t seen = GENERATION(atomic_load(&pool.state));
    for (;;) {
        wait_for_op(seen);
        seen = GENERATION(atomic_load(&pool.state));
        take_chunks(seen, 1);
    }
    return NULL;
}

/* A forked child has none of its parent's threads: it starts its own at its first op. */
static void forget_after_fork(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t fresh_wake = PTHREAD_COND_INITIALIZER;
    pool.busy = fresh;
    pool.sleep_lock = fresh;
    pool.wake = fresh_wake;
    pool.started = pool.workers = 0;
    atomic_store(&pool.sleepers, 0);
    atomic_store(&pool.rest, 0);
    atomic_store(&pool.state, 0);
    atomic_store(&pool.done, 0);
}

static void start_workers(int wanted)
{
    static int at_fork_set = 0;
    if (!at_fork_set)
        at_fork_set = pthread_atfork(NULL, NULL, forget_after_fork) == 0;
    pool.started = 1;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 1 << 16);
    for (pool.workers = 0; pool.workers < wanted && pool.workers < MAX_WORKERS;
         pool.workers++) {
        pthread_t thread;
        if (pthread_create(&thread, &attributes, serve, NULL))
            break; /* fewer threads than asked: the op still ends, on those there are */
    }
    pthread_attr_destroy(&attributes);
}

/* Computes the job on the pool (the GIL released by the caller) and returns the exceptions it
 * raised; -1 when the pool is busy. */
static int run_on_pool(const Job *job, int workers)
{
    if (pthread_mutex_trylock(&pool.busy))
        return -1;
    if (!pool.started)
        start_workers(workers);
    pool.job = *job;
    Py_ssize_t chunk = CHUNK;
    while ((job->n + chunk - 1) / chunk > MOST_CHUNKS)
        chunk *= 2;
    pool.job.chunk = chunk;
    uint64_t chunks = (uint64_t)((job->n + chunk - 1) / chunk);
    uint32_t generation = (GENERATION(atomic_load(&pool.state)) + 1) & GENERATION_MASK;
    atomic_store(&pool.done, 0);
    atomic_store(&pool.raised, 0);
    atomic_store(&pool.rest, 0);
    atomic_store(&pool.state, ((uint64_t)generation << (3 * FIELD_BITS)) |
                              (chunks << (2 * FIELD_BITS)));
    if (atomic_load(&pool.sleepers)) {
        pthread_mutex_lock(&pool.sleep_lock);
        pthread_cond_broadcast(&pool.wake);
        pthread_mutex_unlock(&pool.sleep_lock);
    }
    take_chunks(generation, 0);
    /* the chunks the workers took: each is being computed, none waits to be begun */
    for (unsigned spins = 1; atomic_load(&pool.done) < (long)chunks; spins++) {
        SPIN_PAUSE();
        if (spins % 1024 == 0)
            sched_yield(); /* a worker descheduled mid-chunk: let it run */
    }
    int raised = atomic_load(&pool.raised);
    pthread_mutex_unlock(&pool.busy);
    return raised;
}
#endif

static int overlaps_partly(const Py_buffer *operand, const Py_buffer *out)
{
    const char *start = operand->buf, *end = start + operand->len;
    const char *out_start = out->buf, *out_end = out_start + out->len;
    return start != out_start && start < out_end && out_start < end;
}

/* split_arith(op, itemsize, a, b, out, workers) -> int | None: out = a op b (op 0-5: add,
 * subtract, multiply, divide, negate a, a * (1 - b²) with 1 - b² one fused multiply-add) of
 * float32 (itemsize 4) or float64 (8); a and b
 * contiguous buffers of out's length or of one item. Returns the floating-point exceptions
 * raised (1 divide, 2 over, 4 under, 8 invalid: the caller has NumPy tell of them where its
 * error settings want them told); None, nothing written, where out partly overlaps an
 * operand (NumPy then copies first) or where this build has no pool and ``workers`` > 0.
 * ``workers``: the
 * threads the pool starts, at its first op, besides the caller's; 0: the op is computed on
 * the caller's thread alone (a small one, where a hand-over would cost more than it). */
PyObject *split_arith(PyObject *self, PyObject *args)
{
    (void)self;
    int op, workers;
    Py_ssize_t size;
    Py_buffer a, b, out;
    if (!PyArg_ParseTuple(args, "iny*y*w*i", &op, &size, &a, &b, &out, &workers))
        return NULL;
    PyObject *result = NULL;
    if ((size != 4 && size != 8) || out.len % size || op < OP_ADD || op > OP_TANH_GRAD) {
        PyErr_SetString(PyExc_ValueError, "a float32 or float64 out, and an op from 0 to 5");
        goto done;
    }
    Job job = {op, size == 8, a.len == out.len, b.len == out.len, a.buf, b.buf, out.buf,
               out.len / size, 0};
    if ((!job.whole_a && a.len != size) || (!job.whole_b && b.len != size)) {
        PyErr_SetString(PyExc_ValueError, "operands of out's length, or of one item");
        goto done;
    }
    if (overlaps_partly(&a, &out) || overlaps_partly(&b, &out)) {
        result = Py_NewRef(Py_None);
        goto done;
    }
#ifndef HAVE_POOL
    if (workers > 0) { /* no threads of its own here: _parallel.py's split it */
        result = Py_NewRef(Py_None);
        goto done;
    }
#endif
    int raised = -1;
#ifdef HAVE_AVX2_LOOPS
    if (avx2 < 0)
        avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? 1 : 0;
#endif
    if (workers < 1) { /* a small op: here, with the GIL held (its release costs more) */
        result = PyLong_FromLong(compute(&job, 0, job.n));
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
#ifdef HAVE_POOL
    raised = run_on_pool(&job, workers);
#endif
    if (raised < 0) /* the pool busy with another thread's op: this one alone, as NumPy */
        raised = compute(&job, 0, job.n);
    Py_END_ALLOW_THREADS
    result = PyLong_FromLong(raised);
done:
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&out);
    return result;
}

/* split_rest(): the workers stop looking for the next op and sleep, leaving their cores to
 * the threads about to run (_parallel.py's, which split the ops this file does not do). */
PyObject *split_rest(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
#ifdef HAVE_POOL
    atomic_store(&pool.rest, 1);
#endif
    Py_RETURN_NONE;
}
