"""Value-vs-gradient scatter plots (pyqtgraph) of every tensor of a run that has a gradient."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from playground.model import ArrayData, Graph, GraphNode
from playground.model.arrays import PLOTTED_TENSORS, PointDensity
from playground.ui.following import follow
from playground.ui.formatting import shape_text
from playground.ui.next_frame import after_next_frame

COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2")
MAX_PLOTS = PLOTTED_TENSORS  # more tensors than this: the first ones, and a note saying so
PLOT_HEIGHT = 130  # least height of one plot (axes and a few ticks); more plots than fit scroll


_REDRAWN = object()  # a series whose new item holds the final points, whatever it showed


def _flat(array: ArrayData | None, part: str = "") -> np.ndarray | None:
    """The values as float64, flat; ``part`` ("real" or "imag") of complex ones."""
    if array is None:
        return None
    if array.values is not None:
        values = np.asarray(array.values).reshape(-1)
        return np.asarray(getattr(values, part) if part else values, dtype=np.float64)
    return np.asarray(array.preview, dtype=np.float64)  # summarised: the first elements


def _finite_points(values, grads, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first ``count`` (value, gradient) points that are finite, and their element
    numbers: inf and nan have no place on the axes (an export's bounds would be infinite)."""
    if not count:
        return np.zeros(0), np.zeros(0), np.zeros(0, dtype=np.int64)
    x, y, index = values[:count], grads[:count], np.arange(count)
    finite = np.isfinite(x) & np.isfinite(y)
    return (x, y, index) if finite.all() else (x[finite], y[finite], index[finite])


_NO_POINTS = np.zeros(0)


def _set_points(item: pg.ScatterPlotItem, x: np.ndarray, y: np.ndarray,
                index: np.ndarray) -> None:
    """New points for ``item``, unless they are the ones it shows: setting them again
    redraws the plot, axes and grid included (~10 ms), for a picture that did not change."""
    shown = getattr(item, "points", None)
    if shown is not None and all(np.array_equal(new, old)
                                 for new, old in zip((x, y, index), shown, strict=True)):
        return
    item.points = (x, y, index)
    item.setData(x=x, y=y, data=index)


class PlotSeries:
    """One tensor's points: x its values, y its gradient, with the element index; a tensor
    past SCATTER_LIMIT elements comes as a density of all its points instead. A complex
    tensor has two, one per ``part``: the real parts against the gradient's real parts
    (∂L/∂Re, as torch's convention makes them), the imaginary against its imaginary."""

    def __init__(self, node: GraphNode, grad: ArrayData, part: str = "") -> None:
        self.node_id, self.part = node.id, part
        self.key = f"{node.id}.{part}" if part else node.id  # its item's, among the plots'
        # an unnamed tensor (a temporary's leaf) is told apart by its node id
        self.name = node.label if node.names else f"{node.label}#{node.id}"
        self.name += f".{part}" if part else ""
        self.density = node.density if grad is node.grad else None
        self.title = f"{self.name} {shape_text(node.shape)}"
        if self.density is not None:
            self.title += f" · density of {self.density.points:,} points"
        values, grads = _flat(node.value, part), _flat(grad, part)
        count = min(len(values), len(grads)) if values is not None and grads is not None else 0
        # index: the element each point is (hover, CSV)
        self.x, self.y, self.index = _finite_points(values, grads, count)
        if len(self.index) < count:
            self.title += f" · {count - len(self.index):,} not finite, not shown"
        self.summarised = node.value is not None and node.value.values is None
        self.shown = grad  # the gradient the points show now (the player moves them)


