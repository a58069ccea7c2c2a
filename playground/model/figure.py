"""Figures that user code drew with the matplotlib.pyplot stand-in, as plain data.

JSON (inside a RunResult): ``{"number", "size": [w, h] inches, "saved": [absolute paths],
"axes": [{"grid": [rows, columns, index], "title", "xlabel", "ylabel", "xlim", "ylim",
"show_grid", "legend", "series": [{"kind": "line" | "points", "x": [...], "y": [...],
"colour", "marker", "line", "label", "size"}]}]}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

DEFAULT_SIZE = (6.4, 4.8)  # inches, as matplotlib's
MAX_GRID_SIDE = 12  # rows or columns of subplots a figure may have (the Figures tab lays out)


@dataclass
class Series:
    """One plot() or scatter() call's points, with matplotlib's style letters resolved."""

    x: np.ndarray
    y: np.ndarray
    kind: str = "line"            # "points": markers only (scatter, or a fmt like 'ro')
    colour: str | None = None     # a name or #rrggbb; None: the next of the cycle
    marker: str | None = None     # matplotlib's marker letter
    line: str | None = "-"        # "-", "--", ":", "-." or None
    label: str | None = None
    size: float | None = None

    def to_json(self, raw: bool = False) -> dict:
        return {"kind": self.kind, "x": self.x if raw else self.x.tolist(),
                "y": self.y if raw else self.y.tolist(), "colour": self.colour,
                "marker": self.marker, "line": self.line, "label": self.label,
                "size": self.size}

    @classmethod
    def from_json(cls, data: dict) -> Series:
        return cls(np.asarray(data["x"], dtype=float), np.asarray(data["y"], dtype=float),
                   data["kind"], data["colour"], data["marker"], data["line"], data["label"],
                   data["size"])


@dataclass
class Axes:
    grid: tuple[int, int, int] = (1, 1, 1)  # subplot(rows, columns, index)
    title: str = ""
    xlabel: str = ""
    ylabel: str = ""
    xlim: tuple[float, float] | None = None
    ylim: tuple[float, float] | None = None
    show_grid: bool = False
    legend: bool = False
    series: list[Series] = field(default_factory=list)

    def to_json(self, raw: bool = False) -> dict:
        return {"grid": list(self.grid), "title": self.title, "xlabel": self.xlabel,
                "ylabel": self.ylabel, "xlim": None if self.xlim is None else list(self.xlim),
                "ylim": None if self.ylim is None else list(self.ylim),
                "show_grid": self.show_grid, "legend": self.legend,
                "series": [s.to_json(raw) for s in self.series]}

    @classmethod
    def from_json(cls, data: dict) -> Axes:
        return cls(tuple(data["grid"]), data["title"], data["xlabel"], data["ylabel"],
                   _finite_pair(data["xlim"]), _finite_pair(data["ylim"]),
                   data["show_grid"], data["legend"],
                   [Series.from_json(s) for s in data["series"]])


@dataclass
class Figure:
    number: int = 1
    size: tuple[float, float] = DEFAULT_SIZE
    axes: list[Axes] = field(default_factory=list)
    saved: list[str] = field(default_factory=list)  # savefig() targets, absolute paths

    def to_json(self, raw: bool = False) -> dict:
        return {"number": self.number, "size": list(self.size), "saved": list(self.saved),
                "axes": [a.to_json(raw) for a in self.axes]}

    @classmethod
    def from_json(cls, data: dict) -> Figure:
        size = _finite_pair(data["size"])
        if size is None or min(size) <= 0:
            size = DEFAULT_SIZE  # the kernel's data is not trusted to be drawable
        return cls(data["number"], size, [Axes.from_json(a) for a in data["axes"]],
                   list(data["saved"]))


def _finite_pair(values) -> tuple[float, float] | None:
    """Two finite numbers (a figure's size, an axis's limits), or None."""
    if values is None or len(values) != 2:
        return None
    pair = (float(values[0]), float(values[1]))
    return pair if all(map(math.isfinite, pair)) else None
