"""The graph's drawn items: node boxes, edges with their arrows, gradient tags and callouts."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QStyleOptionGraphicsItem,
)

from playground.ui.graph_look import (
    BOLD_FONT,
    DONE,
    FAILED,
    FILLS,
    GRADIENT,
    LINKED,
    PATH,
    PLAIN_FONT,
    SELECTED,
    TEXT,
    NodeLook,
    compact_name,
)

DETAIL_SCALE = 0.45     # below this zoom, nodes show their name only, enlarged to fit the box
NAME_PIXELS = 6.5       # a name smaller than this on screen is not drawn
NAME_GROWTH = 2.6       # how much a name may grow to fill its box when zoomed out


# What a leaf shows when the player is not replaying: the .grad the run ended with. (Not the
# item itself: an item that refers to itself is a cycle, freed only by a full collection.)
FINAL_GRAD = object()


class NodeItem(QGraphicsRectItem):
    """A rounded box (tensors) or a plain box (functions) with its lines of text.

    A rect item for its bounds: Qt asks every item of a big unindexed scene for them at each
    paint, and a rect item answers in C++ (over 10^5 nodes a Python answer made each
    paint several times slower); the painting itself is below."""

    def __init__(self, node_id: str, look: NodeLook, size: tuple[float, float]) -> None:
        super().__init__()
        self.setPen(QPen(Qt.PenStyle.NoPen))  # the rect is the bounds only: no pen widens it
        self.node_id = node_id
        self.look = look
        self._set_size(size)
        self.selected = False
        self.on_path = False
        self.linked = False  # made by the editor's current line
        self.state = ""  # the backward player's: "", "waiting", "running", "done", "failed"
        self.final_lines = list(look.lines)  # what the run left; the player shows earlier
        self.grad_shown: object = FINAL_GRAD  # the .grad the text shows
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def hoverEnterEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.toolTip():
            self.setToolTip(self.look.tooltip())
        super().hoverEnterEvent(event)

    def _set_size(self, size: tuple[float, float]) -> None:
        self.width, self.height = size
        self.setRect(QRectF(-self.width / 2 - 4, -self.height / 2 - 4, self.width + 8,
                            self.height + 8))  # room for the border and the selection ring

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        rect = QRectF(-self.width / 2, -self.height / 2, self.width, self.height)
        fill = QColor(FILLS[self.look.kind])
        if self.state == "waiting":
            fill = fill.lighter(108)
            fill.setAlpha(150)
        painter.setBrush(QBrush(fill))
        painter.setPen(self._border())
        radius = 9.0 if self.look.kind in ("leaf", "tensor", "constant") else 2.0
        painter.drawRoundedRect(rect, radius, radius)
        if self.look.kind in ("group", "module"):
            painter.drawRoundedRect(rect.adjusted(3, 3, -3, -3), radius, radius)
        detail = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setPen(TEXT)
        if detail < DETAIL_SCALE:
            self._paint_name(painter, rect, detail)
            return
        lines = self.look.lines
        step = rect.height() / len(lines)
        for number, line in enumerate(lines):
            painter.setFont(BOLD_FONT if number == 0 else PLAIN_FONT)
            band = QRectF(rect.left() + 4, rect.top() + number * step, rect.width() - 8, step)
            painter.drawText(band, Qt.AlignmentFlag.AlignCenter, line)
        if self.state == "done":
            painter.setBrush(QBrush(DONE))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawEllipse(QPointF(rect.right() - 1, rect.top() + 1), 6, 6)
            painter.setPen(QPen(QColor("white"), 1.6))
            tick = QPointF(rect.right() - 1, rect.top() + 1)
            painter.drawPolyline([tick + QPointF(-3, 0), tick + QPointF(-1, 2.5),
                                  tick + QPointF(3, -2.5)])

    def _name_growth(self) -> float:
        """How much the name alone may grow to fill the box."""
        metrics = QFontMetricsF(BOLD_FONT)
        name = compact_name(self.look)
        return min(NAME_GROWTH, (self.width - 8) / max(metrics.horizontalAdvance(name), 1),
                   self.height * 0.8 / metrics.height())

    def shown_text(self, detail: float) -> list[str]:
        """The lines drawn at a zoom: all of them, the name alone, or none when too small."""
        if detail >= DETAIL_SCALE:
            return list(self.look.lines)
        if QFontMetricsF(BOLD_FONT).height() * self._name_growth() * detail < NAME_PIXELS:
            return []
        return [compact_name(self.look)]

    def _paint_name(self, painter: QPainter, rect: QRectF, detail: float) -> None:
        """Zoomed out: the name alone, as large as the box allows, when that is readable."""
        shown = self.shown_text(detail)
        if not shown:
            return
        name, growth = shown[0], self._name_growth()
        painter.save()
        painter.translate(rect.center())
        painter.scale(growth, growth)
        painter.setFont(BOLD_FONT)
        width, height = rect.width() / growth, rect.height() / growth
        painter.drawText(QRectF(-width / 2, -height / 2, width, height),
                         Qt.AlignmentFlag.AlignCenter, name)
        painter.restore()

    def _border(self) -> QPen:
        if self.selected:
            return QPen(SELECTED, 3)
        if self.state == "running":
            return QPen(PATH, 3.5)
        if self.state == "failed":
            return QPen(FAILED, 3.5)
        if self.on_path:
            return QPen(PATH, 2.5)
        if self.linked:
            return QPen(LINKED, 3, Qt.PenStyle.DashLine)
        pen = QPen(QColor("#5b6470"), 1.2)
        if self.look.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        return pen

    def take_over(self, node_id: str, look: NodeLook, size: tuple[float, float]) -> None:
        """Be node ``node_id`` of a new drawing (the same node of the last run's graph): its
        look, and none of the old drawing's selection, outline or player state."""
        self.node_id = node_id
        if self.selected or self.on_path or self.linked or self.state:
            self.selected = self.on_path = self.linked = False
            self.state = ""
            self.update()
        self.set_look(look, size)

    def set_look(self, look: NodeLook, size: tuple[float, float]) -> None:
        """Show another run's text for the same node (a box of about the same size); a box
        that would draw the same is not repainted (a re-run of the same script repainted
        every box, some 3 ms of a small graph's frame)."""
        drawn = self.look
        unchanged = size == (self.width, self.height) and look.lines == drawn.lines and \
            look.kind == drawn.kind and look.dashed == drawn.dashed
        if size != (self.width, self.height):
            self._set_size(size)
        self.look = look
        self.final_lines = list(look.lines)
        self.grad_shown = FINAL_GRAD
        self.setToolTip("")  # made again on the next hover, from the new look
        if not unchanged:
            self.update()


class EdgeItem(QGraphicsPathItem):
    """An edge along its route (through the layers it crosses), arrow at the target.

    The route is stroked and only the arrowhead filled: filling a curved route would close
    it and paint the area between the curve and its chord.
    """

    def __init__(self, source: str, target: str, colour: QColor) -> None:
        super().__init__()
        self.source, self.target = source, target
        self.input = 0  # which input of the source this edge feeds
        self.colour = colour
        self.highlighted = False
        self.route = QPainterPath()
        self.head = QPolygonF()
        self.setZValue(-1)
        self._apply_pen()

    def set_route(self, points: list[QPointF], target_top: float) -> None:
        if len(points) < 2:
            return
        end = QPointF(points[-1].x(), target_top)
        points = [*points[:-1], end]
        path = QPainterPath(points[0])
        if len(points) == 2:
            path.lineTo(points[1])
            self.head = _arrow(points[0], end)
        else:  # a long edge: one smooth curve through the points where it crosses layers
            tangents = _tangents(points)
            for a, b, ta, tb in zip(points[:-1], points[1:], tangents[:-1], tangents[1:],
                                    strict=True):
                path.cubicTo(a + ta / 3, b - tb / 3, b)
            self.head = _arrow(end - tangents[-1], end)
        self.route = QPainterPath(path)  # without the arrow: what a travelling gradient follows
        path.addPolygon(self.head)
        self.setPath(path)  # route and head: the bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(self.pen())
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self.route)
        painter.setBrush(self.brush())
        painter.drawPolygon(self.head)

    def shape(self) -> QPainterPath:
        stroker = QPainterPathStroker()
        stroker.setWidth(self.pen().widthF() + 4)
        outline = stroker.createStroke(self.route)
        outline.addPolygon(self.head)
        return outline

    def set_highlighted(self, on: bool) -> None:
        if on != self.highlighted:
            self.highlighted = on
            self._apply_pen()

    def _apply_pen(self) -> None:
        pen = QPen(PATH if self.highlighted else self.colour, 2.4 if self.highlighted else 1.3)
        self.setPen(pen)
        self.setBrush(QBrush(pen.color()))


