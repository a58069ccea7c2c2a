"""The NumPy engine: user code's ``import torch`` (and torch.nn, torch.autograd) gets npgrad."""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import re
import sys
import threading
import types
from collections.abc import Iterator

from playground.engines.base import Attributes, Engine
from playground.engines.graph_builder import EngineView
from playground.engines.module_calls import ModuleHooks
from playground.engines.trace_recorder import LiveStep, LiveTrace, TraceRecorder
from playground.npgrad._missing import missing_attribute
from playground.npgrad._torch_homes import classes_of

ENGINE_PACKAGE = "playground.npgrad"


class _TorchAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``torch`` and ``torch.x.y`` as the engine's modules of the same name."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        target_name = ENGINE_PACKAGE + fullname[len("torch"):]
        try:
            importlib.import_module(target_name)
        except ModuleNotFoundError:
            if not classes_of(fullname):  # (nor a module where torch keeps a class of ours)
                return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def __init__(self) -> None:
        self._own_specs: dict[str, importlib.machinery.ModuleSpec] = {}

    def create_module(self, spec):
        try:
            module = importlib.import_module(ENGINE_PACKAGE + spec.name[len("torch"):])
        except ModuleNotFoundError:
            return _home_module(spec.name)
        self._own_specs[spec.name] = module.__spec__
        return module

    def exec_module(self, module) -> None:
        """The engine module is already executed. Handed out as ``torch`` it was given
        torch's spec: its own goes back, or each import it makes inside a function (its
        ``__package__`` the engine's) warned "__package__ != __spec__.parent" where a
        script shows every warning."""
        own = self._own_specs.pop(module.__spec__.name, None)
        if own is not None:
            module.__spec__ = own


def _home_module(name: str) -> types.ModuleType:
    """A module torch keeps some of the engine's classes in (``torch.optim.sgd``, where
    pickle looks for SGD): those classes, and the engine's word for anything else."""
    module = types.ModuleType(name)
    module.__dict__.update(classes_of(name))
    module.__getattr__ = missing_attribute(name)
    return module


@contextlib.contextmanager
def torch_is_npgrad() -> Iterator[None]:
    """While active, ``import torch`` anywhere yields npgrad; real torch comes back after.

    Modules named ``torch*`` already imported are set aside and restored, so a process that
    also uses real torch (the tests do) sees no difference outside the block.
    """
    # (real torch is rarely loaded: the kernel never imports it, so no scan is needed)
    set_aside = {name: sys.modules.pop(name) for name in _torch_modules()} \
        if "torch" in sys.modules else {}
    finder = _TorchAlias()
    sys.meta_path.insert(0, finder)
    try:
        # imported now, as the torch engine's torch is: libraries that look for torch in
        # sys.modules (matplotlib, to plot a tensor) find it in a cell that did not import it
        importlib.import_module("torch")
        yield
    finally:
        sys.meta_path.remove(finder)
        for name in _torch_modules():  # (those put there by hand too)
            sys.modules.pop(name, None)
        sys.modules.update(set_aside)


_TORCH_NAME = re.compile(r"torch(?:\.|$)").match


def _torch_modules() -> list[str]:
    """The names of ``torch`` and its submodules in ``sys.modules`` (matched in C: this
    runs at every run, over the few hundred modules a kernel holds)."""
    return list(filter(_TORCH_NAME, list(sys.modules)))


def _typo_of(name: str, known: list[str]) -> str | None:
    """The attribute ``name`` is a slip of: one or two letters off, or an attribute with more
    glued on (``gradprint``: a line break lost after ``grad``); None for a real other name."""
    glued = [k for k in known if len(k) >= 3 and name.startswith(k)]
    if glued:
        return max(glued, key=len)
    allowed = 1 if len(name) <= 6 else 2
    close = [(_edits(name, k), k) for k in known if abs(len(k) - len(name)) <= allowed]
    close = [(d, k) for d, k in close if d <= allowed]
    return min(close)[1] if close else None


def _edits(a: str, b: str) -> int:
    """Levenshtein distance."""
    row = list(range(len(b) + 1))
    for i, letter in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, other in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1,
                                           previous + (letter != other))
    return row[-1]


# What the engine says it lacks ends with this (npgrad's _missing.py writes the same, and its
# refusals in words end with SWITCH_HINT): lacking_in reads the missing name out of it.
SWITCH_HINT = "switch the engine to torch"
MISSING_HINT = f"in the built-in NumPy engine; if real torch has it, {SWITCH_HINT}"


