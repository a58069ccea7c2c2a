"""What the kernel sends of a run's figures after its result: the PNGs at once (a Pictures
frame), the SVGs for export while no request waits (a Vectors frame per run)."""

from __future__ import annotations

import collections
from collections.abc import Callable

import numpy as np

from playground.engines import inline_figures
from playground.kernel import protocol, wire
from playground.kernel.channel import KernelChannel


def pictures_frame(render: Callable[[str], tuple], run_id: str) -> bytes:
    """The run's figures drawn as PNGs, as a frame. Stop ends the drawing (the figures are
    then left out and closed); one that cannot cross the wire is said instead."""
    try:
        figures, notes, failures, stopped = render(run_id)
    except Exception as failure:  # noqa: BLE001 - the kernel's own drawing failed: say so
        figures, notes, stopped = [], [], False
        failures = [f"The figures could not be drawn: {type(failure).__name__}: {failure}\n"]
    message = protocol.Pictures(run_id, [figure.to_json(raw=True) for figure in figures],
                                notes, failures, stopped)
    try:
        return wire.encode(message.to_wire())
    except Exception as failure:  # noqa: BLE001
        return wire.encode(protocol.Pictures(run_id, [], [], [
            f"The figures could not be sent: {type(failure).__name__}: {failure}\n"],
            stopped).to_wire())


class FigureVectors:
    """The SVGs of runs' figures (for export), drawn while no request waits, a figure at a
    time: a tenth of a second and more each, which the next run must not wait for."""

    RUNS_KEPT = 8  # runs whose SVGs wait at most (typing with Live on makes one a second)
    OVERTAKEN = "later runs came before its SVG was drawn"

    def __init__(self) -> None:
        self.runs: collections.deque = collections.deque()  # [run id, [(number, figure)], done]

    def __bool__(self) -> bool:
        return bool(self.runs)

    def add(self, channel: KernelChannel, run_id: str) -> None:
        """The figures run ``run_id`` drew (inline_figures.vectors_due) wait their turn."""
        due = inline_figures.vectors_due()
        if due:
            self.runs.append([run_id, due, []])
        while len(self.runs) > self.RUNS_KEPT:
            run_id, due, done = self.runs.popleft()
            channel.send_frame(self._frame(run_id, done + [
                [number, None, self.OVERTAKEN] for number, _figure in due]))

    def draw_one(self, channel: KernelChannel) -> None:
        """The next figure's SVG; a run's Vectors go once its last figure is drawn."""
        run_id, due, done = self.runs[0]
        number, figure = due.pop(0)
        svg, why = inline_figures.vector(figure)
        done.append([number, None if svg is None else np.frombuffer(svg, np.uint8), why])
        if not due:
            self.runs.popleft()
            channel.send_frame(self._frame(run_id, done))

    @staticmethod
    def _frame(run_id: str, figures: list) -> bytes:
        """The Vectors frame; none if they cannot cross the wire."""
        try:
            return wire.encode(protocol.Vectors(run_id, figures).to_wire())
        except Exception:  # noqa: BLE001 - the PNGs are shown: export falls back to them
            return wire.encode(protocol.Vectors(run_id, []).to_wire())

