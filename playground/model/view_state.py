"""What the window shows (the run, the selection, the backward replay) as events views follow.

No Qt here: the views subscribe to ``ViewState.events`` and draw from the state; the window
and the player only call its methods. After a run the views show its final state; a replay
shows one recorded backward call step by step, only while the user asks for it.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace

from playground.model.display import paths_between
from playground.model.figure import DrawnFigures, Figure, add_vectors
from playground.model.graph import Graph
from playground.model.playback import Playback, StepState
from playground.model.run_result import RunResult
from playground.model.trace import BackwardTrace

# A training loop calls backward() once a step: the replay list keeps this many, the latest.
MAX_CALLS = 300
MAX_FIGURES_SHOWN = 200  # of Run all cells (each cell's run sends at most MAX_FIGURES)
# What views' handlers raised, newest last (the test suite fails a test that adds one).
FAILURES: list[str] = []
KEPT_FAILURES = 100


class Event:
    """A list of callbacks called in order with the event's arguments."""

    def __init__(self, on_failure: Callable[[str], None] | None = None) -> None:
        self._callbacks: list[Callable] = []
        self._on_failure = on_failure  # told, in one line, when a callback raises

    def connect(self, callback: Callable) -> None:
        self._callbacks.append(callback)

    def disconnect(self, callback: Callable) -> None:
        self._callbacks.remove(callback)

    def __contains__(self, callback: Callable) -> bool:
        return callback in self._callbacks

    def emit(self, *arguments) -> None:
        """Every callback hears it, even after one of them failed (that one is reported)."""
        for callback in list(self._callbacks):
            try:
                callback(*arguments)
            except Exception as error:  # noqa: BLE001 - one broken view must not blank others
                self._failed(callback, error)

    def _failed(self, callback: Callable, error: Exception) -> None:
        traceback.print_exc()
        where = getattr(callback, "__qualname__", repr(callback))
        line = f"{where} failed: {type(error).__name__}: {error}"
        FAILURES.append(line)
        del FAILURES[:-KEPT_FAILURES]
        if self._on_failure is not None:
            try:
                self._on_failure(line)
            except Exception:  # noqa: BLE001 - whoever reports it broke too: printed above
                traceback.print_exc()


class ViewEvents:
    """The events of a ViewState; each passes what changed."""

    def __init__(self) -> None:
        # (str) a view's handler raised: the window says so (it is not one of the views')
        self.failure = Event()
        report = self.failure.emit
        self.reset = Event(report)        # () everything cleared: New, Open, an engine switch
        self.run_started = Event(report)  # (title, continues) a run or a cell begins
        self.output = Event(report)       # (stream, text) what the run printed, as it comes
        self.remark = Event(report)       # (text) the app's own line: the kernel restarting
        self.result = Event(report)       # (RunResult) a run finished (each cell of Run all)
        # (list[Figure]) the figures shown: a run's came, drawn after its result
        self.figures = Event(report)
        self.graph = Event(report)        # (Graph | None) the graph on screen changed
        self.selection = Event(report)    # (list[str]) selected node ids (two: paths between)
        self.calls = Event(report)        # (list[ReplayCall]) the backward calls to replay
        # (StepState | None) a replay step, with how long its gradients glide; None: the
        # final state
        self.step = Event(report)


@dataclass
class ReplayCall:
    """One recorded backward()/autograd.grad() and the graph it ran on."""

    graph: Graph
    trace: BackwardTrace
    where: str = ""  # "cell 3" for Run all cells
    number: int = 0  # which backward call it was, counted over the runs shown (1: the first)

    @property
    def call(self) -> str:
        return "backward()" if self.trace.kind == "backward" else "autograd.grad()"


