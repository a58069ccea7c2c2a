"""Figures drawn by user code through the pyplot stand-in, drawn here with pyqtgraph."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea, QVBoxLayout, QWidget

from playground.model.figure import MAX_GRID_SIDE, Axes, Figure, Series
from playground.ui.following import follow

CYCLE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
         "#7f7f7f", "#bcbd22", "#17becf")  # matplotlib's default colour cycle
NAMED = {"blue": "#1f77b4", "green": "#2ca02c", "red": "#d62728", "cyan": "#17becf",
         "magenta": "#e377c2", "yellow": "#bcbd22", "black": "#000000", "white": "#ffffff"}
SYMBOLS = {"o": "o", ".": "o", ",": "o", "s": "s", "^": "t1", "v": "t", "<": "t3", ">": "t2",
           "d": "d", "D": "d", "+": "+", "x": "x", "*": "star", "p": "p", "h": "h",
           "|": "|", "_": "-"}
LINES = {"-": Qt.PenStyle.SolidLine, "--": Qt.PenStyle.DashLine, ":": Qt.PenStyle.DotLine,
         "-.": Qt.PenStyle.DashDotLine}
PIXELS_PER_INCH = 80
MAX_HEIGHT = 2400         # pixels, whatever figsize says
DENSE_POINTS = 20_000     # past this, lines are drawn downsampled and markers thinned


def _drawable(axes: Axes) -> bool:
    """A subplot on a grid the tab can lay out (the kernel's figures are untrusted data)."""
    rows, columns, index = axes.grid
    return 1 <= rows <= MAX_GRID_SIDE and 1 <= columns <= MAX_GRID_SIDE and \
        1 <= index <= rows * columns


class FigureCanvas(pg.GraphicsLayoutWidget):
    """One Figure: its subplots on their grid, titles, labels, limits, legends."""

    def __init__(self, figure: Figure, parent=None) -> None:
        super().__init__(parent)
        self.figure = figure
        self.setBackground("w")
        self.plots: list[pg.PlotItem] = []
        self.items: list[pg.PlotDataItem] = []  # every series, in the figure's order
        height = figure.size[1] * PIXELS_PER_INCH * 0.6
        self.setMinimumHeight(int(min(max(height, 120), MAX_HEIGHT)) if height == height
                              else 240)  # a NaN figsize: a plain height
        self.drawn = [number for number, axes in enumerate(figure.axes) if _drawable(axes)]
        for number in self.drawn:
            self._draw_axes(figure.axes[number])

    def _draw_axes(self, axes: Axes) -> None:
        rows, columns, index = axes.grid
        plot = self.addPlot(row=(index - 1) // columns, col=(index - 1) % columns)
        if axes.title:
            plot.setTitle(axes.title, color="#222222", size="12pt")
        for axis in ("left", "bottom"):
            plot.getAxis(axis).setPen("#333333")
            plot.getAxis(axis).setTextPen("#333333")
        if axes.xlabel:
            plot.setLabel("bottom", axes.xlabel, color="#333333")
        if axes.ylabel:
            plot.setLabel("left", axes.ylabel, color="#333333")
        if axes.show_grid:
            plot.showGrid(x=True, y=True, alpha=0.3)
        if axes.legend:
            plot.addLegend(offset=(10, 10), labelTextColor="#333333")
        for number, series in enumerate(axes.series):
            item = self._item(series, CYCLE[number % len(CYCLE)])
            plot.addItem(item)
            if len(series.x) > DENSE_POINTS:  # (set once in a plot: pyqtgraph asks its view)
                # a line keeps every peak of each pixel's stretch; only what is in view is drawn
                item.setDownsampling(auto=True, method="peak")
                item.setClipToView(True)
            self.items.append(item)
        if axes.xlim:
            plot.setXRange(*axes.xlim, padding=0)
        if axes.ylim:
            plot.setYRange(*axes.ylim, padding=0)
        self.plots.append(plot)

    def refresh(self, figure: Figure) -> None:
        """The points of a figure drawn like this one (same arrangement()): moved in place."""
        self.figure = figure
        series = [s for number in self.drawn for s in figure.axes[number].series]
        for item, points in zip(self.items, series, strict=True):
            item.setData(*_thinned(points, bool(item.opts.get("symbol"))))

    def _item(self, series: Series, default: str) -> pg.PlotDataItem:
        colour = NAMED.get(series.colour or "", series.colour) or default
        pen = None
        if series.kind == "line" and series.line:
            pen = pg.mkPen(colour, width=2, style=LINES.get(series.line, Qt.PenStyle.SolidLine))
        symbol = SYMBOLS.get(series.marker or "", "o") if series.marker or \
            series.kind == "points" else None
        x, y = _thinned(series, bool(symbol))
        item = pg.PlotDataItem(x, y, pen=pen, symbol=symbol,
                               symbolBrush=colour if symbol else None,
                               symbolPen=colour if symbol else None,
                               symbolSize=series.size or 8, name=series.label)
        return item


def _thinned(series: Series, markers: bool):
    """The points to give pyqtgraph: all of a line (it downsamples), an even sample of more
    than DENSE_POINTS markers (drawing each is too slow)."""
    if not markers or len(series.x) <= DENSE_POINTS:
        return series.x, series.y
    step = -(-len(series.x) // DENSE_POINTS)
    return series.x[::step], series.y[::step]


def arrangement(figure: Figure) -> tuple:
    """Everything of a figure but its points: two figures alike here draw alike."""
    return (figure.number, tuple(figure.size), tuple(
        (axes.grid, axes.title, axes.xlabel, axes.ylabel, axes.xlim, axes.ylim,
         axes.show_grid, axes.legend, tuple(
             (s.kind, s.colour, s.marker, s.line, s.label, s.size) for s in axes.series))
        for axes in figure.axes))


class FiguresPanel(QScrollArea):
    """Every figure of the last run, one under another."""

    def __init__(self, state=None, parent=None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.canvases: list[FigureCanvas] = []
        self._drawn: list[tuple] | None = None  # the arrangement of the figures on screen
        self.show_figures([])
        if state is not None:
            self.bind(state)

    def bind(self, state) -> None:
        """Follow a model.view_state.ViewState: the figures of its last run."""
        follow(self, state.events.result, lambda result: self.show_figures(result.figures))
        follow(self, state.events.reset, lambda: self.show_figures([]))
        if state.result is not None:
            self.show_figures(state.result.figures)

    def show_figures(self, figures: list[Figure]) -> None:
        """Draw the figures; the same figures with new numbers (a re-run) only move points."""
        drawn = [arrangement(figure) for figure in figures]
        if figures and drawn == self._drawn:
            for canvas, figure in zip(self.canvases, figures, strict=True):
                canvas.refresh(figure)
            return
        self._drawn = drawn
        holder = QWidget()
        layout = QVBoxLayout(holder)
        self.canvases = [FigureCanvas(figure) for figure in figures]
        for canvas in self.canvases:
            layout.addWidget(canvas)
        if not figures:
            hint = QLabel("Figures that your code draws with matplotlib.pyplot (plot, scatter, "
                          "subplot, title…) appear here.")
            hint.setWordWrap(True)
            hint.setStyleSheet("color: palette(placeholder-text);")
            layout.addWidget(hint)
        layout.addStretch(1)
        self.setWidget(holder)
