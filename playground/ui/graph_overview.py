"""The overview: the whole graph in miniature in the view's corner, the part on screen framed."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QWidget

from playground.ui.graph_look import FILLS, SELECTED
from playground.ui.next_frame import after_next_frame

if TYPE_CHECKING:
    from playground.ui.graph_scene import Scene
    from playground.ui.graph_view import GraphView


# Shown this much of the graph's width and height, the view needs no map of the rest
MOSTLY_SHOWN = 0.8


class Overview(QWidget):
    """The whole graph in miniature in the view's corner, with the part on screen framed;
    shown only when the graph is larger than the view. Click or drag in it to look there."""

    LONGEST = 150.0  # pixels of its longer side, at most
    SHARE = 0.28     # ... and at most this share of the viewport's shorter side

    def __init__(self, view: GraphView) -> None:
        super().__init__(view)
        self.view = view
        self.picture: QPixmap | None = None
        self.bounds = QRectF()
        self._drawn_for: tuple[int, int] = (0, 0)
        self._layout = None  # the scene layout the picture shows
        self._painted: tuple = ()  # the picture, the view's rect and the map's, as painted
        self._boxes_of: tuple | None = None  # (scene, its arrays) for _draw
        self._holds = 0  # held(): how deep; follow() waits meanwhile
        self._follow_due = False
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The whole graph: click or drag to look there")
        self.hide()

    @contextmanager
    def held(self) -> Iterator[None]:
        """Inside, the calls of ``follow`` make one, once the frame that shows the new graph
        is drawn: a new graph's drawing moves the view's scroll bars a dozen times (0.5 ms a
        run of a small script), and the map in the corner, drawn anew for boxes a little
        wider, took 0.4 ms more of that frame (next_frame.py)."""
        self._holds += 1
        try:
            yield
        finally:
            self._holds -= 1
            if not self._holds and self._follow_due:
                after_next_frame(self, "overview", self._follow_now)

    def _follow_now(self) -> None:
        if self._holds:  # a newer graph is being drawn: at its end
            self._follow_due = True
            return
        self.follow()

    def follow(self, *_moved) -> None:
        """Redraw after a new graph, a zoom, a pan or a resize (``_moved``: a scroll bar's
        value, when it calls)."""
        self._follow_due = self._holds > 0
        if self._follow_due:
            return
        scene = self.view.current
        if scene is None or scene.layout is None:
            self.picture = None
            self.hide()
            return
        bounds = scene.bounds()
        shown = self.view.visible_rect()
        if shown.width() >= MOSTLY_SHOWN * bounds.width() and \
                shown.height() >= MOSTLY_SHOWN * bounds.height():
            self.hide()  # (nearly) the whole graph is on screen: the scroll bars say the rest,
            return       # and the map in the corner would only cover nodes

        size = (self.view.viewport().width(), self.view.viewport().height())
        if bounds != self.bounds or self.picture is None or size != self._drawn_for or \
                scene.layout is not self._layout:
            self.bounds, self._drawn_for, self._layout = bounds, size, scene.layout
            self.picture = self._draw(scene)
        viewport = self.view.viewport().geometry()
        size = self.picture.size()
        where = QRect(viewport.right() - size.width() - 10,
                      viewport.bottom() - size.height() - 10, size.width(), size.height())
        painted = (self.picture.cacheKey(), shown.getRect(), where.getRect())
        if painted == self._painted and self.isVisible():
            return  # a re-run left the view where it was: repainting would change nothing
        self._painted = painted
        self.setGeometry(where)
        self.show()
        self.raise_()
        self.update()

    def _scale(self) -> float:
        viewport = self.view.viewport()
        longest = min(self.LONGEST, self.SHARE * min(viewport.width(), viewport.height()))
        return max(longest, 40.0) / max(self.bounds.width(), self.bounds.height(), 1.0)

    def _draw(self, scene: Scene) -> QPixmap:
        """Boxes in their kinds' colours, filled into pixels with NumPy: a few milliseconds
        for 10^5 nodes, where painting them one by one took a third of a second."""
        scale = self._scale()
        width = max(int(self.bounds.width() * scale) + 8, 24)
        height = max(int(self.bounds.height() * scale) + 8, 24)
        background = self.view.palette().base().color()
        background.setAlpha(200)  # the graph shows through a little
        pixels = np.empty((height, width), np.uint32)
        pixels.fill(background.rgba())
        centres, boxes, colours = self._boxes(scene)
        corners = 4 + (centres - boxes / 2 - (self.bounds.left(), self.bounds.top())) * scale
        lows = np.floor(corners).astype(int)
        spans = np.maximum(np.ceil(boxes * scale).astype(int), 1)
        fill_boxes(pixels, lows, spans, colours)
        image = QImage(pixels.data, width, height, 4 * width, QImage.Format.Format_ARGB32)
        return QPixmap.fromImage(image.copy())  # the copy owns its pixels; ``pixels`` goes

    def _boxes(self, scene: Scene) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Centres, sizes and colours of ``scene``'s nodes, gathered once per scene: a
        graph being drawn is redrawn here at every resize and scroll."""
        if self._boxes_of is None or self._boxes_of[0] is not scene:
            names = list(scene.looks)
            fills = {kind: QColor(fill).darker(115).rgba() for kind, fill in FILLS.items()}
            self._boxes_of = (scene, (
                np.array([scene.layout.positions[n] for n in names], float).reshape(-1, 2),
                np.array([scene.sizes[n] for n in names], float).reshape(-1, 2),
                np.array([fills[scene.looks[n].kind] for n in names], np.uint32)))
        return self._boxes_of[1]

    def _to_scene(self, point: QPointF) -> QPointF:
        scale = self._scale()
        return QPointF(self.bounds.left() + (point.x() - 4) / scale,
                       self.bounds.top() + (point.y() - 4) / scale)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self.picture is None:
            return
        painter = QPainter(self)
        painter.drawPixmap(0, 0, self.picture)
        scale = self._scale()
        shown = self.view.visible_rect()
        frame = QRectF(4 + (shown.left() - self.bounds.left()) * scale,
                       4 + (shown.top() - self.bounds.top()) * scale,
                       shown.width() * scale, shown.height() * scale)
        painter.setPen(QPen(SELECTED, 1.5))
        painter.setBrush(QColor(47, 111, 208, 40))
        painter.drawRect(frame.intersected(QRectF(self.rect()).adjusted(1, 1, -1, -1)))
        painter.setPen(QPen(QColor("#5b6470"), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.view.centerOn(self._to_scene(event.position()))

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.view.centerOn(self._to_scene(event.position()))


def overview_held(method: Callable) -> Callable:
    """A GraphView's ``method`` with its overview held (``Overview.held``) while it runs."""

    @functools.wraps(method)
    def held(view, *arguments):
        with view.overview.held():
            return method(view, *arguments)

    return held


# Up to this many boxes per pixel of the largest box, a slice per box costs less than a pass
# over all boxes per pixel
PER_BOX_UP_TO = 10


def fill_boxes(pixels: np.ndarray, lows: np.ndarray, spans: np.ndarray,
               colours: np.ndarray) -> None:
    """Paint each box (top-left ``lows``, size ``spans``, in pixels) its colour, clipped to
    ``pixels``; later boxes over earlier ones. A small graph has a few big boxes, drawn a
    slice each; a large one many boxes of a few pixels, drawn one pass over all of them per
    pixel of a box (a pass per pixel of a big box froze the window under load)."""
    height, width = pixels.shape
    widest, tallest = int(spans[:, 0].max(initial=1)), int(spans[:, 1].max(initial=1))
    if len(lows) <= PER_BOX_UP_TO * widest * tallest:
        for (x, y), (w, h), colour in zip(lows.tolist(), spans.tolist(), colours, strict=True):
            pixels[min(max(y, 0), height - 1):max(y + h, 1),
                   min(max(x, 0), width - 1):max(x + w, 1)] = colour
        return
    for dx in range(widest):
        for dy in range(tallest):
            inside = (dx < spans[:, 0]) & (dy < spans[:, 1])
            xs = np.clip(lows[inside, 0] + dx, 0, width - 1)
            ys = np.clip(lows[inside, 1] + dy, 0, height - 1)
            pixels[ys, xs] = colours[inside]
