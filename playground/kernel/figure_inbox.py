"""The window's end of what the kernel sends of a run's figures after its result: the PNGs
(Pictures), then the SVGs (Vectors), kept for a caller that waits and passed to who listens."""

from __future__ import annotations

import threading
from collections.abc import Callable

from playground.kernel import protocol
from playground.model.figure import DrawnFigures

RUNS_KEPT = 8  # runs whose figures are kept for a caller to ask for


class FigureInbox:
    """The figures of the last runs, by run id, as they arrive (from the reader thread)."""

    def __init__(self) -> None:
        self._pictures: dict[str, DrawnFigures] = {}
        self._vectors: dict[str, list] = {}
        self._arrived = threading.Condition()
        self.on_pictures: Callable[[DrawnFigures], None] | None = None
        self.on_vectors: Callable[[str, list], None] | None = None

    def take(self, message: protocol.Message) -> bool:
        """Keep ``message`` if it is a Pictures or Vectors one (then True)."""
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
