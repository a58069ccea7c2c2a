"""The interface every engine implements, and running code on one (in this process)."""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import sys
import time
import types
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playground.engines import inline_figures, source_lines
from playground.engines.graph_builder import EngineView, grad_fn_of, graph_of, named_tensors
from playground.engines.module_calls import ModuleCalls, ModuleHooks, assign_modules, module_paths
from playground.engines.trace_recorder import TraceRecorder
from playground.model import Graph
from playground.model.trace import BackwardTrace


class Attributes:
    """Objects' attributes by identity: a replaced or removed function shows, a mutated list
    does not; a submodule imported since (``torch.nn`` the first time), an object named in
    ``objects`` only later (an engine module loaded on first use) and a name a module's
    ``__getattr__`` loaded and kept (``F.selu``) are no change."""

    def __init__(self, objects: Iterable | Mapping) -> None:
        self.objects = dict(objects if isinstance(objects, Mapping) else enumerate(objects))
        self.seen = {key: _ids(item) for key, item in self.objects.items()}

    def unchanged_in(self, other) -> bool:
        """Whether ``other``, read later, has every attribute this one had, as it was, and
        nothing new but submodules and names loaded on first use."""
        if not isinstance(other, Attributes) or not self.seen.keys() <= other.seen.keys():
            return False
        if any(_holds_the_scripts_own(other.objects[key])
               for key in other.seen.keys() - self.seen.keys()):
            return False
        for key, before in self.seen.items():
            item, after = other.objects[key], other.seen[key]
            if not before.items() <= after.items():  # (compared in C: thousands of names)
                return False
            added = after.keys() - before.keys()
            if any(not _loaded_on_first_use(item, name) for name in added):
                return False
        return True


def _holds_the_scripts_own(item) -> bool:
    """Whether an object read only now (an engine module loaded during the run) holds a
    function or class the script defined: what a script patched into it with a value of
    another kind goes unseen (its state before loading was never read)."""
    return any(getattr(value, "__module__", None) == "__main__"
               for value in list(vars(item).values()))


def _loaded_on_first_use(item, name: str) -> bool:
    """Whether ``item.name`` is a submodule, or what the module it was defined in holds
    under that name (a module's ``__getattr__`` found it there and kept it): not a script's
    own assignment."""
    value = vars(item).get(name)
    if isinstance(value, types.ModuleType):
        return True
    home = sys.modules.get(getattr(value, "__module__", None) or "")
    return (isinstance(item, types.ModuleType) and home is not None and home is not item
            and vars(home).get(name) is value)


# A module's own bookkeeping, not its contents: ``__spec__`` changes as the engine's import
# hook hands the module out, ``__warningregistry__`` appears when it warns once.
_MODULE_BOOKKEEPING = frozenset({"__name__", "__doc__", "__package__", "__loader__",
                                 "__spec__", "__path__", "__file__", "__cached__",
                                 "__builtins__", "__warningregistry__"})


# ... and a class's: copyreg caches its slots' names there the first time one of its
# objects is pickled or copied (torch.save, copy.deepcopy of a model)
_CLASS_BOOKKEEPING = frozenset({"__slotnames__"})


def _ids(item) -> dict[str, int]:
    """Name → identity of each attribute: a module's but its bookkeeping, a class's all but
    its (``__mul__`` is a script's to replace). Read after every run: built in C, not a loop."""
    try:
        names = vars(item)
    except TypeError:  # no __dict__
        return {}
    ids = dict(zip(names.keys(), map(id, names.values()), strict=True))
    kept = _MODULE_BOOKKEEPING if isinstance(item, types.ModuleType) else _CLASS_BOOKKEEPING
    for name in kept.intersection(ids):
        del ids[name]
    return ids


class EngineError(RuntimeError):
    """An engine cannot start (torch missing, CUDA absent): one sentence for the user."""