class GradientLabel(QGraphicsItem):
    """A gradient's value on an edge: a small rounded tag, optionally with a travelling dot."""

    def __init__(self, text: str, moving: bool) -> None:
        super().__init__()
        self.text = text
        self.moving = moving
        self.between: tuple[str, str] | None = None  # the nodes its edge joins
        self.offset = QPointF()  # from its edge: a second tag on the same pair rests below
        metrics = QFontMetricsF(PLAIN_FONT)
        self.width = metrics.horizontalAdvance(text) + 10
        self.setZValue(2)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return QRectF(-8, -9, self.width + 12, 18)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        if option.levelOfDetailFromTransform(painter.worldTransform()) < DETAIL_SCALE:
            return
        colour = GRADIENT if self.moving else QColor("#6741d9")
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(colour))
        painter.drawEllipse(QPointF(0, 0), 4.5, 4.5)
        tag = QRectF(7, -8, self.width, 16)
        painter.setBrush(QBrush(QColor(255, 255, 255, 235)))
        painter.setPen(QPen(colour, 1))
        painter.drawRoundedRect(tag, 5, 5)
        painter.setFont(PLAIN_FONT)
        painter.setPen(colour.darker(130))
        painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, self.text)


class Callout(QGraphicsItem):
    """The running step's rule with its numbers, in a box near the node, joined to it.

    The item's origin is the tip of its pointer, on the node's edge; ``offset`` is where the
    box's top-left corner lies from there (beside the node, or farther off where the nodes
    around would be covered), and a leader line joins the box to the tip.
    """

    def __init__(self, lines: list[str], offset: QPointF | None = None) -> None:
        super().__init__()
        metrics = QFontMetricsF(PLAIN_FONT)
        self.lines = [part for line in lines for part in _wrapped(line, metrics)]
        self.width = max(metrics.horizontalAdvance(line) for line in self.lines) + 16
        self.height = 16 * len(self.lines) + 8
        self.offset = offset if offset is not None else QPointF(9, -self.height / 2)
        self.setZValue(3)

    def box(self) -> QRectF:
        """The box in item coordinates."""
        return QRectF(self.offset.x(), self.offset.y(), self.width, self.height)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return self.box().united(QRectF(-6, -6, 12, 12)).adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        box = self.box()
        painter.setPen(QPen(PATH, 1.4))
        base = _nearest_on(box, QPointF(0, 0))
        painter.drawLine(base, QPointF(0, 0))
        painter.setBrush(QBrush(PATH))
        painter.drawEllipse(QPointF(0, 0), 2.5, 2.5)
        painter.setBrush(QBrush(QColor("#fff4e6")))
        painter.drawRoundedRect(box, 6, 6)
        painter.setFont(PLAIN_FONT)
        painter.setPen(TEXT)
        for number, line in enumerate(self.lines):
            painter.drawText(QRectF(box.left() + 8, box.top() + 4 + 16 * number,
                                    self.width - 8, 16), Qt.AlignmentFlag.AlignVCenter, line)


