"""A small ``matplotlib.pyplot`` for user code: it records figures the app draws with pyqtgraph.

Tutorials end with a plotting cell (``plt.plot(x, x.grad, 'ro')``); under both engines
``import matplotlib.pyplot as plt`` gets this module, which keeps what was drawn as
``model.figure`` data for the window (or ``playground run --plot``) to draw and save. Values
go through ``numpy.asarray`` as in matplotlib, so a tensor that requires grad raises torch's
own error. A pyplot function this stand-in lacks says so by name when called.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import sys
import types
from collections.abc import Iterator

import numpy as np

from playground.model.figure import MAX_GRID_SIDE, Axes, Figure, Series

SUPPORTED = ("figure", "subplot", "plot", "scatter", "title", "xlabel", "ylabel", "legend",
             "grid", "xlim", "ylim", "show", "savefig", "close", "clf")
COLOURS = {"b": "blue", "g": "green", "r": "red", "c": "cyan", "m": "magenta", "y": "yellow",
           "k": "black", "w": "white"}
MARKERS = set(".,ox+*sdD^v<>ph|_")
_FORMAT = re.compile(r"^(?P<a>[bgrcmykw])?(?P<marker>[.,ox+*sdD^v<>ph|_])?(?P<line>--|-\.|-|:)?"
                     r"(?P<b>[bgrcmykw])?$")


class _State:
    """The figures of one run, and which figure and axes the next call draws on."""

    def __init__(self) -> None:
        self.figures: list[Figure] = []
        self.figure: Figure | None = None
        self.axes: Axes | None = None

    def current_figure(self) -> Figure:
        if self.figure is None:
            self.figure = Figure(number=len(self.figures) + 1)
            self.figures.append(self.figure)
        return self.figure

    def current_axes(self) -> Axes:
        if self.axes is None:
            figure = self.current_figure()
            if not figure.axes:
                figure.axes.append(Axes())
            self.axes = figure.axes[-1]
        return self.axes


_state = _State()


def take_figures() -> list[Figure]:
    """The figures drawn since the last call, with at least one series or a title each."""
    figures = [f for f in _state.figures
               if any(a.series or a.title for a in f.axes)]
    _state.__init__()
    return figures


# ----- the pyplot functions -----------------------------------------------------------------
def figure(num=None, figsize=None, **_options):
    _state.figure = None
    _state.axes = None
    made = _state.current_figure()
    if figsize is not None:
        size = (float(figsize[0]), float(figsize[1]))
        if not all(math.isfinite(side) and side > 0 for side in size):
            raise ValueError(f"figure size must be positive finite not {size}")  # matplotlib's
        made.size = size
    return made


def subplot(*arguments, **_options):
    if len(arguments) == 1 and isinstance(arguments[0], int) and arguments[0] >= 111:
        code = arguments[0]
        grid = (code // 100, code // 10 % 10, code % 10)
    elif len(arguments) == 3:
        grid = tuple(int(a) for a in arguments)
    else:
        raise TypeError("subplot() takes a three-digit number like 121 or (rows, columns, "
                        "index)")
    if not (1 <= grid[0] <= MAX_GRID_SIDE and 1 <= grid[1] <= MAX_GRID_SIDE):
        raise ValueError(f"the Figures tab draws subplot grids of up to {MAX_GRID_SIDE} x "
                         f"{MAX_GRID_SIDE}, not {grid[0]} x {grid[1]}")
    if not 1 <= grid[2] <= grid[0] * grid[1]:
        raise ValueError(f"num must be an integer with 1 <= num <= {grid[0] * grid[1]}, "
                         f"not {grid[2]}")
    figure_ = _state.current_figure()
    for axes in figure_.axes:
        if axes.grid == grid:
            _state.axes = axes
            return axes
    _state.axes = Axes(grid=grid)
    figure_.axes.append(_state.axes)
    return _state.axes


def plot(*arguments, **options):
    """``plot(y)``, ``plot(x, y)``, ``plot(x, y, 'ro')``, repeated groups, and keywords."""
    groups = _groups(arguments)
    axes = _state.current_axes()
    made = []
    for x, y, style in groups:
        colour, marker, line = _parse_format(style)
        colour = options.get("color", options.get("c", colour))
        marker = options.get("marker", marker)
        line = options.get("linestyle", options.get("ls", line))
        if line in ("", "None", "none"):
            line = None
        for column_x, column_y in _columns(x, y):
            series = Series(column_x, column_y, "line" if line else "points", colour, marker,
                            line, options.get("label"), options.get("markersize"))
            axes.series.append(series)
            made.append(series)
    return made


def scatter(x, y, s=None, c=None, marker=None, label=None, color=None, **_options):
    x_values, y_values = _values(x).reshape(-1), _values(y).reshape(-1)
    if x_values.shape != y_values.shape:
        raise ValueError("x and y must be the same size")
    colour = color if color is not None else (c if isinstance(c, str) else None)
    size = float(np.sqrt(s)) if isinstance(s, int | float) else None
    series = Series(x_values, y_values, "points", colour, marker or "o", None, label, size)
    _state.current_axes().series.append(series)
    return series


def title(label, **_options):
    _state.current_axes().title = str(label)


def xlabel(label, **_options):
    _state.current_axes().xlabel = str(label)


def ylabel(label, **_options):
    _state.current_axes().ylabel = str(label)


def legend(*_arguments, **_options):
    _state.current_axes().legend = True


def grid(visible=True, *_arguments, **_options):
    _state.current_axes().show_grid = bool(visible)


def xlim(*arguments, **options):
    return _limits("xlim", arguments, options)


def ylim(*arguments, **options):
    return _limits("ylim", arguments, options)


def show(*_arguments, **_options):
    """Drawing happens in the app's plot area after the run; a new figure starts afresh."""
    _state.figure = None
    _state.axes = None