class Engine(ABC):
    """What ``torch`` means in user code, and how to see its graph and backward passes."""

    name: str = ""

    @abstractmethod
    def torch_module(self):
        """The module user code gets for ``import torch``."""

    @abstractmethod
    def describe(self) -> str:
        """What actually runs, for the status line ("torch 2.13.0 · cpu")."""

    @abstractmethod
    def activate(self) -> contextlib.AbstractContextManager:
        """While active, ``import torch`` in user code resolves to this engine."""

    def prepare_for(self, code: str) -> None:  # noqa: B027 - most engines need nothing
        """Anything the engine must switch on before running ``code`` (none, by default)."""

    def warm_up(self) -> None:  # noqa: B027 - most engines need nothing
        """What the engine loads on first use, loaded now: a kernel calls it in the
        background before the user's runs need it (none, by default)."""

    def reading(self) -> contextlib.AbstractContextManager:
        """Around the kernel's reading of the script's tensors: a tensor subclass's
        ``__torch_function__`` is not asked (it would print or log the kernel's reads)."""
        return contextlib.nullcontext()

    @abstractmethod
    def record(self, recorder: TraceRecorder) -> contextlib.AbstractContextManager:
        """While active, every backward()/autograd.grad() is recorded into ``recorder``."""

    @abstractmethod
    def view(self) -> EngineView:
        """How the graph builder recognises and reads this engine's tensors."""

    def module_hooks(self) -> ModuleHooks | None:
        """How this engine reports module calls (graph nodes then name their nn.Module)."""
        return None

    def lacking(self, error: BaseException) -> str:
        """What of torch's this engine lacks, when ``error`` says that ("torch.linalg.lstsq",
        "Tensor.cummax"), else ""."""
        return ""

    def explain(self, error: BaseException) -> str | None:
        """A clearer message for a user's error that this engine can shed light on."""
        return None

    def process_state(self) -> tuple:
        """What a script may change of this engine for the rest of its process (its default
        dtype, grad mode, print options, its modules' and classes' attributes), compared
        before and after a run: kernel/fingerprint.py."""
        return ()


@dataclass
class EngineRun:
    """The outcome of running code on an engine: its namespace, graph and backward traces."""

    namespace: dict[str, Any]
    graph: Graph
    traces: list[BackwardTrace]
    error: BaseException | None = None
    figures_due: int = 0  # figures shown: inline_figures.render_pictures() draws them
    dropped_calls: int = 0  # backward calls beyond what the recorder keeps
    shown: str | None = None  # the repr of a cell's last expression
    timings: dict[str, float] = field(default_factory=dict)  # seconds: exec, build
    notes: list[str] = field(default_factory=list)  # what the graph leaves out, and why
    # with ``traces_later``: what makes the traces once the result is sent (None: no calls)
    later_traces: Callable[[], list[BackwardTrace]] | None = None


def run_code(code: str, engine: Engine, filename: str = "<script>",
             namespace: dict[str, Any] | None = None,
             display_last: bool = False, figure_scale: float = 1.0,
             traces_later: bool = False) -> EngineRun:
    """Execute ``code`` on ``engine`` here, recording its graph and every backward call.

    An exception in the code is returned in ``error`` (the graph is still built from what
    the code created before it failed). With ``display_last`` (a notebook cell) the value of
    a last expression statement is kept in ``_`` and its repr in ``shown``, as IPython does.
    The matplotlib figures it shows or leaves open are closed, as Jupyter's inline backend
    does, and kept for ``inline_figures.render_pictures`` to draw for a screen of
    ``figure_scale`` device pixels per pixel. With ``traces_later`` (the kernel) the
    traces are made by ``later_traces`` when the caller asks.
    """
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    view = engine.view()
    recorder = TraceRecorder(view.snapshot)
    error = None
    kept_builtins = dict(builtins.__dict__)
    for name, function in inline_figures.names_for_scripts().items():
        namespace.setdefault(name, function)
    inline_figures.begin(figure_scale, filename, code)
    hooks = engine.module_hooks()
    marks = None if hooks is None else source_lines.marks_of(namespace, hooks.mark,
                                                                   hooks.compiling)
    if marks is not None:
        recorder.place = marks.line_of
    engine.prepare_for(code)
    started = time.perf_counter()
    with engine.activate(), engine.record(recorder), _tracked(engine, hooks) as calls:
        shown = None
        try:
            if display_last and _ends_with_expression(code):
                namespace.pop(_SHOWN, None)
                exec(_compiled(code, filename, marks, keep_last=True), namespace)
                value = namespace.pop(_SHOWN, None)
                if value is not None:
                    namespace["_"] = value
                    shown = repr(value)
            else:
                exec(_compiled(code, filename, marks), namespace)
        except BaseException as exception:  # noqa: BLE001 - any ending is reported, even
            error = exception                # GeneratorExit raised by hand
        finally:
            _restore(builtins.__dict__, kept_builtins)  # a script that deleted len or
                                                        # replaced print breaks nothing here
            with _own_conditions():  # (still the engine's torch: matplotlib may ask for it)
                figures_due = inline_figures.finish()
    executed = time.perf_counter()
    notes: list[str] = []
    traces, later = [], None
    try:
        with _own_conditions(), engine.reading():
            named = named_tensors(namespace, view, notes)  # walked once for both
            recorder.settle([fn for _, t in named if (fn := grad_fn_of(t)) is not None])
            graph, ids = graph_of(named, view, recorder.nodes(), notes,
                                  _labels(namespace, calls, marks, view))
            graph.file = filename
            if traces_later and recorder.traces:
                later = functools.partial(recorder.to_model, ids)
            elif not traces_later:
                traces = recorder.to_model(ids)
    except MemoryError:
        # the script used up the memory (its own error says so): no graph, but no crash
        graph, traces = Graph(), []
        sys.stderr.write("(the graph was not drawn: no memory was left to read the tensors)\n")
    except Exception as failure:  # noqa: BLE001 - the user's run is over and fine: whatever
        graph, traces = Graph(), []  # its values do to the builder, the kernel goes on
        sys.stderr.write(f"(the graph was not drawn: reading the tensors failed with "
                         f"{type(failure).__name__}: {failure})\n")
    timings = {"exec": executed - started, "build": time.perf_counter() - executed}
    return EngineRun(namespace, graph, traces, error, figures_due, recorder.dropped, shown,
                     timings, notes, later)