CALLOUT_WIDTH = 420.0  # a callout's widest line, in pixels: longer rules wrap


def _wrapped(line: str, metrics: QFontMetricsF) -> list[str]:
    """A callout line broken at spaces into lines of at most CALLOUT_WIDTH pixels, the
    continuations indented (a word wider than that stays whole)."""
    if metrics.horizontalAdvance(line) <= CALLOUT_WIDTH:
        return [line]
    parts, current = [], ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and metrics.horizontalAdvance(candidate) > CALLOUT_WIDTH:
            parts.append(current)
            current = "    " + word
        else:
            current = candidate
    return [*parts, current]


def _nearest_on(rect: QRectF, point: QPointF) -> QPointF:
    """The point of ``rect`` (its border or inside) nearest to ``point``."""
    return QPointF(min(max(point.x(), rect.left()), rect.right()),
                   min(max(point.y(), rect.top()), rect.bottom()))


def callout_spots(node: QRectF, width: float, height: float, bounds: QRectF):
    """(tip, box top-left) for a callout of this size, nearest first: beside the node on each
    side, then shifted along that side, then outside the whole graph at the node's height."""
    gap = 9.0
    centre = node.center()
    for shift in (0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5):
        dy, dx = shift * (height + 6), shift * (width / 2 + 6)
        yield (QPointF(node.right(), centre.y()),
               QPointF(node.right() + gap, centre.y() - height / 2 + dy))
        yield (QPointF(node.left(), centre.y()),
               QPointF(node.left() - gap - width, centre.y() - height / 2 + dy))
        yield (QPointF(centre.x(), node.bottom()),
               QPointF(centre.x() - width / 2 + dx, node.bottom() + gap))
        yield (QPointF(centre.x(), node.top()),
               QPointF(centre.x() - width / 2 + dx, node.top() - gap - height))
    yield (QPointF(node.right(), centre.y()),
           QPointF(bounds.right() + 2 * gap, centre.y() - height / 2))
    yield (QPointF(node.left(), centre.y()),
           QPointF(bounds.left() - 2 * gap - width, centre.y() - height / 2))


