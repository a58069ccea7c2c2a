"""Exports of the graph (SVG, PNG, PDF, DOT, JSON) and of the plots (PNG, SVG, CSV)."""

from __future__ import annotations

import contextlib
import csv
import math
import time
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPageSize, QPainter, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QApplication, QGraphicsItem

from playground.export_formats import GRAPH_FORMATS, PLOT_FORMATS, format_list, write_graph_text
from playground.files import replacing
from playground.model import Graph
from playground.ui.graph_view import GraphView, legend_html

MARGIN = 24.0


MOST_PIXELS = 120_000_000  # a PNG larger than this (480 MB of pixels) is drawn at a lower scale


class ExportError(OSError):
    """A file could not be written; the message says which and why."""


def export_graph(view: GraphView, path: str | Path, scale: float = 2.0) -> Path:
    """Write the view's graph as the file's suffix says; PNG at ``scale`` × scene size."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in GRAPH_FORMATS:
        raise ExportError(f"cannot export a graph as '{suffix}': use {format_list(GRAPH_FORMATS)}")
    if view.graph is None:
        raise ExportError("there is no graph to export: run a script first")
    if GRAPH_FORMATS[suffix].drawn:
        DRAWN_GRAPH_WRITERS[suffix](view, path, scale)
    else:
        write_graph_text(view.graph, path)
    return path


def _page(view: GraphView) -> tuple[QRectF, QTextDocument]:
    """The scene's drawing and the legend above it."""
    legend = QTextDocument()
    legend.setHtml(legend_html())
    legend.setTextWidth(legend.idealWidth())
    source = view.scene().itemsBoundingRect()
    return source, legend


def _size(source: QRectF, legend: QTextDocument) -> tuple[float, float]:
    width = max(source.width(), legend.size().width()) + 2 * MARGIN
    height = source.height() + legend.size().height() + 3 * MARGIN
    return width, height


def _paint(painter: QPainter, view: GraphView, source: QRectF, legend: QTextDocument,
           scale: float) -> None:
    painter.scale(scale, scale)
    painter.translate(MARGIN, MARGIN)
    legend.drawContents(painter)
    top = legend.size().height() + MARGIN
    target = QRectF(0, top, source.width(), source.height())
    view.scene().render(painter, target, source)


@contextlib.contextmanager
def _drawn_as_vectors(view: GraphView) -> Iterator[None]:
    """Items paint themselves for the block, not their cached pixmaps: an SVG or PDF gets
    its labels as text (searchable, selectable, sharp at any zoom), not as images."""
    items = view.scene().items()
    modes = [item.cacheMode() for item in items]
    for item in items:
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    try:
        yield
    finally:
        for item, mode in zip(items, modes, strict=True):
            item.setCacheMode(mode)


def _graph_png(view: GraphView, path: Path, scale: float) -> None:
    source, legend = _page(view)
    width, height = _size(source, legend)
    scale = min(scale, math.sqrt(MOST_PIXELS / max(width * height, 1.0)))
    image = QImage(QSize(int(width * scale), int(height * scale)), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing
                           | QPainter.RenderHint.TextAntialiasing)
    _paint(painter, view, source, legend, scale)
    painter.end()
    _save_image(image, path)


def _graph_svg(view: GraphView, path: Path, _scale: float) -> None:
    from PySide6.QtSvg import QSvgGenerator

    source, legend = _page(view)
    width, height = _size(source, legend)
    with replacing(path, keep_suffix=True) as temporary:
        generator = QSvgGenerator()
        generator.setFileName(str(temporary))
        generator.setSize(QSize(int(width), int(height)))
        generator.setViewBox(QRectF(0, 0, width, height))
        generator.setTitle("Autograd graph")
        painter = QPainter(generator)
        if not painter.isActive():
            raise ExportError(f"could not write {path}")
        with _drawn_as_vectors(view):
            _paint(painter, view, source, legend, 1.0)
        painter.end()


def _graph_pdf(view: GraphView, path: Path, _scale: float) -> None:
    source, legend = _page(view)
    width, height = _size(source, legend)
    with replacing(path, keep_suffix=True) as temporary:
        writer = QPdfWriter(str(temporary))
        writer.setResolution(72)
        writer.setPageSize(QPageSize(QRectF(0, 0, width, height).size(), QPageSize.Unit.Point))
        writer.setPageMargins(QMarginsF(0, 0, 0, 0))
        painter = QPainter(writer)
        if not painter.isActive():
            raise ExportError(f"could not write {path}")
        with _drawn_as_vectors(view):
            _paint(painter, view, source, legend, 1.0)
        painter.end()


# The drawn graph formats' writers, by suffix (export_formats.py declares the formats).
DRAWN_GRAPH_WRITERS = {".svg": _graph_svg, ".png": _graph_png, ".pdf": _graph_pdf}


