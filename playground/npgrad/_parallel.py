"""Large elementwise NumPy operations split between the CPU's cores, as torch splits its kernels.

torch runs an elementwise op on a million floats on every core; NumPy runs it on one, so a
large-tensor chain took 1.5-1.8 times torch's time on two cores (benchmarks/engine_vs_torch.py,
profiled: the time was in the ufuncs themselves, not in the engine). ``apply`` cuts such an
op's operands into one slice per core and runs the ufunc on each slice at once: NumPy lets go
of the GIL inside a ufunc's loop. Every element is computed by the same ufunc from the same
inputs, so the result is the same array bit for bit (``tests/npgrad/test_parallel.py``); slices
start on whole 64-element blocks, so each one goes through the same SIMD code as before.

Handing a slice to a sleeping thread costs 30-70 µs, so a split multiply still took 105 µs to
torch's 71 (its threads stay awake between ops): add, subtract, multiply, divide and negate,
the ops of most chains, go to the C pool of ``_split_pool.c`` where it was built, whose
threads look for the next op for a millisecond before they sleep; these Python threads are
its twin, and split every other ufunc (tanh, exp...). The pool also computes tanh's gradient,
``grad * fused(-y, y, 1)``, in one pass as torch's tanh_backward kernel does (three passes
and two arrays as separate ops): ``split_operators`` fuses a formula's such product.
"""

from __future__ import annotations

import ast
import contextvars
import operator as _operator
import os
import threading
from time import perf_counter

import numpy as np

from playground.npgrad import _compiled
from playground.npgrad._numerics import fused_values

_ndarray = np.ndarray
# Below this many elements a hand-off to another thread (some 20 µs) costs more than it saves.
SPLIT_FROM = 1 << 17
# Slices are cut on multiples of this many elements.
BLOCK = 64
_FLOATS = frozenset((np.dtype(np.float32), np.dtype(np.float64)))
# Python numbers up to this size convert to the array's dtype exactly as NumPy's own
# weak-scalar rule converts them (beyond it an int may not fit the conversion).
_SAFE_INT = 1 << 53


class _Worker:
    """A thread that runs one slice at a time; ``start`` and ``done`` are locks used as
    signals (cheaper than events): the caller releases ``start``, the worker ``done``."""

    def __init__(self) -> None:
        self._start = threading.Lock()
        self._done = threading.Lock()
        self._start.acquire()
        self._done.acquire()
        self._job = None
        self._error: BaseException | None = None
        self._busy = False  # a job handed over and not yet waited for
        self.finished = 0.0  # perf_counter() when it ended its latest job
        # (named as the app's own threads are: a kernel counts any other thread a run leaves
        # as the script's, and sent every fresh run after a large op to a new process)
        threading.Thread(target=self._serve, name="playground-npgrad-split",
                         daemon=True).start()

    def _serve(self) -> None:
        while True:
            self._start.acquire()
            context, job = self._job
            self._job = None
            try:
                context.run(job)  # under the caller's np.errstate
            except BaseException as error:  # handed to the caller, who raises it
                self._error = error
            # The job's slices are views of the result: holding them would keep the result
            # from being the sole owner of its memory (AccumulateGrad copies such a gradient).
            context = job = None
            self.finished = perf_counter()
            self._done.release()

    def submit(self, job) -> None:
        if self._busy:  # the caller was interrupted while waiting: let that job end first
            self.wait()
        self._job = (contextvars.copy_context(), job)
        self._busy = True
        self._start.release()

    def wait(self) -> None:
        self._done.acquire()
        self._busy = False
        error, self._error = self._error, None
        if error is not None:
            raise error


class _Pool:
    """The workers, started at first use; none on a one-core machine or where threads
    cannot be started (then every op runs whole, as before)."""

    workers: list[_Worker] | None = None
    # Held while the workers run a split op: a split op computed inside one (a formula's
    # piece calling a split function) or in another thread at the same time runs whole.
    in_use = threading.Lock()

    @classmethod
    def get(cls) -> list[_Worker]:
        if cls.workers is None:
            cls.workers = cls._start()
        return cls.workers

    @staticmethod
    def _start() -> list[_Worker]:
        try:
            cores = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            cores = os.cpu_count() or 1
        try:
            return [_Worker() for _ in range(min(cores, 8) - 1)]
        except RuntimeError:  # "can't start new thread"
            return []

    @classmethod
    def forget(cls) -> None:
        cls.workers = None  # a forked child has none of its parent's threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_Pool.forget)


