"""Exports of the graph (SVG, PNG, PDF, DOT, JSON) and of the plots (PNG, SVG, CSV), each a
small registered class, as pyqtgraph's exporters are: the dialogs, the CLI and its help list them.

A new format is one subclass of ``GraphExporter`` or ``PlotsExporter`` with its suffix, its
description and its ``write``; defining it registers it (first defined, first in the dialogs).
"""

from __future__ import annotations

import contextlib
import csv
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import QMarginsF, QRectF, QSize
from PySide6.QtGui import QColor, QImage, QPageSize, QPainter, QPdfWriter, QTextDocument
from PySide6.QtWidgets import QApplication, QGraphicsItem

from playground.files import atomic_write, replacing
from playground.model import Graph
from playground.ui.graph_look import legend_html
from playground.ui.graph_view import GraphView

MARGIN = 24.0


MOST_PIXELS = 120_000_000  # a PNG larger than this (480 MB of pixels) is drawn at a lower scale


class ExportError(OSError):
    """A file could not be written; the message says which and why."""


class Exporter:
    """One file format of one subject: what the dialogs and the CLI list, and its writer."""

    subject: ClassVar[str] = ""      # "graph" or "plots"
    suffix: ClassVar[str] = ""       # ".svg"
    description: ClassVar[str] = ""  # a file dialog's filter says "SVG (*.svg)"
    drawn: ClassVar[bool] = True     # drawn by a view (the CLI draws one offscreen), or
                                     # written from the data alone
    registered: ClassVar[dict[str, dict[str, type[Exporter]]]] = {"graph": {}, "plots": {}}

    def __init_subclass__(cls, **options) -> None:
        super().__init_subclass__(**options)
        if cls.suffix:
            Exporter.registered[cls.subject][cls.suffix] = cls

    @classmethod
    def dialog_filter(cls) -> str:
        return f"{cls.description} (*{cls.suffix})"


def formats(subject: str) -> dict[str, type[Exporter]]:
    """The subject's exporters by suffix, in the dialogs' order."""
    return Exporter.registered[subject]


def exporter_for(subject: str, path: str | Path) -> type[Exporter]:
    """The exporter the file's suffix names, or an ExportError listing the ones there are."""
    suffix = Path(path).suffix.lower()
    found = formats(subject).get(suffix)
    if found is None:
        raise ExportError(f"cannot export {'a graph' if subject == 'graph' else subject} as "
                          f"'{suffix}': use {format_list(subject)}")
    return found


def dialog_filters(subject: str) -> str:
    """A file dialog's filter list, the first format first."""
    return ";;".join(exporter.dialog_filter() for exporter in formats(subject).values())


def format_list(subject: str) -> str:
    """'.svg, .png, .pdf, .dot or .json': for a sentence."""
    suffixes = list(formats(subject))
    return f"{', '.join(suffixes[:-1])} or {suffixes[-1]}"


class GraphExporter(Exporter):
    """A graph format: drawn ones write the view as it is drawn, the others its ``Graph``."""

    subject = "graph"

    def write(self, view: GraphView | None, graph: Graph, path: Path, scale: float) -> None:
        raise NotImplementedError


def export_graph(view: GraphView, path: str | Path, scale: float = 2.0) -> Path:
    """Write the view's graph as the file's suffix says; PNG at ``scale`` × scene size."""
    path = Path(path)
    exporter = exporter_for("graph", path)
    if view.graph is None:
        raise ExportError("there is no graph to export: run a script first")
    exporter().write(view, view.graph, path, scale)
    return path


def _page(view: GraphView) -> tuple[QRectF, QTextDocument]:
    """The scene's drawing and the legend above it."""
    legend = QTextDocument()
    kinds = {item.look.kind for item in view.current.nodes.values()} if view.current else None
    legend.setHtml(legend_html(kinds))  # the kinds drawn: no "repeated nodes" unless folded
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


class SvgGraph(GraphExporter):
    suffix, description = ".svg", "SVG"

    def write(self, view: GraphView, graph: Graph, path: Path, scale: float) -> None:
        _write_vectors(view, path, lambda temporary, width, height: _svg_generator(
            temporary, width, height, "Autograd graph"))


def _svg_generator(path: Path, width: float, height: float, title: str):
    """Qt's SVG writer for a drawing of this size, one point per unit."""
    from PySide6.QtSvg import QSvgGenerator

    generator = QSvgGenerator()
    generator.setFileName(str(path))
    generator.setSize(QSize(int(width), int(height)))
    generator.setViewBox(QRectF(0, 0, width, height))
    generator.setTitle(title)
    return generator