def _density_image(density: PointDensity, colour: str) -> np.ndarray:
    """Counts as an RGBA image in the series' colour: a cell's opacity grows with the log of
    its count, empty cells are transparent; rows along x, as ImageItem's col-major axes read."""
    counts = density.counts
    shade = np.log1p(counts.astype(np.float32))
    level = shade / (float(shade.max()) or 1.0)
    rgb = QColor(colour)
    image = np.empty((*counts.shape, 4), np.ubyte)
    image[..., 0], image[..., 1], image[..., 2] = rgb.red(), rgb.green(), rgb.blue()
    image[..., 3] = np.where(counts > 0, 70 + 185 * level, 0).astype(np.ubyte)
    return image.transpose(1, 0, 2)


class PlotsPanel(QWidget):
    """One plot per tensor (or all in one with a legend); follows runs and the player."""

    point_hovered = Signal(str)

    def __init__(self, state=None, parent=None) -> None:
        super().__init__(parent)
        self._step_grads: dict | None = None  # the replay step's gradients (None: final)
        self.combined = QCheckBox("One plot")
        self.combined.setToolTip("All tensors in one plot with a legend, or one plot each")
        self.combined.toggled.connect(lambda _: self._redraw_at_step())
        self.note = QLabel()
        self.note.setStyleSheet("color: palette(placeholder-text);")
        top = QHBoxLayout()
        top.setContentsMargins(6, 2, 6, 0)
        top.addWidget(QLabel("<b>value</b> (x) against <b>gradient</b> (y)"))
        top.addStretch(1)
        top.addWidget(self.note)
        top.addWidget(self.combined)
        self.canvas = pg.GraphicsLayoutWidget()
        # Plots squeezed below a readable height lose their axes: scroll instead.
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setFrameShape(QFrame.Shape.NoFrame)
        self.scroller.setWidget(self.canvas)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.scroller, 1)
        self.graph: Graph | None = None
        self.series: list[PlotSeries] = []
        self.items: dict[str, pg.ScatterPlotItem] = {}
        self.plots: list[pg.PlotItem] = []
        self.images: dict[str, pg.ImageItem] = {}  # densities of tensors past SCATTER_LIMIT
        self._arrangement: tuple | None = None  # what the plots were made for
        self._stale: set[str] = set()  # series the replay cannot move: their final points
        self.selected = ""
        self._graph_due = False  # a new graph waits for the next frame (step, selection too)
        self._apply_theme()
        self._draw()
        if state is not None:
            self.bind(state)

    def bind(self, state) -> None:
        """Follow a model.view_state.ViewState: its graph, the replay's step, the selection.
        A new graph is plotted in the frame after the graph view's (next_frame): the plots
        take as long to paint as the rest of the window; until then the step and the
        selection wait for it too."""
        self._state = state
        follow(self, state.events.graph, self._draw_next_frame)
        follow(self, state.events.step, lambda step: self._graph_due or self.follow(
            step.leaf_grads if step is not None else None))
        follow(self, state.events.selection,
               lambda ids: self._graph_due or self.select(ids[-1] if ids else ""))
        self._draw_state()

    @property
    def drawing_due(self) -> bool:
        """Whether a new graph's plots wait for the next frame (drawn after the graph's)."""
        return self._graph_due

    def _draw_next_frame(self, graph: Graph | None) -> None:
        if graph is None:  # (nothing to plot: cleared at once, with the rest of the window)
            self._draw_state()
            return
        self._graph_due = True
        after_next_frame(self, "plots", self._draw_state)

    def _draw_state(self) -> None:
        """The state's graph at the replay's step, with its selection."""
        self._graph_due = False
        state = self._state
        self.show_graph(state.graph)
        step = state.step_state()
        if step is not None:
            self.follow(step.leaf_grads)
        self.select(state.selection[-1] if state.selection else "")

    def show_graph(self, graph: Graph | None,
                   grads: dict[str, ArrayData | None] | None = None) -> None:
        """Plot the tensors of ``graph`` with their .grad, or with ``grads`` (the player's)."""
        self.graph = graph
        self.series = []
        if graph is not None:
            for node in graph.nodes:
                if not node.is_tensor:
                    continue
                grad = grads.get(node.id, node.grad) if grads is not None else node.grad
                if grad is None or node.value is None:
                    continue
                parts = ("real", "imag") if "complex" in node.dtype else ("",)
                self.series.extend(PlotSeries(node, grad, part) for part in parts)
        self._draw()

    def select(self, node_id: str) -> None:
        """Make one tensor's points stand out (the graph's or inspector's selection)."""
        self.selected = node_id
        for series in self.series:
            item = self.items.get(series.key)
            if item is None:
                continue
            chosen = series.node_id == node_id
            faded = bool(node_id) and not chosen and self.combined.isChecked()
            look = (chosen, faded or series.key in self._stale)
            if getattr(item, "look", None) == look:
                continue  # new points take the item's size and pen: nothing to redo
            item.look = look
            item.setSize(11 if chosen else 8)
            item.setPen(pg.mkPen("#000000" if chosen else None, width=1.5))
            item.setOpacity(0.3 if look[1] else 1.0)

    def follow(self, grads: dict[str, ArrayData | None] | None) -> None:
        """The backward player's step: move each tensor's points to its .grad at that step
        (no points while it is None). ``None`` goes back to the run's final gradients. A
        tensor whose step gradient was summarised keeps its final points, faded."""
        self._step_grads = grads
        if self.graph is None:
            return
        self._stale = set()
        for series in self.series:
            item = self.items.get(series.key)
            if item is None:
                continue  # not drawn (more tensors than plots, or a density)
            node = self.graph.node(series.node_id)
            grad = node.grad if grads is None else grads.get(series.node_id, node.grad)
            if grad is not None and grad.summarised and len(series.x) > len(grad.preview):
                self._stale.add(series.key)
                grad = node.grad
            if series.shown is grad:
                continue
            series.shown = grad
            values, gradient = _flat(node.value, series.part), _flat(grad, series.part)
            if values is None:
                continue
            if gradient is None:
                _set_points(item, _NO_POINTS, _NO_POINTS, _NO_POINTS)
            else:
                _set_points(item, *_finite_points(values, gradient,
                                                  min(len(values), len(gradient))))
        self.select(self.selected)

    def _redraw_at_step(self) -> None:
        """One plot or one each, redrawn at the replay's step (new items hold the final
        points: the step's are put back)."""
        self._draw()
        grads = self._step_grads
        if grads is not None:
            for series in self.series:
                series.shown = _REDRAWN  # (None would read as "no .grad yet, drawn")
            self.follow(grads)

    def series_for(self, node_id: str) -> PlotSeries | None:
        return next((s for s in self.series if s.node_id == node_id), None)

    # ----- drawing ----------------------------------------------------------------------------
    def _draw(self) -> None:
        """Draw the series; plots of the same tensors as last time are reused (a re-run
        only moves points: making a pyqtgraph plot costs ~10 ms)."""
        shown = self.series[:MAX_PLOTS]
        hidden = len(self.series) - len(shown)
        self.note.setText(f"{hidden} more tensors not shown" if hidden else "")
        self._stale = set()
        combined = self.combined.isChecked()
        # a legend names the tensors; separate plots are retitled in place
        arrangement = (combined, tuple((s.title if combined else "", s.density is None)
                                       for s in shown))
        if arrangement == self._arrangement and shown:
            self._reuse(shown)
            return
        self._arrangement = arrangement
        self.canvas.clear()
        self.items, self.images, self.plots = {}, {}, []
        columns = 1 if len(shown) == 1 else 2
        rows = 1 if self.combined.isChecked() else -(-len(shown) // columns)
        self.canvas.setMinimumHeight(rows * PLOT_HEIGHT if shown else 0)
        if not shown:
            # short lines: a label item does not wrap, and a long line was cut at both ends
            self.canvas.addLabel("No tensor has a .grad yet.<br>Call backward(): each tensor "
                                 "with a .grad<br>is plotted here, values against gradients."
                                 "<br>(autograd.grad and torch.func return gradients<br>"
                                 "instead of filling .grad: print them.)",
                                 color=self._foreground())
            return
        if self.combined.isChecked():
            plot = self._new_plot(0, 0, "all tensors")
            plot.addLegend(offset=(10, 10))
            for number, series in enumerate(shown):
                self._add_series(plot, series, COLOURS[number % len(COLOURS)])
        else:
            for number, series in enumerate(shown):
                plot = self._new_plot(number // columns, number % columns, series.title)
                self._add_series(plot, series, COLOURS[number % len(COLOURS)])
        self.select(self.selected)

    def _reuse(self, shown: list[PlotSeries]) -> None:
        """The plots on screen take the new series in order: new titles, new points."""
        items, images = list(self.items.values()), list(self.images.values())
        self.items, self.images = {}, {}
        for number, series in enumerate(shown):
            if series.density is None:
                self.items[series.key] = items.pop(0)
            else:
                self.images[series.key] = images.pop(0)
            if not self.combined.isChecked() and \
                    self.plots[number].titleLabel.text != series.title:
                self.plots[number].setTitle(series.title)
            self._update_points(series)
        self.select(self.selected)

    def _new_plot(self, row: int, column: int, title: str) -> pg.PlotItem:
        plot = self.canvas.addPlot(row=row, col=column, title=title)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setLabel("bottom", "value")
        plot.setLabel("left", "gradient")
        for side in ("bottom", "left"):  # ticks say the numbers ("0.002"), not "x0.001" units
            plot.getAxis(side).enableAutoSIPrefix(False)
            # ticks and grid lines at two levels, not three: the third's many faint lines took
            # a quarter of a re-run's paint of the plots, and crowded the points
            plot.getAxis(side).setStyle(maxTickLevel=1)
        self.plots.append(plot)
        return plot

    def _add_series(self, plot: pg.PlotItem, series: PlotSeries, colour: str) -> None:
        if series.density is not None:
            image = pg.ImageItem(axisOrder="col-major")
            image.colour = colour
            plot.addItem(image)
            self.images[series.key] = image
            self._update_points(series)
            return
        def tip(x, y, data) -> str:  # the item's current tensor: a reused plot gets another
            return f"{item.series_name}[{int(data)}]\nvalue {x:.6g}\ngradient {y:.6g}"

        item = pg.ScatterPlotItem(series.x, series.y, data=series.index, size=8,
                                  brush=pg.mkBrush(colour), pen=None, hoverable=True, tip=tip,
                                  hoverSize=12, name=series.title)
        item.series_name = series.name
        item.points = (series.x, series.y, series.index)
        plot.addItem(item)
        self.items[series.key] = item

    def _update_points(self, series: PlotSeries) -> None:
        """Put a series' current points (or density) into its existing item."""
        if series.density is not None:
            image = self.images[series.key]
            density = series.density
            image.setImage(_density_image(density, image.colour), autoLevels=False)
            (x0, x1), (y0, y1) = density.x_range, density.y_range
            image.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
            return
        item = self.items[series.key]
        item.series_name = series.name
        _set_points(item, series.x, series.y, series.index)

    def _foreground(self) -> str:
        return self.palette().text().color().name()

    def _apply_theme(self) -> None:
        background = self.palette().base().color()
        self.canvas.setBackground(background)
        pg.setConfigOption("foreground", self._foreground())

    def csv_rows(self) -> list[tuple[str, int, float, float]]:
        """(tensor, element index, value, gradient) for every point plotted."""
        return [(s.name, int(i), float(x), float(y)) for s in self.series
                for i, x, y in zip(s.index, s.x, s.y, strict=True)]


def install_defaults() -> None:
    """Antialiased plots; called once before the first panel is made."""
    pg.setConfigOptions(antialias=True)

