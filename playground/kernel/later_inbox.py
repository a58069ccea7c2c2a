"""The window's end of what the kernel sends of a run after its result: its backward calls
(Traces), its figures' PNGs (Pictures), then their SVGs (Vectors), kept for a caller that
waits and passed to who listens."""

from __future__ import annotations

import threading
from collections.abc import Callable

from playground.kernel import protocol
from playground.model.figure import DrawnFigures
from playground.model.trace import BackwardTrace, traces_from_json

RUNS_KEPT = 8  # runs whose traces and figures are kept for a caller to ask for


class LaterInbox:
    """The traces and figures of the last runs, by run id, as they arrive (from the reader
    thread)."""

    def __init__(self) -> None:
        self._traces: dict[str, list[BackwardTrace]] = {}
        self._pictures: dict[str, DrawnFigures] = {}
        self._vectors: dict[str, list] = {}
        self._arrived = threading.Condition()
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