@contextlib.contextmanager
def _tracked(engine: Engine, hooks: ModuleHooks | None) -> Iterator[ModuleCalls | None]:
    """The run's module calls, heard while it runs (None: the engine cannot tell them)."""
    if hooks is None:
        yield None
        return
    calls = ModuleCalls(hooks, engine.torch_module().Tensor)
    with calls.tracking():
        yield calls


def _labels(namespace: dict, calls: ModuleCalls | None,
            marks: source_lines.StatementMarks | None, view: EngineView):
    """What gives the graph's nodes their modules and lines, once it is built."""
    if calls is None or marks is None:
        return None

    def label(graph: Graph, objects: list) -> None:
        assign_modules(graph, objects, calls, module_paths(namespace, calls), view.to_numpy)
        source_lines.assign_lines(graph, objects, marks)  # (after modules: it reads them)

    return label


def _compiled(code: str, filename: str, marks: source_lines.StatementMarks | None,
              keep_last: bool = False) -> types.CodeType:
    """The code compiled, with a mark before each statement (source_lines: which line made
    each node) where ``marks`` hears them, and those statements learnt."""
    compiled, statements = _compiled_once(code, filename, marks is not None, keep_last)
    if marks is not None:
        marks.learn(statements, code)
    return compiled


@functools.lru_cache(maxsize=16)
def _compiled_once(code: str, filename: str, marked: bool,
                   keep_last: bool) -> tuple[types.CodeType, dict]:
    """The code compiled (a cell that keeps its last value, rewritten first). A run again of
    the same text (Run all once more, Live) takes the code object it made before: compiling
    a tutorial took a millisecond or two of each run. A SyntaxError is not kept. Nothing of
    this module's ``from __future__`` is passed on: the script's annotations are python's."""
    if not marked and not keep_last:
        return compile(code, filename, "exec", dont_inherit=True), {}
    tree = ast.parse(code, filename)
    if keep_last:
        tree = _keep_last_value(tree)
    statements: dict = {}
    if marked:
        tree, statements = source_lines.marked(tree, code)
    return compile(tree, filename, "exec", dont_inherit=True), statements


_SHOWN = "__playground_shown__"
# Deep enough for the builder's own walks, whatever limit the script set (a script that set 50
# stays at 50 for its next cell).
OWN_RECURSION_LIMIT = 3000


@contextlib.contextmanager
def _own_conditions() -> Iterator[None]:
    """What the script changed for itself does not reach the kernel's reading of its tensors:
    warnings turned into errors (``warnings.simplefilter("error")``), NumPy told to raise on
    overflow, a recursion limit of 50."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, OWN_RECURSION_LIMIT))
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            yield
    finally:
        sys.setrecursionlimit(limit)


def _ends_with_expression(code: str) -> bool:
    """The code's last statement is an expression, not ended by ``;`` (IPython's "quiet")."""
    try:
        body = ast.parse(code).body
    except SyntaxError:
        return False
    return bool(body) and isinstance(body[-1], ast.Expr) and \
        not code.rstrip().endswith(";")


def _keep_last_value(tree: ast.Module) -> ast.Module:
    """The code with its last expression assigned to a hidden name, line numbers kept."""
    last = tree.body[-1]
    keep = ast.Assign(targets=[ast.Name(_SHOWN, ast.Store())], value=last.value)
    tree.body[-1] = ast.copy_location(keep, last)
    return ast.fix_missing_locations(tree)


def _restore(current: dict, kept: dict) -> None:
    if current != kept:
        current.clear()
        current.update(kept)