def apply(ufunc, *operands, out=None, fallback=None):
    """``ufunc(*operands)`` (into ``out`` when given), split between the cores when it is a
    large float op the slices can express: every array operand of the result's shape and
    dtype (C-contiguous, or one-dimensional), the others numbers. Anything else is computed
    whole by ``fallback`` (the operator, for operands that may be tensors) or the ufunc."""
    shape, dtype = _split_shape(operands, out)
    if shape is not None and out is not None and _partly_over(out, operands):
        shape = None  # NumPy reads such operands before it writes (a slice would not)
    workers = _Pool.get() if shape is not None else None
    if workers and ufunc in _COMPILED_OPS and _compiled.kernels is not None:
        result = out if out is not None else np.empty(shape, dtype)
        if _compiled_op(ufunc, operands, result, dtype, len(workers)):
            return result
    if not workers or not _Pool.in_use.acquire(blocking=False):
        if fallback is not None:
            return fallback(*operands)
        return ufunc(*operands) if out is None else ufunc(*operands, out=out)
    try:
        if _compiled.kernels is not None:  # its spinning threads would take the cores' time
            _compiled.kernels.split_rest()
        if out is None:
            out = np.empty(shape, dtype)
        flat = [_flat(value, dtype) for value in (*operands, out)]
        starts = _Balance.starts(ufunc, flat[-1].shape[0], len(workers))
        jobs = [_slice_job(ufunc, flat, slice(start, end))
                for start, end in zip(starts, starts[1:], strict=False)]
        _Balance.learn(ufunc, starts[1], *_run(workers, jobs))
    finally:
        _Pool.in_use.release()
    return out


def _partly_over(out: np.ndarray, operands: tuple) -> bool:
    """Whether ``out`` shares memory with an operand without being that operand's very
    elements (``x[1:] += x[:-1]``)."""
    place = out.__array_interface__["data"][0]
    return any(value.__class__ is _ndarray and np.may_share_memory(out, value) and (
        value.__array_interface__["data"][0] != place or value.strides != out.strides)
        for value in operands)


def tanh_grad(grad, result, out=None):
    """``grad * (1 - result²)`` with ``1 - result²`` one fused multiply-add (the pool's own
    op, and its twin: on a slice, or whole)."""
    return np.multiply(grad, fused_values(-result, result, 1), out=out)


# The ops _split_pool.c computes on its own threads, which stay awake between ops (op codes)
_COMPILED_OPS = {np.add: 0, np.subtract: 1, np.multiply: 2, np.true_divide: 3, np.negative: 4,
                 tanh_grad: 5}


def _compiled_op(ufunc, operands: tuple, out: np.ndarray, dtype: np.dtype,
                 workers: int) -> bool:
    """``ufunc(*operands)`` into ``out`` by the C pool, when every array is contiguous;
    False when it was not done (a strided operand, or ``out`` partly over an operand)."""
    flat = [_flat(value, dtype) for value in operands]
    for index, value in enumerate(flat):
        if value.__class__ is _ndarray and value.ndim and not value.flags.c_contiguous:
            if value.strides != (0,):
                return False
            flat[index] = value[:1]  # one value repeated (the gradient of a sum): one item
    if not out.flags.c_contiguous:
        return False
    first = flat[0]
    second = flat[1] if len(flat) > 1 else first
    raised = _compiled.kernels.split_arith(_COMPILED_OPS[ufunc], dtype.itemsize, first, second,
                                           out, workers)
    if raised is None:
        return False
    if raised:
        _tell(ufunc, dtype, raised)
    return True


def _tell(ufunc, dtype: np.dtype, raised: int) -> None:
    """What NumPy would have said of the exceptions an op raised (1 divide, 2 over, 4 under,
    8 invalid), as its error settings want it (a warning, an error...): said by NumPy itself,
    the same ufunc raising each exception again on one element, in NumPy's order."""
    settings = np.geterr()
    info = np.finfo(dtype)
    named = {"max": info.max, "-max": -info.max, "tiny": info.tiny,
             "least": info.smallest_subnormal}
    for bit, name in ((1, "divide"), (2, "over"), (4, "under"), (8, "invalid")):
        if raised & bit and settings[name] != "ignore" and (ufunc, bit) in _RAISING:
            ufunc(*(np.array([named.get(value, value)], dtype) for value in _RAISING[ufunc, bit]))


