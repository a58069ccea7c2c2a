"""Figures user code draws with matplotlib, rendered here in the kernel and handed to the window.

As Jupyter's inline backend does: the kernel's matplotlib backend is Agg's canvas with a
``show()`` that renders every open figure and closes it; the end of a run (or of a cell)
does the same for what is still open, and ``display(fig)`` for one figure. Each becomes a
``model.figure.Figure``: a PNG at the window's device pixel ratio and an SVG for export.

Both are drawn after the run's result is sent (``render_pictures``, then ``render_vectors``):
matplotlib takes a fifth of a second to draw a plain two-plot figure, and the graph need not
wait for it. A figure shown while the script goes on is kept as it was shown: pickled then,
and drawn from that copy if the script changes it afterwards (a figure's ``stale_callback``
hears of every change).
matplotlib is never imported here: only when the script imports it does anything happen.
"""

from __future__ import annotations

import ast
import functools
import io
import math
import os
import pickle
import sys
from collections.abc import Callable
from dataclasses import dataclass

from playground.model.figure import MAX_FIGURES, MAX_PIXELS, MAX_SVG_BYTES, Figure, png_size

BACKEND = "module://playground.engines.matplotlib_backend"
# A figure with more than this is kept as PNG only (decided by the figure, not the clock: the
# same on every machine).
SVG_MOST_POINTS = 200_000
SVG_MOST_AXES = 64


def use_inline_backend() -> None:
    """Make the backend of a matplotlib imported from now on this module's (read from the
    environment when matplotlib is imported): a kernel never opens a window of its own."""
    if "matplotlib" not in sys.modules:
        os.environ["MPLBACKEND"] = BACKEND


@dataclass
class _Shown:
    """A figure as shown, to be drawn once the result is sent: the figure itself while it
    is unchanged, else the copy pickled when it was shown (none is made at the run's end)."""

    number: int
    figure: object
    where: str
    copy: bytes | None = None
    changed: bool = False  # the script changed the figure after this showing
    drawn: tuple | None = None  # (PNG, lowered) or the failure's line: drawn when shown

    def source(self):
        """The figure as it was when shown."""
        if not self.changed or self.copy is None:
            return self.figure
        try:
            figure = pickle.loads(self.copy)  # noqa: S301 - the kernel's own bytes
        except Exception:  # noqa: BLE001 - (a class the script has since redefined)
            return self.figure
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is not None and figure.canvas.manager is not None:
            pyplot.close(figure)  # unpickling put a pyplot figure back among the open ones
        return figure


class _Run:
    """The figures shown so far in the run under way, and what it says about them."""

    def __init__(self, scale: float = 1.0, filename: str = "", code: str = "") -> None:
        self.scale = scale if math.isfinite(scale) and 0.5 <= scale <= 4.0 else 1.0
        self.filename = filename  # the script's: where a plt.show() that failed was called
        self.code = code
        self.shown: list[_Shown] = []
        self.notes: list[str] = []
        self.left_out = 0
        self.displayed: dict[int, object] = {}  # display(fig)'s figures, by id, still open


_run = _Run()
_pictures_due: _Run | None = None  # the last run's shown figures, until render_pictures()
_vectors_due: list[tuple[int, object]] = []  # the last run's, until render_vectors()


def begin(scale: float = 1.0, filename: str = "", code: str = "") -> None:
    """A new run of the script ``filename`` (its text: ``code``): figures are rendered for a
    screen of this device pixel ratio."""
    global _run
    _run = _Run(scale, filename, code)
    use_inline_backend()


def finish() -> int:
    """The end of the run: what is still open is shown and closed. How many figures
    ``render_pictures`` will draw."""
    global _pictures_due, _vectors_due
    show_open(at_end=True)
    run = _run
    for shown in run.shown:  # the script has ended: nothing more can change a figure
        _stop_listening(shown.figure)
    _pictures_due, _vectors_due = run, []
    if run.left_out:
        run.notes.append(f"{run.left_out} more figures were drawn than the {MAX_FIGURES} a run "
                         "shows: they are not shown (plt.savefig still writes each)")
    begin(run.scale, run.filename)
    return len(run.shown)