def _tangents(points: list[QPointF]) -> list[QPointF]:
    """Catmull-Rom tangents, vertical at both ends: a long edge leaves and enters its nodes
    straight, and runs straight wherever its points are in line (no S-bend per layer)."""
    inner = [(after - before) / 2 for before, after in zip(points[:-2], points[2:], strict=True)]
    first = QPointF(0.0, points[1].y() - points[0].y())
    last = QPointF(0.0, points[-1].y() - points[-2].y())
    return [first, *inner, last]


def _arrow(before: QPointF, tip: QPointF) -> QPolygonF:
    direction = tip - before
    length = max((direction.x() ** 2 + direction.y() ** 2) ** 0.5, 1e-6)
    ux, uy = direction.x() / length, direction.y() / length
    base = QPointF(tip.x() - 8 * ux, tip.y() - 8 * uy)
    return QPolygonF([tip, QPointF(base.x() - 4 * uy, base.y() + 4 * ux),
                      QPointF(base.x() + 4 * uy, base.y() - 4 * ux), tip])


def anchored(must: QRectF, node: QRectF, visible: QRectF) -> QRectF:
    """Of ``must`` (a node and its callout), the part a view of ``visible``'s size can show:
    the node whole, then the callout from its side of the node on."""
    margin = 12.0
    left, top = must.left(), must.top()
    if must.width() > visible.width():
        left = node.left() - margin if must.center().x() >= node.center().x() else \
            node.right() + margin - visible.width()
    if must.height() > visible.height():
        top = node.top() - margin if must.center().y() >= node.center().y() else \
            node.bottom() + margin - visible.height()
    return QRectF(left, top, min(must.width(), visible.width()),
                  min(must.height(), visible.height()))


def shortest_shift(target: QRectF, visible: QRectF) -> QPointF:
    """The smallest move of ``visible`` that takes ``target`` in (the graph stays still
    wherever it can); the margin leaves room for a scroll bar that the move may bring."""
    margin = 28.0
    dx = dy = 0.0
    if target.left() < visible.left():
        dx = target.left() - visible.left() - margin
    elif target.right() > visible.right():
        dx = min(target.right() - visible.right() + margin, target.left() - visible.left())
    if target.top() < visible.top():
        dy = target.top() - visible.top() - margin
    elif target.bottom() > visible.bottom():
        dy = min(target.bottom() - visible.bottom() + margin, target.top() - visible.top())
    return QPointF(dx, dy)
