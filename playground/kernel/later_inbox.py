"""The window's end of what the kernel sends of a run after its result: its backward calls
(Traces), its figures' PNGs (Pictures), then their SVGs (Vectors), kept for a caller that
waits and passed to who listens."""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Callable

from playground.kernel import protocol
from playground.model.figure import DrawnFigures
from playground.model.trace import BackwardTrace, traces_from_json

RUNS_KEPT = 8  # runs whose traces and figures are kept for a caller to ask for
EXIT_WAIT_S = 2.0  # how long an ended kernel's exit is waited for before its figures are given up


class LaterInbox:
    """The traces and figures of the last runs, by run id, as they arrive (from the reader
    thread)."""

    def __init__(self) -> None:
        self._traces: dict[str, list[BackwardTrace]] = {}
        self._pictures: dict[str, DrawnFigures] = {}
        self._vectors: dict[str, list] = {}
        self._arrived = threading.Condition()
        self._awaited: str | None = None  # the run whose figures the window waits for
        self.why_ended = ""  # what ended the kernel while it drew them, when the window knows
        self.on_traces: Callable[[str, list[BackwardTrace]], None] | None = None
        self.on_pictures: Callable[[DrawnFigures], None] | None = None
        self.on_vectors: Callable[[str, list], None] | None = None

    def take(self, message: protocol.Message) -> bool:
        """Keep ``message`` if it is a Traces, Pictures or Vectors one (then True)."""
        if isinstance(message, protocol.Traces):
            traces = traces_from_json(message.traces)
            self._keep(self._traces, message.id, traces)
            if self.on_traces is not None:
                self.on_traces(message.id, traces)
            return True
        if isinstance(message, protocol.Pictures):
            drawn = DrawnFigures.from_wire(message.id, message.figures, message.notes,
                                           message.failures, message.stopped)
            self._keep(self._pictures, message.id, drawn)
            if self.on_pictures is not None:
                self.on_pictures(drawn)
            return True
        if isinstance(message, protocol.Vectors):
            self._keep(self._vectors, message.id, message.figures)
            if self.on_vectors is not None:
                self.on_vectors(message.id, message.figures)
            return True
        return False

    def await_pictures(self, run_id: str) -> None:
        """The window waits for run ``run_id``'s figures (the kernel draws them now)."""
        self._awaited, self.why_ended = run_id, ""

    @property
    def drawing(self) -> str | None:
        """The run whose figures the window waits for and which have not come, if any."""
        with self._arrived:
            awaited = self._awaited
            return None if awaited is None or awaited in self._pictures else awaited

    def give_up(self, why: str = "", process: subprocess.Popen | None = None) -> None:
        """The kernel is gone: figures still awaited come as stopped (with ``why`` said),
        so the window's Stop goes off; with no ``why`` (a restart the window asked for, which
        says so itself) none come."""
        run_id, self._awaited = self.drawing, None
        if run_id is None or not why:
            return
        if process is not None:  # its exit complete: a run started on hearing of it finds
            with contextlib.suppress(subprocess.TimeoutExpired):  # it gone, not half gone
                process.wait(timeout=EXIT_WAIT_S)
        self.take(protocol.Pictures(run_id, [], [], [self.why_ended or why], True))

    def _keep(self, kept: dict, run_id: str, value) -> None:
        with self._arrived:
            kept[run_id] = value
            while len(kept) > RUNS_KEPT:
                del kept[next(iter(kept))]
            self._arrived.notify_all()

    def traces(self, run_id: str, timeout: float = 60.0) -> list[BackwardTrace] | None:
        """Run ``run_id``'s backward calls as the kernel sent them after its result, waiting
        for them up to ``timeout`` seconds; None if they do not come."""
        with self._arrived:
            self._arrived.wait_for(lambda: run_id in self._traces, timeout)
            return self._traces.get(run_id)

    def traces_while(self, run_id: str, alive: Callable[[], bool],
                     poll: float) -> list[BackwardTrace]:
        """Run ``run_id``'s backward calls, waited for while ``alive()`` (asked every
        ``poll`` seconds); none if it stops being so first."""
        while (traces := self.traces(run_id, poll)) is None:
            if not alive():
                return []
        return traces

    def pictures(self, run_id: str, timeout: float = 60.0) -> DrawnFigures | None:
        """Run ``run_id``'s figures as the kernel drew them after its result, waiting for
        them up to ``timeout`` seconds; None if they do not come."""
        with self._arrived:
            self._arrived.wait_for(lambda: run_id in self._pictures, timeout)
            return self._pictures.get(run_id)

    def vectors(self, run_id: str, timeout: float = 60.0) -> list | None:
        """The SVGs of run ``run_id``'s figures (the Vectors message's list), waiting for
        them up to ``timeout`` seconds; None if they do not come."""
        with self._arrived:
            self._arrived.wait_for(lambda: run_id in self._vectors, timeout)
            return self._vectors.get(run_id)
