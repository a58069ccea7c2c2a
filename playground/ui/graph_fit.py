"""How a graph is fitted into the graph view: whole, never blown up, and readable when new."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QGraphicsView

from playground.ui.graph_look import label_fonts

FIT_LARGEST = 1.4       # fitting never blows a small graph up more than this
# A new graph is never fitted with node text under this many pixels high (a larger one is
READABLE_TEXT_PX = 9.0  # shown at that size from its output end)
SCENE_MARGIN = 16.0     # room around the graph: scroll bars appear only when it is larger


def readable_scale() -> float:
    """The zoom at which node text is READABLE_TEXT_PX high (0.75 for a 12 px font)."""
    return READABLE_TEXT_PX / max(1, QFontInfo(label_fonts()[1]).pixelSize())


def fit_view(view: QGraphicsView, scene, readable: bool) -> None:
    """The scene's whole graph in ``view``; a small graph is not blown up past FIT_LARGEST.
    With ``readable`` (a new graph), one too large to read whole is shown readable from its
    output end (the view's overview shows all of it and where the view is)."""
    margin = SCENE_MARGIN - 1  # inside the scroll area: no scroll bar when all is shown
    rect = scene.bounds().adjusted(-margin, -margin, margin, margin)
    if rect.isEmpty():
        return
    view._user_zoomed = False
    # (a large graph is fitted to its output's end: where that is depends on the layout)
    asked = (rect.getRect(), view.viewport().size().toTuple(), readable, view.upward,
             scene.layout)  # (held, not its id: a freed id can come back)
    if _where_view_is(view) == view._fitted and view._fitted_for == asked:
        return  # as the same fit left it: fitting again would repaint it all for nothing
    view.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
    scale = view.transform().m11()
    smallest = readable_scale()
    if scale > FIT_LARGEST or (readable and scale < smallest):
        scale = FIT_LARGEST if scale > FIT_LARGEST else smallest
        view.resetTransform()
        view.scale(scale, scale)
        view.centerOn(rect.center() if scale == FIT_LARGEST else
                      _output_end(view, scene, rect))
    view._fitted, view._fitted_for = _where_view_is(view), asked


def _where_view_is(view: QGraphicsView) -> tuple:
    """The view's zoom and scroll position."""
    return (view.transform(), view.horizontalScrollBar().value(),
            view.verticalScrollBar().value())


def _output_end(view: QGraphicsView, scene, rect: QRectF) -> QPointF:
    """Where to look first in a large graph: the output (the loss), at the view's edge."""
    positions = scene.layout.positions
    # the loose inputs and constants packed along the top are not where a graph starts
    linked = {end for edge in scene.display.edges for end in (edge.source, edge.target)}
    candidates = [positions[n] for n in linked if n in positions] or positions.values()
    x, _ = (max if view.upward else min)(candidates, key=lambda position: position[1])
    scale = view.transform().m11()
    if rect.width() * scale <= view.viewport().width():
        x = rect.center().x()  # its whole width fits: in view from side to side
    half = view.viewport().height() / 2 / scale
    return QPointF(x, rect.top() + half if not view.upward else rect.bottom() - half)
