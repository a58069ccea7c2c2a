"""The interface every engine implements, and running code on one (in this process)."""

from __future__ import annotations

import builtins
import contextlib
import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from playground.engines import pyplot
from playground.engines.graph_builder import EngineView, build_graph
from playground.engines.trace_recorder import TraceRecorder
from playground.model import Graph
from playground.model.figure import Figure
from playground.model.trace import BackwardTrace


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

    @abstractmethod
    def record(self, recorder: TraceRecorder) -> contextlib.AbstractContextManager:
        """While active, every backward()/autograd.grad() is recorded into ``recorder``."""

    @abstractmethod
    def view(self) -> EngineView:
        """How the graph builder recognises and reads this engine's tensors."""

    def explain(self, error: BaseException) -> str | None:
        """A clearer message for a user's error that this engine can shed light on."""
        return None


@dataclass
class EngineRun:
    """The outcome of running code on an engine: its namespace, graph and backward traces."""

    namespace: dict[str, Any]
    graph: Graph
    traces: list[BackwardTrace]
    error: BaseException | None = None
    figures: list[Figure] = field(default_factory=list)
    dropped_calls: int = 0  # backward calls beyond what the recorder keeps


def run_code(code: str, engine: Engine, filename: str = "<script>",
             namespace: dict[str, Any] | None = None) -> EngineRun:
    """Execute ``code`` on ``engine`` here, recording its graph and every backward call.

    An exception in the code is returned in ``error`` (the graph is still built from what
    the code created before it failed).
    """
    namespace = {"__name__": "__main__"} if namespace is None else namespace
    view = engine.view()
    recorder = TraceRecorder(view.array)
    error = None
    kept_builtins = dict(builtins.__dict__)
    with engine.activate(), engine.record(recorder), pyplot.stand_in():
        try:
            exec(compile(code, filename, "exec"), namespace)
        except KeyboardInterrupt:
            raise  # the kernel's Stop: the caller reports it
        except BaseException as exception:  # noqa: BLE001 - any ending is reported, even
            error = exception                # GeneratorExit raised by hand
        finally:
            _restore(builtins.__dict__, kept_builtins)  # a script that deleted len or
            figures = pyplot.take_figures()             # replaced print breaks nothing here
    try:
        graph, ids = build_graph(namespace, view, recorder.nodes())
        traces = recorder.to_model(ids)
    except MemoryError:
        # the script used up the memory (its own error says so): no graph, but no crash
        graph, traces = Graph(), []
        sys.stderr.write("(the graph was not drawn: no memory was left to read the tensors)\n")
    return EngineRun(namespace, graph, traces, error, figures, recorder.dropped)


def _restore(current: dict, kept: dict) -> None:
    if current != kept:
        current.clear()
        current.update(kept)