def _import_explained(error: ImportError) -> str | None:
    """``from torch.x import y`` that the engine lacks: torch's module name, not the engine's
    file, and what to do."""
    module = error.name or ""
    torch_name = "torch" + module[len(ENGINE_PACKAGE):] if module.startswith(ENGINE_PACKAGE) \
        else module
    if isinstance(error, ModuleNotFoundError) and torch_name.startswith("torch."):
        return f"No module named {torch_name!r} {MISSING_HINT}"
    missing = re.match(r"cannot import name '([^']+)'", str(error))
    if missing and module.startswith(ENGINE_PACKAGE):
        return f"cannot import name {missing.group(1)!r} from {torch_name!r} {MISSING_HINT}"
    return None


# How to read the name out of what the engine says when it lacks something of torch's
# (MISSING_HINT, npgrad's _missing.py, the features it refuses in words).
_LACKING = (
    (re.compile(r"module '(?P<module>torch[\w.]*)' has no attribute '(?P<name>\w+)'"),
     "{module}.{name}"),
    (re.compile(r"'(?P<kind>\w+)' object has no attribute '(?P<name>\w+)'"), "{kind}.{name}"),
    (re.compile(r"No module named '(?P<module>torch[\w.]*)'"), "{module}"),
    (re.compile(r"cannot import name '(?P<name>\w+)' from '(?P<module>torch[\w.]*)'"),
     "{module}.{name}"),
    (re.compile(r"^(?P<what>.+?) (?:is|are) not in the built-in NumPy engine"), "{what}"),
)


def lacking_in(message: str) -> str:
    """The torch feature a message of the engine's says it lacks, or ""."""
    if SWITCH_HINT not in message:
        return ""
    for pattern, name in _LACKING:
        if found := pattern.search(message):
            return name.format(**found.groupdict())[:200]
    return message.split(";")[0].strip()[:200]