def savefig(fname, **_options):
    path = os.fspath(fname)
    if os.path.splitext(path)[1].lower() not in (".png", ".svg", ""):
        raise ValueError(f"savefig writes .png or .svg here, not {os.path.splitext(path)[1]}")
    if not os.path.splitext(path)[1]:
        path += ".png"  # matplotlib's default format
    _state.current_figure().saved.append(os.path.abspath(path))


def close(*_arguments, **_options):
    _state.figure = None
    _state.axes = None


def clf():
    figure_ = _state.current_figure()
    figure_.axes.clear()
    _state.axes = None


# ----- values and styles ------------------------------------------------------------------------
def _values(value) -> np.ndarray:
    """As matplotlib does: ``np.asarray``, so tensors that require grad raise torch's error."""
    return np.asarray(value, dtype=float)


def _groups(arguments) -> list[tuple[np.ndarray, np.ndarray, str]]:
    groups, rest = [], list(arguments)
    while rest:
        first = _values(rest.pop(0))
        if rest and not isinstance(rest[0], str):
            x, y = first, _values(rest.pop(0))
        else:
            y = first
            x = np.arange(y.shape[0] if y.ndim else 1, dtype=float)
        style = rest.pop(0) if rest and isinstance(rest[0], str) else ""
        groups.append((x, y, style))
    if not groups:
        raise TypeError("plot() needs at least y values")
    return groups


def _columns(x: np.ndarray, y: np.ndarray):
    """A 2-D argument plots each column, as in matplotlib."""
    x2 = x.reshape(x.shape[0], -1) if x.ndim > 1 else x.reshape(-1, 1)
    y2 = y.reshape(y.shape[0], -1) if y.ndim > 1 else y.reshape(-1, 1)
    if x2.shape[0] != y2.shape[0]:
        raise ValueError(f"x and y must have same first dimension, but have shapes "
                         f"{tuple(x.shape)} and {tuple(y.shape)}")
    columns = max(x2.shape[1], y2.shape[1])
    for index in range(columns):
        yield x2[:, min(index, x2.shape[1] - 1)].copy(), y2[:, min(index, y2.shape[1] - 1)].copy()


def _parse_format(style: str) -> tuple[str | None, str | None, str | None]:
    if not style:
        return None, None, "-"
    match = _FORMAT.match(style)
    if match is None:
        raise ValueError(f"'{style}' is not a valid format string (e.g. 'ro', 'b-', 'g--')")
    letter = match.group("a") or match.group("b")
    marker, line = match.group("marker"), match.group("line")
    return COLOURS.get(letter) if letter else None, marker, line if line or not marker else None


def _limits(which: str, arguments, options):
    axes = _state.current_axes()
    if len(arguments) == 1:
        arguments = tuple(arguments[0])
    if len(arguments) == 2:
        limits = (float(arguments[0]), float(arguments[1]))
    elif "left" in options or "bottom" in options:
        limits = (float(options.get("left", options.get("bottom"))),
                  float(options.get("right", options.get("top"))))
    else:
        return getattr(axes, which)
    if not all(map(math.isfinite, limits)):
        raise ValueError("Axis limits cannot be NaN or Inf")  # matplotlib's words
    setattr(axes, which, limits)
    return limits


# ----- the modules user code imports ---------------------------------------------------------
def _unsupported(name: str):
    def call(*_arguments, **_options):
        raise NotImplementedError(
            f"matplotlib.pyplot.{name}() is not supported by Autograd Playground's plotting "
            f"stand-in; it draws {', '.join(SUPPORTED)}.")
    call.__name__ = name
    return call


def _module_getattr(name: str):
    if name.startswith("__"):
        raise AttributeError(name)
    return _unsupported(name)


def build_modules() -> dict[str, types.ModuleType]:
    """``matplotlib`` and ``matplotlib.pyplot`` module objects backed by this stand-in."""
    pyplot = types.ModuleType("matplotlib.pyplot", "Autograd Playground's pyplot stand-in")
    for name in SUPPORTED:
        setattr(pyplot, name, globals()[name])
    pyplot.__getattr__ = _module_getattr
    package = types.ModuleType("matplotlib", "Autograd Playground's matplotlib stand-in")
    package.__path__ = []
    package.pyplot = pyplot
    package.__version__ = "stand-in"
    package.use = lambda *a, **k: None
    return {"matplotlib": package, "matplotlib.pyplot": pyplot}


@contextlib.contextmanager
def stand_in() -> Iterator[None]:
    """User code imports the stand-in as matplotlib while the block runs."""
    modules = build_modules()
    saved = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