def _save_image(image: QImage, path: Path) -> None:
    if image.isNull():
        raise ExportError(f"could not write {path}: not enough memory for the image")
    with replacing(path, keep_suffix=True) as temporary:
        if not image.save(str(temporary), "PNG"):
            raise ExportError(f"could not write {path}")


def export_plots(panel, path: str | Path, scale: float = 2.0) -> Path:
    """Write the plots panel as PNG or SVG (pyqtgraph's exporters) or as CSV points."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in PLOT_FORMATS:
        raise ExportError(f"cannot export plots as '{suffix}': use {format_list(PLOT_FORMATS)}")
    if suffix == ".csv":
        with replacing(path, keep_suffix=True) as temporary, open(temporary, "w", newline="",
                                                  encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["tensor", "index", "value", "gradient"])
            writer.writerows(panel.csv_rows())
        return path
    return export_scene(panel.canvas, path, scale)


def export_scene(canvas, path: Path, scale: float = 2.0) -> Path:
    """A pyqtgraph canvas as PNG (pyqtgraph's ImageExporter) or SVG (Qt's generator)."""
    scene = canvas.scene()
    suffix = path.suffix.lower()
    with replacing(path, keep_suffix=True) as temporary:
        if suffix == ".png":
            from pyqtgraph import exporters

            exporter = exporters.ImageExporter(scene)
            exporter.parameters()["width"] = int(canvas.width() * scale)
            exporter.export(str(temporary))
        else:
            # pyqtgraph's SVGExporter fails on the paths Qt 6.8+ writes (pyqtgraph issue #3485):
            # Qt's own SVG generator draws the same scene.
            from PySide6.QtSvg import QSvgGenerator

            source = scene.sceneRect()
            if not all(map(math.isfinite, source.getRect())):
                source = QRectF(canvas.rect())  # an item with infinite bounds: what is seen
            generator = QSvgGenerator()
            generator.setFileName(str(temporary))
            generator.setSize(QSize(int(source.width()), int(source.height())))
            generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
            generator.setTitle("Autograd Playground plot")
            painter = QPainter(generator)
            scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
            painter.end()
    return path


def render_figures(figures, path: str | Path | None = None) -> list[Path]:
    """Draw the pyplot stand-in's figures offscreen and write them: each to the files its
    savefig() named, and all to ``path`` (``out.png``, or ``out-1.png``, ``out-2.png``…)."""
    from playground.ui.figures import FigureCanvas

    written = []
    for number, figure in enumerate(figures, start=1):
        canvas = FigureCanvas(figure)
        canvas.resize(int(figure.size[0] * 80), int(figure.size[1] * 80))
        canvas.show()
        wait_until(lambda: False, 0.05)
        targets = [Path(p) for p in figure.saved]
        if path is not None:
            path = Path(path)
            targets.append(path if len(figures) == 1 else
                           path.with_name(f"{path.stem}-{number}{path.suffix}"))
        try:
            for target in targets:
                if target.suffix.lower() not in (".png", ".svg"):
                    raise ExportError(f"cannot write a figure as '{target.suffix}': use .png "
                                      "or .svg")
                written.append(export_scene(canvas, target, scale=1.5))
        finally:
            dispose(canvas)
    return written


def wait_until(condition, seconds: float = 60.0) -> bool:
    """Spin the event loop until ``condition()`` holds (headless exports, screenshots)."""
    application = QApplication.instance()
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        application.processEvents()
        time.sleep(0.005)
    return True


def render_graph_file(graph: Graph, path: str | Path, scale: float = 2.0) -> Path:
    """Headless: lay out ``graph`` as the window does and write it (used by the CLI)."""
    view = GraphView()
    view.resize(1200, 900)
    ready = []
    view.graph_ready.connect(lambda: ready.append(True))
    view.show_graph(graph)
    try:
        if graph.nodes and not wait_until(lambda: bool(ready)):
            raise ExportError("laying out the graph took too long")
        return export_graph(view, path, scale)
    finally:
        dispose(view)


def render_plots_file(graph: Graph, path: str | Path, combined: bool = False) -> Path:
    """Headless: draw the value-vs-gradient plots of ``graph`` and write them."""
    from playground.ui.plots import PlotsPanel

    panel = PlotsPanel()
    panel.combined.setChecked(combined)
    panel.show_graph(graph)
    rows = 1 if combined else (min(len(panel.series), 12) + 1) // 2
    panel.resize(1000, max(500, 300 * rows))
    panel.show()
    wait_until(lambda: False, 0.05)
    try:
        return export_plots(panel, path)
    finally:
        dispose(panel)


def dispose(widget) -> None:
    """Delete a headless widget now: left to interpreter shutdown, Qt may crash on exit."""
    widget.hide()
    widget.deleteLater()
    QApplication.instance().sendPostedEvents(None, 0)  # 0: QEvent::DeferredDelete included
    QApplication.instance().processEvents()