class NumpyEngine(Engine):
    """The built-in engine: npgrad, on the CPU, no torch needed."""

    name = "numpy"

    def torch_module(self):
        return importlib.import_module(ENGINE_PACKAGE)

    def describe(self) -> str:
        return "NumPy engine (npgrad) · cpu"

    def activate(self):
        return torch_is_npgrad()

    def prepare_for(self, code: str) -> None:
        """Code that defines ``__torch_function__`` on a class of its own (not a Tensor
        subclass, which switches dispatch on when made) has torch's functions look for it."""
        if "__torch_function__" in code:
            from playground.npgrad._torch_function import activate

            activate()

    def warm_up(self) -> None:
        """torch's CPU library, whose MKL and BLAS give npgrad torch's bits (0.2 s to load):
        loaded with the GIL released where the C module was built, so a run going meanwhile
        goes on."""
        from playground.npgrad import _vml

        _vml.preload()

    def reading(self):
        dispatch = sys.modules.get(f"{ENGINE_PACKAGE}._torch_function")
        return contextlib.nullcontext() if dispatch is None else \
            dispatch.DisableTorchFunctionSubclass()

    def process_state(self) -> tuple:
        npgrad = self.torch_module()
        from playground.npgrad import _tensor
        from playground.npgrad._printing import OPTIONS

        # the engine's modules by name: one loaded on first use (nn's padding layers) is
        # loaded the same in a new process, so it is no change
        modules = {name: module for name, module in list(sys.modules.items())
                   if name.startswith(ENGINE_PACKAGE) and module is not None}
        return (npgrad.get_default_dtype(), str(npgrad.get_default_device()),
                npgrad.is_grad_enabled(),
                _tensor.inference_mode_on(), tuple(sorted(vars(OPTIONS).items())),
                npgrad.is_anomaly_enabled(), npgrad.is_anomaly_check_nan_enabled(),
                Attributes({**modules, "Tensor": npgrad.Tensor, "Module": npgrad.nn.Module}))

    def view(self) -> EngineView:
        module = self.torch_module()
        return EngineView(lambda value: isinstance(value, module.Tensor),
                          lambda tensor: tensor.numpy(force=True))

    def module_hooks(self) -> ModuleHooks:
        from playground.npgrad import _nodes
        from playground.npgrad.nn.modules import Module
        return ModuleHooks(Module, _nodes.sequence_mark)

    def lacking(self, error: BaseException) -> str:
        text = error.msg if isinstance(error, ImportError) and error.msg else str(error)
        return lacking_in(text)

    def explain(self, error: BaseException) -> str | None:
        """A tensor method torch may have and npgrad lacks: say so, and how to run the code.

        The engine cannot tell such a method from a typo without importing torch, so the
        message says "if real torch has it".
        """
        if isinstance(error, ImportError):
            return _import_explained(error)
        tensor = getattr(error, "obj", None) if isinstance(error, AttributeError) else None
        if not isinstance(tensor, self.torch_module().Tensor) or not error.name:
            return None
        from playground.npgrad._torch_names import TORCH_TENSOR_NAMES

        # (a name of torch's is no slip, however near one the engine has: scatter_reduce)
        near = None if error.name in TORCH_TENSOR_NAMES else \
            _typo_of(error.name, [n for n in dir(tensor) if not n.startswith("_")])
        if near:  # a typo, most likely: Python's own hint, as real torch would get it
            return f"'Tensor' object has no attribute {error.name!r}. Did you mean: {near!r}?"
        return f"'Tensor' object has no attribute {error.name!r} {MISSING_HINT}"

    @contextlib.contextmanager
    def record(self, recorder: TraceRecorder) -> Iterator[None]:
        """The script's own calls (its main thread's); calls from threads it starts run as
        if nothing watched (a recorder shared by eight threads broke their backward)."""
        npgrad = self.torch_module()
        current: list[tuple[LiveTrace, list] | None] = []  # each call: its trace and log
        # (get_ident, not current_thread(): it runs twice a backward call, and a training
        # loop's recorded call costs some 15 µs in all)
        main, ident = threading.main_thread().ident, threading.get_ident

        def on_start(call) -> bool | list:
            if ident() != main:
                return False
            if recorder.declines():
                current.append(None)
                return False  # npgrad runs the call on its fast path, unobserved
            kind, outputs = call
            # as the torch engine sees a call: from the roots' grad_fns; a leaf's own
            # AccumulateGrad (``leaf.backward(g)``) is no node of torch's graph
            roots = [getattr(t, "grad_fn", None) for t in outputs]  # (not yet checked)
            log: list = []  # npgrad's fast path writes the steps there (else on_step hears)
            current.append((recorder.start(kind, [root for root in roots if root is not None]),
                            log))
            return log

        def on_step(step) -> None:
            if ident() != main or not current:
                return
            if current[-1] is None or not current[-1][0].roots:  # let pass, or a leaf's own
                return
            current[-1][0].steps.append(LiveStep(
                step.node,
                [recorder.optional_array(g) for g in step.incoming],
                [recorder.optional_array(g) for g in step.outgoing],
                recorder.optional_array(step.grad_before),
                recorder.optional_array(step.grad_after)))

        def on_finish(call) -> None:
            if ident() != main or not current:
                return
            recorded = current.pop()
            if recorded is not None:  # called as the call ends, raising or not
                trace, log = recorded
                if trace.roots and log:
                    recorder.logged(trace, log, _logged_step)
                recorder.finish(trace, sys.exc_info()[1])

        with npgrad.autograd.observe(on_step, on_start, on_finish):
            yield


def _logged_step(recorder: TraceRecorder, entry: tuple) -> LiveStep:
    """A step npgrad's fast path logged: ``(node, incoming, outgoing[, before, after])``.
    (Read for every kept call of a loop: written out, not through a helper per array.)"""
    from playground.npgrad._conforming import logged_outgoing  # (loaded with the engine)

    kept, dtype_of = recorder.kept_array, _torch_dtype
    incoming = entry[1]
    received = incoming if isinstance(incoming, tuple) else (incoming,)  # several outputs'
    step = LiveStep(entry[0], [None if g is None else kept(g, dtype_of(g)) for g in received],
                    [None if g is None else kept(g, dtype_of(g))
                     for g in logged_outgoing(entry[2])])
    if len(entry) > 3:
        before, after = entry[3], entry[4]
        step.grad_before = None if before is None else kept(before, dtype_of(before))
        step.grad_after = None if after is None else kept(after, dtype_of(after))
    return step


_DTYPES: dict = {}  # NumPy's dtype -> the engine's (torch.float32...)


def _torch_dtype(array):
    """The engine's dtype of an array (what its tensors print: torch.float32...)."""
    dtype = _DTYPES.get(array.dtype)
    if dtype is None:
        from playground.npgrad._dtype import from_numpy_dtype  # (loaded with the engine)

        dtype = _DTYPES[array.dtype] = from_numpy_dtype(array.dtype)
    return dtype