# Operands on which each op raises just that exception (the others raise none of those: an
# add's or a negation's result is never inexact and tiny)
_RAISING = {
    (np.add, 2): ("max", "max"), (np.add, 8): (np.inf, -np.inf),
    (np.subtract, 2): ("max", "-max"), (np.subtract, 8): (np.inf, np.inf),
    (np.multiply, 2): ("max", 2.0), (np.multiply, 4): ("tiny", "tiny"),
    (np.multiply, 8): (0.0, np.inf),
    (np.true_divide, 1): (1.0, 0.0), (np.true_divide, 2): ("max", 0.5),
    (np.true_divide, 4): ("tiny", "max"), (np.true_divide, 8): (0.0, 0.0),
    # (its fused 1 - y² is exact or overflows only past |y| ~ 1e19, which tanh never gives)
    (tanh_grad, 2): ("max", 2.0), (tanh_grad, 4): ("least", 0.5), (tanh_grad, 8): (np.inf, 1.0),
}


class _Balance:
    """Where to cut an op. A worker begins its slice some tens of microseconds after it is
    handed it (a thread's wake-up on a virtual machine: 30-70 µs, against 140 µs for a whole
    multiply of a million floats), and when it ends after this thread, this thread sleeps
    and must be woken in turn. So this thread takes more elements: those it computes in the
    ``lead`` time, learnt from the ops as they run (the workers should end just before this
    thread does), and the time an element takes, per ufunc (a tanh's costs ten times a
    multiply's). Where the cut falls changes no bit: each element is computed by the same
    ufunc either way."""

    lead = 40e-6               # seconds; the workers' share is what remains after it
    per_element: dict = {}     # ufunc -> seconds per element in one thread (running mean)
    WEIGHT = 0.25              # of a new measurement in the running mean
    STEP = 0.25                # of how late (or early) the workers ended, that the lead moves
    NOTICED = 20e-6            # ... counting at most this much (a worker descheduled once
    LONGEST = 1e-3             # must not throw it far): the lead follows the median case

    @classmethod
    def starts(cls, ufunc, size: int, workers: int) -> list[int]:
        """The slices' bounds: this thread's first, then one per worker used (each at least
        SPLIT_FROM / 2 elements, on BLOCK boundaries)."""
        count = max(min(workers, size // (SPLIT_FROM // 2) - 1), 0)
        rate = cls.per_element.get(ufunc)
        lead = cls.lead / rate if rate else 0.0  # elements
        head = (size + count * lead) / (count + 1)
        while count and (size - head) / count < SPLIT_FROM // 2:
            count -= 1  # the workers' share too small to be worth waking them
            head = (size + count * lead) / (count + 1)
        first = min(size, -(-int(head) // BLOCK) * BLOCK)
        if not count or first >= size:
            return [0, size]
        step = -(-(size - first) // count // BLOCK) * BLOCK
        return [0, *range(first, size, step), size]

    @classmethod
    def learn(cls, ufunc, head: int, handed: float, ended: float, last: float) -> None:
        """This thread's slice of ``head`` elements ran from ``handed`` to ``ended``; the
        last worker ended at ``last`` (0 when none ran)."""
        rate = (ended - handed) / head
        known = cls.per_element.get(ufunc)
        cls.per_element[ufunc] = rate if known is None else known + cls.WEIGHT * (rate - known)
        if last:
            late = min(max(last - ended, -cls.NOTICED), cls.NOTICED)
            cls.lead = min(max(cls.lead + cls.STEP * late, 0.0), cls.LONGEST)


def _run(workers: list[_Worker], jobs: list) -> tuple[float, float, float]:
    """The first job in this thread, the others in the workers, all at once; the moments
    the workers were handed theirs, this thread's ended and the last worker's ended."""
    used = workers[:len(jobs) - 1]
    for worker, job in zip(used, jobs[1:], strict=True):
        worker.submit(job)
    handed = perf_counter()
    try:
        jobs[0]()
        ended = perf_counter()
    finally:
        for worker in used:
            worker.wait()
    return handed, ended, max((worker.finished for worker in used), default=0.0)


def _slice_job(ufunc, flat: list, piece: slice):
    arguments = [value[piece] if value.__class__ is _ndarray and value.ndim else value
                 for value in flat]
    result = arguments.pop()

    def job() -> None:
        ufunc(*arguments, out=result)

    return job


def _split_shape(operands: tuple, out) -> tuple:
    """The result's shape and dtype when the op can be split, else (None, None)."""
    shape = dtype = None
    for value in (*operands, out):
        if value is None:
            continue
        if value.__class__ is _ndarray:
            if value.ndim == 0:
                if dtype is None:
                    dtype = value.dtype
                elif value.dtype != dtype:
                    return None, None
                continue
            if shape is None:
                shape, dtype = value.shape, (dtype or value.dtype)
            if value.shape != shape or value.dtype != dtype or not (
                    value.ndim == 1 or value.flags.c_contiguous):
                return None, None
        elif value.__class__ is bool or not isinstance(value, (int, float)) or (
                isinstance(value, int) and abs(value) > _SAFE_INT):
            return None, None
    if shape is None or dtype not in _FLOATS or out is not None and not out.flags.writeable:
        return None, None
    size = 1
    for length in shape:
        size *= length
    return (shape, dtype) if size >= SPLIT_FROM else (None, None)


def _flat(value, dtype: np.dtype):
    """A number as the array's dtype; an array as one dimension (a view, never a copy)."""
    if value.__class__ is not _ndarray:
        return dtype.type(value)
    if value.ndim == 0:
        return value
    return value if value.ndim == 1 else value.reshape(-1)


def split(ufunc):
    """``ufunc`` as a function that splits large operands (options such as ``dtype=`` go to
    the ufunc whole)."""

    def call(*operands, **options):
        if not options:
            for value in operands:
                if value.__class__ is _ndarray and value.size >= SPLIT_FROM:
                    return apply(ufunc, *operands)
        return ufunc(*operands, **options)

    call.__name__ = ufunc.__name__
    return call


def _binary(ufunc, operator):
    def call(a, b, into=0):
        """``into``: 1 or 2 when that operand is a formula's own intermediate array, which
        the result may then overwrite (one large array less to write to fresh memory: the
        same ufunc on the same inputs, so the same bits)."""
        if (a.__class__ is _ndarray and a.size >= SPLIT_FROM) or (
                b.__class__ is _ndarray and b.size >= SPLIT_FROM):
            out = _reusable(a if into == 1 else b if into == 2 else None)
            if out is not None:
                return apply(ufunc, a, b, out=out, fallback=operator)
            return apply(ufunc, a, b, fallback=operator)
        return operator(a, b)

    return call


def _reusable(value):
    """An intermediate a result may be written into: a plain array that owns its memory
    (``apply`` then checks that its shape and dtype are the result's)."""
    if value.__class__ is _ndarray and value.base is None and value.flags.writeable:
        return value
    return None


def _tanh_grad(k, grad, result):
    """``grad * k.fused(-result, result, 1)``: on arrays, one pass of the C pool's (split
    when large, on this thread when small: 8 -> 1 µs for a 2x2), else as written."""
    if grad.__class__ is not _ndarray or result.__class__ is not _ndarray:
        return grad * k.fused(-result, result, 1)  # (tensors, numbers)
    if grad.size >= SPLIT_FROM:
        return apply(tanh_grad, grad, result, fallback=tanh_grad)
    if _compiled.kernels is not None and grad.dtype in _FLOATS and \
            result.dtype == grad.dtype and grad.shape == result.shape:
        out = np.empty(grad.shape, grad.dtype)
        if _compiled_op(tanh_grad, (grad, result), out, grad.dtype, 0):  # (no workers)
            return out
    return tanh_grad(grad, result)


def _negative(value, into=0):
    if value.__class__ is _ndarray and value.size >= SPLIT_FROM:
        out = _reusable(value) if into else None
        if out is not None:
            return apply(np.negative, value, out=out, fallback=_operator.neg)
        return apply(np.negative, value, fallback=_operator.neg)
    return -value


# What a derivative formula's operators become (``split_operators``): the same operation,
# split when its operands are large arrays; tensors (create_graph) and numbers as before.
FORMULA_OPERATORS = {
    "_split_add": _binary(np.add, _operator.add),
    "_split_sub": _binary(np.subtract, _operator.sub),
    "_split_mul": _binary(np.multiply, _operator.mul),
    "_split_div": _binary(np.true_divide, _operator.truediv),
    "_split_neg": _negative,
    "_split_tanh_grad": _tanh_grad,
}
_BINARY_NAMES = {ast.Add: "_split_add", ast.Sub: "_split_sub", ast.Mult: "_split_mul",
                 ast.Div: "_split_div"}


class _SplitOperators(ast.NodeTransformer):
    """Each operator becomes a call; an operand that is itself such a call's result (an
    intermediate nobody else holds) is named to the call as one it may write into."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        tanh_result = _fused_one_minus_square(node.right) if isinstance(node.op, ast.Mult) \
            else None
        if tanh_result is not None:  # grad * (1 - y²): one pass of the pool (_tanh_grad)
            return _tanh_grad_call(self.visit(node.left), tanh_result)
        self.generic_visit(node)
        name = _BINARY_NAMES.get(type(node.op))
        if name is None:
            return node
        into = 1 if _intermediate(node.left) else 2 if _intermediate(node.right) else 0
        extra = [ast.Constant(into)] if into else []
        return ast.Call(ast.Name(name, ast.Load()), [node.left, node.right, *extra], [])

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.USub) or isinstance(node.operand, ast.Constant):
            return node
        extra = [ast.Constant(1)] if _intermediate(node.operand) else []
        return ast.Call(ast.Name("_split_neg", ast.Load()), [node.operand, *extra], [])


def _tanh_grad_call(grad: ast.AST, result: ast.Name) -> ast.Call:
    return ast.Call(ast.Name("_split_tanh_grad", ast.Load()),
                    [ast.Name("k", ast.Load()), grad, result], [])


class _FusedTanhGrads(ast.NodeTransformer):
    """Only ``grad * k.fused(-y, y, 1)`` as one call of _tanh_grad (FORMULA_OPERATORS')."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        tanh_result = _fused_one_minus_square(node.right) if isinstance(node.op, ast.Mult) \
            else None
        return node if tanh_result is None else _tanh_grad_call(node.left, tanh_result)


def fuse_tanh_grads(tree: ast.AST) -> ast.AST:
    """A formula's tanh gradient as one call; the rest of it as written (for small arrays:
    _split_tanh_grad computes it in C at once, where three NumPy steps cost 8 µs)."""
    return ast.fix_missing_locations(_FusedTanhGrads().visit(tree))


def _fused_one_minus_square(node: ast.AST) -> ast.Name | None:
    """``y`` where ``node`` is ``k.fused(-y, y, 1)`` (tanh's 1 - y², one multiply-add)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
            node.func.attr == "fused" and len(node.args) == 3 and not node.keywords):
        return None
    negated, plain, one = node.args
    if isinstance(negated, ast.UnaryOp) and isinstance(negated.op, ast.USub) and \
            isinstance(negated.operand, ast.Name) and isinstance(plain, ast.Name) and \
            negated.operand.id == plain.id and isinstance(one, ast.Constant) and \
            one.value == 1:
        return plain
    return None


# Kit functions whose NumPy form always returns a new array (the tensor kit's return tensors,
# which are never written into).
_NEW_ARRAY_FUNCTIONS = frozenset(("cos", "sin", "exp", "log", "sigmoid"))


def _intermediate(node: ast.AST) -> bool:
    """A call of one of FORMULA_OPERATORS, or ``k.exp(...)`` and the like: its value is new
    and held by the formula alone."""
    if not isinstance(node, ast.Call):
        return False
    function = node.func
    if isinstance(function, ast.Name):
        return function.id in FORMULA_OPERATORS
    return isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name) and \
        function.value.id == "k" and function.attr in _NEW_ARRAY_FUNCTIONS


def split_operators(tree: ast.AST) -> ast.AST:
    """A formula's ``+ - * /`` and unary ``-`` as calls of FORMULA_OPERATORS."""
    return ast.fix_missing_locations(_SplitOperators().visit(tree))