class ViewState:
    """The one state every view draws from."""

    def __init__(self) -> None:
        self.events = ViewEvents()
        self.result: RunResult | None = None
        self.calls: list[ReplayCall] = []
        self.calls_made = 0  # backward calls of the runs shown, offered in ``calls`` or not
        self.figures: list[Figure] = []  # matplotlib's, of the run (or every cell of Run all)
        # the runs shown whose figures the kernel is still drawing: where each ran ("cell 2"),
        # and figures that came before their run's result was shown (they may overtake it)
        self._figures_coming: dict[str, str] = {}
        self._figures_early: DrawnFigures | None = None
        self._traces_early: tuple[str, list] | None = None  # (run, traces) before its result
        self._traces_where = ""  # the run whose traces are due: where it ran
        self._when_traces_come: list[Callable[[], None]] = []  # a step asked for meanwhile
        self._figures_replaced = True  # whether ``figures`` are the last run's own yet
        self.selection: list[str] = []
        self.selected_object: object | None = None  # what was clicked: a node or a folded group
        self.paths: object | None = None            # model.display.Paths between two nodes
        self.call_index = 0
        self.playback: Playback | None = None
        self.position = 0
        self.note = ""     # why the views are empty ("code changed: run it to replay")
        # node id -> the collapsed module the graph view shows it in: the replay steps over
        # a collapsed module as one stage
        self.stages: dict[str, str] = {}
        # the text of a line of the code in the editor (1-based), as the window reads it:
        # the inspector shows the line a node came from
        self.code_line: Callable[[int], str] = lambda _line: ""

    # ----- reading ------------------------------------------------------------------------------
    @property
    def graph(self) -> Graph | None:
        """The graph on screen: the replayed call's, else the last run's."""
        if self.playback is not None:
            return self.playback.graph
        return self.result.graph if self.result is not None else None

    def step_state(self) -> StepState | None:
        return self.playback.state(self.position) if self.playback is not None else None

    # ----- runs -------------------------------------------------------------------------------
    def begin_run(self, title: str, continues: bool = False) -> None:
        """A run (or the next cell of Run all cells: ``continues``) begins."""
        self.events.run_started.emit(title, continues)

    def add_output(self, stream: str, text: str) -> None:
        """What the running code printed ("stdout" or "stderr"), as it arrives."""
        self.events.output.emit(stream, text)

    def remark(self, text: str) -> None:
        """A line of the app's own for the console (the kernel starting, ready)."""
        self.events.remark.emit(text)

    @property
    def figures_coming(self) -> bool:
        """Whether a run shown has figures the kernel is still drawing."""
        return bool(self._figures_coming)

    def add_pictures(self, drawn: DrawnFigures) -> None:
        """A run's figures, drawn by the kernel after its result: added to those shown, with
        what went wrong in drawing them said in the console."""
        where = self._figures_coming.pop(drawn.run, None)
        if where is None:
            if self.result is None or self.result.run != drawn.run:
                self._figures_early = drawn  # its result is on its way
            return
        for figure in drawn.figures:
            figure.where = where
        self._replace_last_runs_figures()
        self.figures = (self.figures + drawn.figures)[-MAX_FIGURES_SHOWN:]
        for line in drawn.failures:
            self.remark(line.rstrip("\n"))
        for note in drawn.notes:
            self.remark(f"({note})")
        if drawn.stopped:
            self.remark("(stopped: the figures were not drawn)")
        self.events.figures.emit(self.figures)

    @property
    def traces_coming(self) -> bool:
        """Whether the run shown has backward calls the kernel is still sending."""
        return self.result is not None and self.result.traces_due

    def when_traces_come(self, action: Callable[[], None]) -> bool:
        """Do ``action`` once the run's backward calls have come, if they are still on their
        way (then True): a step pressed as the graph appears is not lost."""
        if self.traces_coming:
            self._when_traces_come.append(action)
        return self.traces_coming

    def add_traces(self, run: str, traces: list) -> None:
        """Run ``run``'s backward calls, which the kernel sends after its result: the
        player's steps."""
        result = self.result
        if result is None or result.run != run:
            self._traces_early = (run, traces)  # its result is on its way
            return
        if not result.traces_due:
            return
        result.traces, result.traces_due = traces, False
        self._add_calls(result, self._traces_where)
        self.events.calls.emit(self.calls)
        waiting, self._when_traces_come = self._when_traces_come, []
        for action in waiting:
            action()

    def figures_lost(self) -> None:
        """The kernel that was drawing figures is gone (restarted, switched): none come."""
        if self._figures_coming:
            self._figures_coming, self._figures_early = {}, None
            self._replace_last_runs_figures()
            self.events.figures.emit(self.figures)

    def _replace_last_runs_figures(self) -> None:
        """The figures kept on screen from the run before this one go (its own came)."""
        if not self._figures_replaced:
            self.figures, self._figures_replaced = [], True

    def add_vectors(self, run: str, vectors: list) -> None:
        """The SVGs of run ``run``'s figures, which the kernel sends after its result (the
        Figures pane reads them when its Save menu opens)."""
        add_vectors(self.figures, run, vectors)

    def reset(self, note: str = "") -> None:
        """Nothing shown: a new document, another file, another engine."""
        self.result, self.calls, self.calls_made = None, [], 0
        self.figures, self._figures_coming, self._figures_early = [], {}, None
        self._traces_early, self._when_traces_come = None, []
        self.selection, self.selected_object, self.paths = [], None, None
        self.playback, self.position, self.call_index = None, 0, 0
        self.note = note
        self.events.reset.emit()
        self.events.graph.emit(None)
        self.events.calls.emit(self.calls)
        self.events.selection.emit(self.selection)
        self.events.step.emit(None)

    def show_result(self, result: RunResult, where: str = "", continues: bool = False) -> None:
        """A run's final state; ``continues`` keeps the backward calls of earlier cells."""
        before = self.graph
        self.playback, self.position, self.note = None, 0, ""
        self.result = result
        if not continues:
            self.calls, self.calls_made = [], 0
            self._figures_coming = {}
            # the last run's figures stay until this run's come (no blank pane meanwhile)
            self._figures_replaced = not result.figures_due
            if self._figures_replaced:
                self.figures = []
        for figure in result.figures:
            figure.where = where
        self.figures = (self.figures + result.figures)[-MAX_FIGURES_SHOWN:]
        if result.figures_due:
            self._figures_coming[result.run] = where
        early, self._traces_early = self._traces_early, None
        self._when_traces_come = []  # (asked of the run before)
        if result.traces_due and early is not None and early[0] == result.run:
            result.traces, result.traces_due = early[1], False
        self._traces_where = where
        if not result.traces_due:
            self._add_calls(result, where)
        self.events.result.emit(result)
        if self.graph is not before or result.graph is not None:
            self.events.graph.emit(self.graph)
        self.events.calls.emit(self.calls)
        self._reselect(result.graph)
        self.events.step.emit(None)
        early, self._figures_early = self._figures_early, None
        if early is not None and early.run == result.run and result.figures_due:
            self.add_pictures(early)

    def _add_calls(self, result: RunResult, where: str) -> None:
        """The run's backward calls become the player's, after those kept from earlier cells."""
        if result.graph is not None:
            self.calls += [ReplayCall(result.graph, trace, where,
                                      self.calls_made + (trace.call or index + 1))
                           for index, trace in enumerate(result.traces) if trace.steps]
        self.calls_made += len(result.traces) + result.dropped_calls
        if len(self.calls) > MAX_CALLS:
            del self.calls[:len(self.calls) - MAX_CALLS]
        self.call_index = len(self.calls) - 1 if self.calls else 0

    def _reselect(self, graph: Graph | None) -> None:
        """The selection carried to a new run's graph: the same nodes, their new values."""
        known = graph.node_ids() if graph is not None else set()
        kept = [node_id for node_id in self.selection if node_id in known]
        if not kept and not self.selection:
            return
        paths = paths_between(graph, *kept) if len(kept) == 2 else None
        self.select(kept, graph.node(kept[-1]) if kept else None, paths)

    def forget_replay(self, note: str) -> None:
        """The code changed: the recorded calls no longer match it (the final state stays)."""
        if not self.calls and self.playback is None:
            return
        self.stop_replay()
        self.calls, self.calls_made, self.note = [], 0, note
        self.events.calls.emit(self.calls)

    # ----- selection ----------------------------------------------------------------------------
    def select(self, node_ids: list[str], selected: object | None = None,
               paths: object | None = None) -> None:
        self.selection, self.selected_object, self.paths = list(node_ids), selected, paths
        self.events.selection.emit(self.selection)

    # ----- the replay -------------------------------------------------------------------------
    def choose_call(self, index: int) -> None:
        """Which call the replay shows; choosing one while replaying restarts it there."""
        if self.when_traces_come(lambda: self.choose_call(index)):
            return
        if not 0 <= index < len(self.calls) or index == self.call_index:
            return
        self.call_index = index
        if self.playback is not None:
            self.step_to(0, restart=True)

    def step_to(self, position: int, restart: bool = False, glide_ms: int = 0) -> None:
        """Show the replay at ``position`` (0: before backward), starting it if needed; its
        gradients glide along their edges for ``glide_ms``."""
        if self.when_traces_come(lambda: self.step_to(position, restart, glide_ms)):
            return
        if not self.calls:
            return
        if self.playback is None or restart:
            before = self.graph
            call = self.calls[self.call_index]
            self.playback = Playback(call.graph, call.trace)
            self.position = -1
            if self.graph is not before:
                self.events.graph.emit(self.graph)
        position = max(0, min(position, self.playback.count))
        if position == self.position:
            return
        self.position = position
        self.events.step.emit(replace(self.step_state(), glide_ms=glide_ms))

    def step_by(self, delta: int, glide_ms: int = 0) -> None:
        """One step on; past the last step the replay ends and the final state is back."""
        if self.when_traces_come(lambda: self.step_by(delta, glide_ms)):
            return
        if self.playback is None:  # from the final state: the first step, or the last
            self.step_to(1 if delta > 0 else self.calls_count_of_current(), glide_ms=glide_ms)
            return
        target = self._next_stop(delta) if abs(delta) == 1 and self.stages else \
            self.position + delta
        if target > self.playback.count:
            self.stop_replay()
        else:
            self.step_to(target, glide_ms=glide_ms)

    def _next_stop(self, delta: int) -> int:
        """The next position the player stops at: every step, but of the steps of one
        collapsed module in a row only the last (where all its gradients have left it)."""
        steps = self.playback.trace.steps

        def stage(position: int) -> str | None:
            return self.stages.get(steps[position - 1].node) \
                if 1 <= position <= len(steps) else None

        position = self.position + delta
        while 1 <= position <= len(steps) and stage(position) is not None and \
                stage(position + 1) == stage(position):
            position += delta
        return position

    def calls_count_of_current(self) -> int:
        return len(self.calls[self.call_index].trace.steps) if self.calls else 0

    def current_call_failed(self) -> str:
        """"backward()" (or "autograd.grad()") when the chosen call raised, else ""."""
        if not self.calls or not self.calls[self.call_index].trace.failed:
            return ""
        return self.calls[self.call_index].call

    def stop_replay(self) -> None:
        """Back to the run's final state."""
        if self.playback is None:
            return
        before = self.graph
        self.playback, self.position = None, 0
        if self.graph is not before:
            self.events.graph.emit(self.graph)
        self.events.step.emit(None)
