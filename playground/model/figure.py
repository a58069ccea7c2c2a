"""A figure user code drew with matplotlib, as the kernel rendered it: PNG bytes (and SVG).

JSON (inside a RunResult): ``{"number", "label", "png", "svg", "width", "height", "scale"}``:
``png`` and ``svg`` are bytes (a uint8 array on the wire, base64 text in a JSON file; ``svg``
may be null), ``width``/``height`` the PNG's pixels, ``scale`` the device pixel ratio it was
drawn at. The bytes come from the kernel and are untrusted: the sizes are checked here
against the PNG's own header, and only Qt's image reader decodes them, in the window.
"""

from __future__ import annotations

import base64
import struct
from dataclasses import dataclass

import numpy as np

MAX_PNG_BYTES = 24 << 20    # one figure's PNG (a 5000 x 5000 photo-like image is ~20 MB)
MAX_SVG_BYTES = 16 << 20    # past this a figure is kept as PNG only
MAX_PIXELS = 25_000_000     # the kernel lowers a figure's resolution to stay under this
MAX_FIGURES = 50            # per run; more are counted in a note, not sent
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass
class Figure:
    """One figure: its number in the run (1, 2, ...), matplotlib's label, the images."""

    number: int
    png: bytes
    svg: bytes | None = None
    scale: float = 1.0       # device pixels per logical pixel it was rendered for
    label: str = ""          # fig.get_label(), or "" (matplotlib's default)
    where: str = ""          # "cell 3" under Run all cells: set by the window, not sent
    run: str = ""            # the id of the run that drew it (its SVG comes after it)
    no_svg: str = ""         # why it has no SVG ("" while it may still come)

    @property
    def pixel_size(self) -> tuple[int, int]:
        return png_size(self.png)

    @property
    def title(self) -> str:
        """"Figure 2", or "Cell 3 · Figure 2 · loss" with a cell and a label (numbers count
        a run's figures: each cell of Run all cells is a run of its own)."""
        return " · ".join(part for part in (self.where.capitalize(), f"Figure {self.number}",
                                            self.label) if part)

    def to_json(self, raw: bool = False) -> dict:
        width, height = self.pixel_size
        return {"number": self.number, "label": self.label, "scale": self.scale,
                "width": width, "height": height,
                "png": _bytes_out(self.png, raw),
                "svg": None if self.svg is None else _bytes_out(self.svg, raw)}

    @classmethod
    def from_json(cls, data: dict) -> Figure:
        png = _bytes_in(data["png"], MAX_PNG_BYTES)
        png_size(png)  # raises on anything that is not a PNG of a sane size
        svg = None if data.get("svg") is None else _bytes_in(data["svg"], MAX_SVG_BYTES)
        scale = float(data.get("scale", 1.0))
        if not 0.25 <= scale <= 8.0:  # (also NaN)
            scale = 1.0
        return cls(int(data["number"]), png, svg, scale, str(data.get("label", ""))[:200])


@dataclass
class DrawnFigures:
    """A run's figures as the kernel drew them once its result was sent: the figures (each
    knows its run), notes on them, a line for each that failed to draw, and whether Stop
    ended the drawing (then none is there)."""

    run: str
    figures: list[Figure]
    notes: list[str]
    failures: list[str]
    stopped: bool = False

    @classmethod
    def from_wire(cls, run: str, figures: list, notes: list, failures: list,
                  stopped: bool) -> DrawnFigures:
        """From the kernel's Pictures message (untrusted: each figure checked here)."""
        drawn = cls(run, [], [str(note)[:500] for note in notes[:MAX_FIGURES + 1]],
                    [str(line)[:2000] for line in failures[:MAX_FIGURES + 1]], bool(stopped))
        for data in figures[:MAX_FIGURES]:
            try:
                figure = Figure.from_json(data)
            except (ValueError, KeyError, TypeError) as error:
                drawn.failures.append(f"A figure the kernel sent was refused: {error}\n")
                continue
            figure.run = run
            drawn.figures.append(figure)
        return drawn


def add_vectors(figures: list[Figure], run: str, vectors: list) -> None:
    """Give the figures of run ``run`` their SVGs, as the kernel's Vectors message carries
    them (``[number, uint8 array or None, why none]`` each; untrusted: checked here)."""
    by_number = {figure.number: figure for figure in figures if figure.run == run}
    for item in vectors[:MAX_FIGURES]:
        if not isinstance(item, list) or len(item) != 3:
            continue
        number, svg, why = item
        figure = by_number.get(number) if isinstance(number, int) else None
        if figure is None:
            continue
        try:
            figure.svg = None if svg is None else _bytes_in(svg, MAX_SVG_BYTES)
        except ValueError as error:
            figure.svg, why = None, str(error)
        figure.no_svg = "" if figure.svg is not None else str(why or "none was made")[:200]


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's header; ValueError for what is not a PNG or is larger
    than MAX_PIXELS allows (with some room: the kernel aims under it, not exactly at it)."""
    if len(png) < 24 or not png.startswith(PNG_SIGNATURE) or png[12:16] != b"IHDR":
        raise ValueError("a figure that is not a PNG image")
    width, height = struct.unpack(">II", png[16:24])
    if not (width > 0 and height > 0 and width * height <= 2 * MAX_PIXELS):
        raise ValueError(f"a figure of {width} x {height} pixels")
    return width, height


def _bytes_out(data: bytes, raw: bool):
    return np.frombuffer(data, dtype=np.uint8) if raw else \
        base64.b64encode(data).decode("ascii")


def _bytes_in(value, limit: int) -> bytes:
    """Bytes from the wire (a uint8 array) or a JSON file (base64), at most ``limit``."""
    if isinstance(value, np.ndarray):
        if value.dtype != np.uint8 or value.ndim != 1:
            raise ValueError("figure bytes must be a flat uint8 array")
        data = value.tobytes()
    elif isinstance(value, str):
        if len(value) > limit * 4 // 3 + 4:
            raise ValueError("a figure larger than allowed")
        data = base64.b64decode(value, validate=True)
    else:
        raise ValueError(f"figure bytes cannot be {type(value).__name__}")
    if len(data) > limit:
        raise ValueError(f"a figure of {len(data):,} bytes (at most {limit:,})")
    return data