def render_pictures() -> tuple[list[Figure], list[str], list[str]]:
    """The last run's figures as PNGs, its notes, and a line for each figure that could not
    be drawn (with the line that showed it). A Stop (KeyboardInterrupt) ends the drawing;
    what was drawn is then lost with it, and the SVGs are not drawn."""
    global _pictures_due, _vectors_due
    run, _pictures_due = _pictures_due, None
    if run is None:
        return [], [], []
    figures, failures = [], []
    for shown in run.shown:
        source = shown.source()
        png, lowered = shown.drawn or _drawn(shown, source, run.scale)
        if png is None:
            failures.append(lowered)
            continue
        if lowered:
            run.notes.append(f"Figure {shown.number} is shown at a lower resolution: at its "
                             f"own it would have more than {MAX_PIXELS:,} pixels")
        label = source.get_label()
        label = label[:200] if isinstance(label, str) else ""
        figures.append(Figure(shown.number, png, None, run.scale, label))
        _vectors_due.append((shown.number, source))
    return figures, run.notes, failures


def show_open(at_end: bool = False) -> None:
    """``plt.show()``: every open figure, in the order of their numbers, rendered and closed.
    One that display() showed is not shown again unless it changed since."""
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is None:
        return
    from matplotlib._pylab_helpers import Gcf

    where = "at the end of the run" if at_end else _where_called()
    try:
        for _, manager in sorted(Gcf.figs.items(), key=lambda item: _number_order(item[0])):
            figure = manager.canvas.figure
            if _run.displayed.get(id(figure)) is figure and not figure.stale:
                continue
            show_one(figure, where, at_end)
    finally:  # a Stop mid-drawing too: the next run must not show these again
        pyplot.close("all")
        _run.displayed.clear()