class PngGraph(GraphExporter):
    suffix, description = ".png", "PNG image"

    def write(self, view: GraphView, graph: Graph, path: Path, scale: float) -> None:
        source, legend = _page(view)
        width, height = _size(source, legend)
        scale = min(scale, math.sqrt(MOST_PIXELS / max(width * height, 1.0)))
        image = QImage(QSize(int(width * scale), int(height * scale)),
                       QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing
                               | QPainter.RenderHint.TextAntialiasing)
        _paint(painter, view, source, legend, scale)
        painter.end()
        _save_image(image, path)


class PdfGraph(GraphExporter):
    suffix, description = ".pdf", "PDF"

    def write(self, view: GraphView, graph: Graph, path: Path, scale: float) -> None:
        _write_vectors(view, path, _pdf_writer)


def _pdf_writer(path: Path, width: float, height: float) -> QPdfWriter:
    """Qt's PDF writer for one page of this size in points, without margins."""
    writer = QPdfWriter(str(path))
    writer.setResolution(72)
    writer.setPageSize(QPageSize(QRectF(0, 0, width, height).size(), QPageSize.Unit.Point))
    writer.setPageMargins(QMarginsF(0, 0, 0, 0))
    return writer


class DotGraph(GraphExporter):
    suffix, description, drawn = ".dot", "Graphviz DOT", False

    def write(self, view: GraphView | None, graph: Graph, path: Path, scale: float) -> None:
        atomic_write(path, graph.to_dot())


class JsonGraph(GraphExporter):
    suffix, description, drawn = ".json", "JSON", False

    def write(self, view: GraphView | None, graph: Graph, path: Path, scale: float) -> None:
        atomic_write(path, graph.dumps())


def _write_vectors(view: GraphView, path: Path, device_for) -> None:
    """The page on an SVG or PDF device (``device_for(file, width, height)``), labels as
    text, written whole."""
    source, legend = _page(view)
    width, height = _size(source, legend)
    with replacing(path, keep_suffix=True) as temporary:
        device = device_for(temporary, width, height)  # held while the painter paints
        _paint_vectors(device, view, source, legend, path)


def _paint_vectors(device, view: GraphView, source: QRectF, legend: QTextDocument,
                   path: Path) -> None:
    painter = QPainter(device)
    if not painter.isActive():
        raise ExportError(f"could not write {path}")
    with _drawn_as_vectors(view):
        _paint(painter, view, source, legend, 1.0)
    painter.end()


def _save_image(image: QImage, path: Path) -> None:
    if image.isNull():
        raise ExportError(f"could not write {path}: not enough memory for the image")
    with replacing(path, keep_suffix=True) as temporary:
        if not image.save(str(temporary), "PNG"):
            raise ExportError(f"could not write {path}")


class PlotsExporter(Exporter):
    """A format of the value-vs-gradient plots panel."""

    subject = "plots"

    def write(self, panel, path: Path, scale: float) -> None:
        raise NotImplementedError


def export_plots(panel, path: str | Path, scale: float = 2.0) -> Path:
    """Write the plots panel as the file's suffix says."""
    path = Path(path)
    exporter_for("plots", path)().write(panel, path, scale)
    return path


class PngPlots(PlotsExporter):
    suffix, description = ".png", "PNG image"

    def write(self, panel, path: Path, scale: float) -> None:
        export_scene(panel.canvas, path, scale)


class SvgPlots(PlotsExporter):
    suffix, description = ".svg", "SVG"

    def write(self, panel, path: Path, scale: float) -> None:
        export_scene(panel.canvas, path, scale)


class CsvPlots(PlotsExporter):
    suffix, description, drawn = ".csv", "CSV points", False

    def write(self, panel, path: Path, scale: float) -> None:
        with replacing(path, keep_suffix=True) as temporary, \
                open(temporary, "w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["tensor", "index", "value", "gradient"])
            writer.writerows(panel.csv_rows())


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
            source = scene.sceneRect()
            if not all(map(math.isfinite, source.getRect())):
                source = QRectF(canvas.rect())  # an item with infinite bounds: what is seen
            generator = _svg_generator(temporary, source.width(), source.height(),
                                       "Autograd Playground plot")
            painter = QPainter(generator)  # (the generator must outlive the painter)
            scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
            painter.end()
    return path


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