def _where_called() -> str:
    """"at line 7": the script's line that called into matplotlib (plt.show, display)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != _run.filename:
        frame = frame.f_back
    return f"at line {frame.f_lineno}" if frame is not None else "when shown"


def _at_last_statement() -> bool:
    """Whether the script's top level is at its last statement and that is a call alone on
    its lines (the ``plt.show()`` that ends most plotting scripts): nothing after it can
    change a figure, which then needs no copy (a two-plot figure's took 8 ms)."""
    lines = _lone_last_call(_run.code)
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename != _run.filename:
        frame = frame.f_back
    return lines is not None and frame is not None and frame.f_code.co_name == "<module>" \
        and lines[0] <= frame.f_lineno <= lines[1]


@functools.lru_cache(maxsize=8)  # (Run all again, Live: the same text)
def _lone_last_call(code: str) -> tuple[int, int] | None:
    """The lines of the code's last top-level statement if it is a call alone on them."""
    try:
        body = ast.parse(code).body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    last = body[-1] if body else None
    if not isinstance(last, ast.Expr) or not isinstance(last.value, ast.Call) or \
            (len(body) > 1 and body[-2].end_lineno >= last.lineno):
        return None
    return last.lineno, last.end_lineno


def _number_order(number) -> tuple:
    return (0, number, "") if isinstance(number, int) else (1, 0, str(number))


def display(*objects) -> None:
    """IPython's ``display``: a figure is shown as an image (the end of the run shows it
    again only if it changed since, as a second image); anything else is printed."""
    figure_class = getattr(sys.modules.get("matplotlib.figure"), "Figure", None)
    for item in objects:
        if figure_class is not None and isinstance(item, figure_class):
            show_one(item, _where_called())
            item.stale = False  # (drawing it marked it stale): a later change marks it again
            _run.displayed[id(item)] = item
        else:
            print(repr(item))


def show_one(figure, where: str = "", at_end: bool = False) -> None:
    """Put one figure on the run's list, to be drawn once its result is sent; an empty one
    (no axes) is skipped, as Jupyter skips it."""
    if not figure.axes and not figure.lines and not figure.images and not figure.texts:
        return
    if len(_run.shown) >= MAX_FIGURES:
        _run.left_out += 1
        return
    _changed(figure)  # (shown again: the figure is this showing's now)
    shown = _Shown(len(_run.shown) + 1, figure, where)
    _run.shown.append(shown)
    if not at_end and not _at_last_statement():  # the script goes on and may change it:
        try:                                      # keep it as it is now
            shown.copy = pickle.dumps(figure)
        except Exception:  # noqa: BLE001 - (a lambda in it, say): it is drawn now instead
            shown.drawn = _drawn(shown, figure, _run.scale)
    _listen_for_changes(figure)


def _drawn(shown: _Shown, figure, scale: float) -> tuple[bytes | None, bool | str]:
    """(PNG, whether at a lower resolution), or (None, the line that says why it failed)."""
    try:
        png, lowered = _render_png(figure, scale)
        png_size(png)
    except (Exception, MemoryError) as failure:  # noqa: BLE001 - the user's figure: any error
        return None, (f"Figure {shown.number} could not be drawn ({shown.where}): "
                      f"{type(failure).__name__}: {failure}\n")
    return png, lowered


def _changed(figure) -> None:
    """The run's showings of ``figure`` so far are drawn from their copies."""
    for earlier in _run.shown:
        if earlier.figure is figure:
            earlier.changed = True


def _listen_for_changes(figure) -> None:
    """Hear of the script's changes to ``figure`` from now on (every change of an artist in
    it reaches the figure's stale_callback): its showings so far are then drawn from their
    copies."""
    if hasattr(figure, _LISTENING):
        return
    previous = figure.stale_callback

    def heard(artist, stale: bool) -> None:
        _changed(figure)
        if previous is not None:
            previous(artist, stale)

    setattr(figure, _LISTENING, previous)
    figure.stale_callback = heard


def _stop_listening(figure) -> None:
    if hasattr(figure, _LISTENING):
        figure.stale_callback = getattr(figure, _LISTENING)
        delattr(figure, _LISTENING)


_LISTENING = "_playground_previous_stale_callback"


def forget_pictures() -> None:
    """Draw neither the last run's PNGs nor its SVGs (Stop came while they were drawn)."""
    global _pictures_due, _vectors_due
    _pictures_due, _vectors_due = None, []
    pyplot = sys.modules.get("matplotlib.pyplot")
    if pyplot is not None:
        pyplot.close("all")  # (a copy being unpickled when Stop came)


def vectors_due() -> list[tuple[int, object]]:
    """The last run's drawn figures, (number, figure) each, for ``vector`` to draw as SVG
    (the kernel does it while no request waits: a tenth of a second and more each)."""
    global _vectors_due
    due, _vectors_due = _vectors_due, []
    return due


def vector(figure) -> tuple[bytes | None, str]:
    """A figure as SVG, or None and why none."""
    if (size := _size_for_svg(figure)) is not None:
        # as SVG, 10^6 points or 400 subplots take many seconds and megabytes
        return None, f"with {size} its SVG would take long to make"
    if (svg := _render_svg(figure)) is None:
        return None, f"its SVG could not be made within {MAX_SVG_BYTES >> 20} MB"
    return svg, ""


def _size_for_svg(figure) -> str | None:
    """What makes a figure too large to export as SVG ("1,000,000 points"), or None."""
    if len(figure.axes) > SVG_MOST_AXES:
        return f"{len(figure.axes)} axes"
    points = 0
    for axes in figure.axes:
        points += sum(len(line.get_xydata()) for line in axes.lines)
        for collection in axes.collections:  # scatter's points, a mesh's or contour's cells
            values = collection.get_array()
            points += max(len(collection.get_offsets()),
                          0 if values is None else values.size)
    return f"{points:,} points" if points > SVG_MOST_POINTS else None


def _print_options(figure) -> dict:
    """What Jupyter's inline backend passes: a tight box, the figure's own colours."""
    return {"bbox_inches": "tight", "facecolor": figure.get_facecolor(),
            "edgecolor": figure.get_edgecolor()}


def _render_png(figure, scale: float) -> tuple[bytes, bool]:
    """The PNG, at the figure's dpi times the screen's scale unless that passes MAX_PIXELS
    (figsize=(200, 200) would be 4 * 10^8 pixels): then at what fits."""
    width, height = figure.get_size_inches()
    dpi = figure.dpi * scale
    area = float(width * height)
    lowered = area > 0 and area * dpi * dpi > MAX_PIXELS
    if lowered:
        dpi = math.sqrt(MAX_PIXELS / area) * 0.95  # the tight box may grow a little
    out = io.BytesIO()
    figure.canvas.print_figure(out, format="png", dpi=dpi, **_print_options(figure))
    return out.getvalue(), lowered


class _SvgTooLargeError(Exception):
    """The SVG passed MAX_SVG_BYTES: the writer is stopped there."""


class _BoundedBuffer(io.BytesIO):
    """A BytesIO that stops the writer past ``limit`` bytes (a million-point SVG)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def write(self, data) -> int:
        if self.tell() + len(data) > self.limit:
            raise _SvgTooLargeError
        return super().write(data)


def _render_svg(figure) -> bytes | None:
    """The SVG for export, or None when it would be larger than MAX_SVG_BYTES."""
    out = _BoundedBuffer(MAX_SVG_BYTES)
    try:
        figure.canvas.print_figure(out, format="svg", **_print_options(figure))
    except (Exception, MemoryError):  # noqa: BLE001 - too large (_SvgTooLargeError) or failed:
        return None                   # the PNG was drawn, it is exported alone
    return out.getvalue()


def names_for_scripts() -> dict[str, Callable]:
    """What a notebook's code may call without importing it (IPython's ``display``)."""
    return {"display": display}
