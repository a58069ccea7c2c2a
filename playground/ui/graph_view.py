"""The graph view: the run's tensors and grad_fn nodes in layers, with names, values, grads."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import numpy as np
from PySide6.QtCore import QObject, QPointF, QRectF, Qt, QTimer, QVariantAnimation, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPixmap,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QGraphicsView,
    QLabel,
    QStyleOptionGraphicsItem,
    QWidget,
)

from playground.layout import Layout, layered_layout
from playground.model import Graph, GraphNode, collector
from playground.model.display import DisplayGraph, Group, fold, paths_between, stable_keys
from playground.ui.formatting import node_tooltip, shape_text, short_values

# Fill colours: the seed tutorials draw leaves green and intermediate tensors yellow.
FILLS = {"leaf": "#b9e4b0", "tensor": "#fbe7a1", "constant": "#f4f4f4",
         "function": "#d6e2f5", "accumulate": "#e2e2e2", "group": "#c3d3f2"}
LEGEND = (("leaf", "leaf tensor (requires_grad, is_leaf)"), ("tensor", "intermediate tensor"),
          ("constant", "tensor without grad"), ("function", "grad_fn node (backward function)"),
          ("accumulate", "AccumulateGrad (writes .grad)"), ("group", "repeated nodes ×N"))
TEXT = QColor("#1b1f24")
SELECTED = QColor("#2f6fd0")
PATH = QColor("#e8590c")
DONE = QColor("#2f9e44")
GRADIENT = QColor("#c2255c")
PREPARED_IN_PLACE = 2000  # graphs up to this many nodes are folded and measured at once
BATCH = 1500            # items created per event-loop turn: big graphs never freeze the window
DETAIL_SCALE = 0.45     # below this zoom, nodes show their name only, enlarged to fit the box
NAME_PIXELS = 6.5       # a name smaller than this on screen is not drawn
NAME_GROWTH = 2.6       # how much a name may grow to fill its box when zoomed out
# Past this many items a scene has no index: on 10^5 nodes Qt's BSP tree took 1.1 s to build
# and 0.5 s a paint to search, where testing every item takes 0.2 s.
INDEXED_ITEMS = 20_000
CACHED_NODES = 3000     # up to this many nodes, each is painted once into a cached pixmap
FIT_LARGEST = 1.4       # fitting never blows a small graph up more than this
FIT_SMALLEST = 0.3      # below this the names are unreadable: show the output end instead
LARGE_GRAPH_SCALE = 0.55  # ...at this zoom, every line of text readable, with the overview
SCENE_MARGIN = 16.0     # room around the graph: scroll bars appear only when it is larger
MOVE_MS = 260
WIDTH_SLACK = 24.0  # a box this much wider or narrower after a re-run is redrawn in place
ARRIVED_AT = 0.62       # where on its edge a gradient's label rests (0: source, 1: target)


# What a leaf shows when the player is not replaying: the .grad the run ended with. (Not the
# item itself: an item that refers to itself is a cycle, freed only by a full collection.)
FINAL_GRAD = object()


@dataclass
class NodeLook:
    """What a node item shows: its kind's colour and up to three lines of text."""

    kind: str
    lines: list[str]
    tooltip: Callable[[], str]  # made on first hover: 20,000 tooltips up front take seconds
    dashed: bool = False


class NodeItem(QGraphicsItem):
    """A rounded box (tensors) or a plain box (functions) with its lines of text."""

    def __init__(self, node_id: str, look: NodeLook, size: tuple[float, float]) -> None:
        super().__init__()
        self.node_id = node_id
        self.look = look
        self.width, self.height = size
        self.selected = False
        self.on_path = False
        self.state = ""  # the backward player's: "", "waiting", "running", "done"
        self.final_lines = list(look.lines)  # what the run left; the player shows earlier
        self.grad_shown: object = FINAL_GRAD  # the .grad the text shows
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def hoverEnterEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.toolTip():
            self.setToolTip(self.look.tooltip())
        super().hoverEnterEvent(event)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        return QRectF(-self.width / 2 - 4, -self.height / 2 - 4, self.width + 8,
                      self.height + 8)

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
        if self.look.kind == "group":
            painter.drawRoundedRect(rect.adjusted(3, 3, -3, -3), radius, radius)
        detail = option.levelOfDetailFromTransform(painter.worldTransform())
        painter.setPen(TEXT)
        if detail < DETAIL_SCALE:
            self._paint_name(painter, rect, detail)
            return
        lines = self.look.lines
        step = rect.height() / len(lines)
        for number, line in enumerate(lines):
            painter.setFont(_BOLD if number == 0 else _PLAIN)
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
        metrics = QFontMetricsF(_BOLD)
        name = compact_name(self.look)
        return min(NAME_GROWTH, (self.width - 8) / max(metrics.horizontalAdvance(name), 1),
                   self.height * 0.8 / metrics.height())

    def shown_text(self, detail: float) -> list[str]:
        """The lines drawn at a zoom: all of them, the name alone, or none when too small."""
        if detail >= DETAIL_SCALE:
            return list(self.look.lines)
        if QFontMetricsF(_BOLD).height() * self._name_growth() * detail < NAME_PIXELS:
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
        painter.setFont(_BOLD)
        width, height = rect.width() / growth, rect.height() / growth
        painter.drawText(QRectF(-width / 2, -height / 2, width, height),
                         Qt.AlignmentFlag.AlignCenter, name)
        painter.restore()

    def _border(self) -> QPen:
        if self.selected:
            return QPen(SELECTED, 3)
        if self.state == "running":
            return QPen(PATH, 3.5)
        if self.on_path:
            return QPen(PATH, 2.5)
        pen = QPen(QColor("#5b6470"), 1.2)
        if self.look.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        return pen

    def set_look(self, look: NodeLook, size: tuple[float, float]) -> None:
        """Show another run's text for the same node (a box of about the same size)."""
        if size != (self.width, self.height):
            self.prepareGeometryChange()
            self.width, self.height = size
        self.look = look
        self.final_lines = list(look.lines)
        self.grad_shown = FINAL_GRAD
        self.setToolTip("")  # made again on the next hover, from the new look
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
        metrics = QFontMetricsF(_PLAIN)
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
        painter.setFont(_PLAIN)
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
        self.lines = lines
        metrics = QFontMetricsF(_PLAIN)
        self.width = max(metrics.horizontalAdvance(line) for line in lines) + 16
        self.height = 16 * len(lines) + 8
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
        painter.setFont(_PLAIN)
        painter.setPen(TEXT)
        for number, line in enumerate(self.lines):
            painter.drawText(QRectF(box.left() + 8, box.top() + 4 + 16 * number,
                                    self.width - 8, 16), Qt.AlignmentFlag.AlignVCenter, line)


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


LABEL_POINTS = 9.0  # the graph's text at a text scale of 1
_PLAIN = QFont()
_PLAIN.setPointSizeF(LABEL_POINTS)
_BOLD = QFont(_PLAIN)
_BOLD.setBold(True)


def set_label_scale(scale: float) -> None:
    """The graph's text size (Ctrl+= / Ctrl+-); graphs laid out after this use it."""
    _PLAIN.setPointSizeF(LABEL_POINTS * scale)
    _BOLD.setPointSizeF(LABEL_POINTS * scale)


def compact_name(look: NodeLook) -> str:
    """A node's name when zoomed out: ``Mul`` for ``MulBackward0`` (the colour says grad_fn)."""
    name = look.lines[0]
    if look.kind == "function":
        return re.sub(r"Backward\d*$", "", name) or name
    return name


def node_look(item: GraphNode | Group) -> NodeLook:
    if isinstance(item, Group):
        text = (f"<b>{item.title}</b><br>{len(item.members)} identical nodes in a row; "
                "double-click to show them")
        return NodeLook("group", [item.title, "double-click to expand"], lambda: text)
    if item.is_tensor:
        lines = [item.label, shape_text(item.shape)]
        value = short_values(item.value)
        if value:
            lines.append(value)
        if item.grad is not None:
            lines.append("grad " + short_values(item.grad))
        return NodeLook(item.kind, lines, partial(node_tooltip, item),
                        dashed=item.kind == "constant")
    return NodeLook(item.kind, [item.label], partial(node_tooltip, item))


def measure(look: NodeLook, fonts: tuple[QFont, QFont] | None = None) -> tuple[float, float]:
    """A node's box for ``look`` in the (bold, plain) fonts, the graph's own by default."""
    bold, plain = (QFontMetricsF(font) for font in fonts or (_BOLD, _PLAIN))
    width = max([bold.horizontalAdvance(look.lines[0])]
                + [plain.horizontalAdvance(line) for line in look.lines[1:]])
    return max(width + 20, 56.0), 8 + 15 * len(look.lines) + (10 if look.kind == "group" else 0)


def _prepare(graph: Graph, expanded: set[str], fonts: tuple[QFont, QFont]) -> _Scene:
    """The display graph of ``graph`` with each node's look and box: all but the layout. Runs
    on any thread (QFont and QFontMetricsF are reentrant; these fonts are this call's copies)."""
    display = fold(graph, expanded)
    looks = {node_id: node_look(display.node(node_id)) for node_id in display.node_ids}
    by_text: dict[tuple, tuple[float, float]] = {}  # most boxes repeat a few texts
    sizes = {}
    for node_id, look in looks.items():
        text = (look.kind, *look.lines)
        if text not in by_text:
            by_text[text] = measure(look, fonts)
        sizes[node_id] = by_text[text]
    return _Scene(display, stable_keys(graph), looks, sizes)


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
        self._boxes_of: tuple | None = None  # (scene, its arrays) for _draw
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("The whole graph: click or drag to look there")
        self.hide()

    def follow(self) -> None:
        """Redraw after a new graph, a zoom, a pan or a resize."""
        scene = self.view.current
        if scene is None or scene.layout is None:
            self.picture = None
            self.hide()
            return
        bounds = scene.bounds()
        size = (self.view.viewport().width(), self.view.viewport().height())
        if bounds != self.bounds or self.picture is None or size != self._drawn_for:
            self.bounds, self._drawn_for = bounds, size
            self.picture = self._draw(scene)
        if self.view.visible_rect().contains(bounds):
            self.hide()
            return
        viewport = self.view.viewport().geometry()
        size = self.picture.size()
        self.setGeometry(viewport.right() - size.width() - 10,
                         viewport.bottom() - size.height() - 10, size.width(), size.height())
        self.show()
        self.raise_()
        self.update()

    def _scale(self) -> float:
        viewport = self.view.viewport()
        longest = min(self.LONGEST, self.SHARE * min(viewport.width(), viewport.height()))
        return max(longest, 40.0) / max(self.bounds.width(), self.bounds.height(), 1.0)

    def _draw(self, scene) -> QPixmap:
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
        for dx in range(int(spans[:, 0].max(initial=1))):  # boxes are a few pixels here
            for dy in range(int(spans[:, 1].max(initial=1))):
                inside = (dx < spans[:, 0]) & (dy < spans[:, 1])
                xs = np.clip(lows[inside, 0] + dx, 0, width - 1)
                ys = np.clip(lows[inside, 1] + dy, 0, height - 1)
                pixels[ys, xs] = colours[inside]
        image = QImage(pixels.data, width, height, 4 * width, QImage.Format.Format_ARGB32)
        return QPixmap.fromImage(image.copy())  # the copy owns its pixels; ``pixels`` goes

    def _boxes(self, scene) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
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


class _LayoutSignals(QObject):
    prepared = Signal(int, object, bool)
    done = Signal(int, object)


@dataclass
class _Scene:
    """One laid-out display graph and its items."""

    display: DisplayGraph
    keys: dict[str, str]
    looks: dict[str, NodeLook]
    sizes: dict[str, tuple[float, float]]
    layout: Layout | None = None
    nodes: dict[str, NodeItem] = field(default_factory=dict)
    edges: list[EdgeItem] = field(default_factory=list)
    _bounds: QRectF | None = None

    def structure(self) -> tuple:
        """What a user recognises as "the same graph": its nodes and edges, by stable key."""
        key = self.keys.get
        return (tuple(sorted(key(n, n) for n in self.display.node_ids)),
                tuple(sorted((key(e.source, e.source), key(e.target, e.target))
                             for e in self.display.edges)))

    def bounds(self) -> QRectF:
        """The laid-out graph's rectangle (where the nodes end up, gliding or not); measured
        once, as every pan asks for it (the overview) and the layout never changes."""
        if self._bounds is None:
            rect = QRectF()
            for node_id, (x, y) in self.layout.positions.items():
                width, height = self.sizes.get(node_id, (0.0, 0.0))
                rect = rect.united(QRectF(x - width / 2, y - height / 2, width, height))
            self._bounds = rect
        return QRectF(self._bounds)


def _end_pause(pause: list[bool], *_) -> None:
    """A view closed while making a graph's items ends its pause of the collector."""
    if pause[0]:
        pause[0] = False
        collector.resume()


def _retire(animation: QVariantAnimation | None) -> None:
    """Stop an animation that is being replaced and let Qt delete it: as a child of the view it
    would otherwise live (with its closure over a whole old scene) as long as the window."""
    if animation is not None:
        animation.stop()
        animation.deleteLater()


class GraphView(QGraphicsView):
    """Shows a Graph; click selects, Ctrl+click a second node shows the paths between them.

    Given a ViewState it follows it: its graph, the replay's steps and the selection.
    """

    node_selected = Signal(str)            # a graph node id (or a group id), "" when cleared
    paths_selected = Signal(object)        # model.display.Paths or None
    graph_ready = Signal()                 # the items of the last graph are all on screen

    def __init__(self, state=None, parent=None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing
                            | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)
        # Scroll bars appear only when the graph is larger than the view: they say there is more.
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.state = None
        self.upward = False
        self._structure: tuple | None = None
        self._replaying = False  # a replay step is on screen (its end refits the view)
        self._turned = False  # leaves on top changed: the next graph is laid out anew
        self._user_zoomed = False  # since the last fit
        self.graph: Graph | None = None
        self.current: _Scene | None = None
        self.expanded: set[str] = set()
        self.selection: list[str] = []
        self._generation = 0
        self._shown = 0  # the generation on screen; differs from _generation while laying out
        self._positions: dict[str, tuple[float, float]] = {}  # by stable key, last layout
        self._signals = _LayoutSignals()
        self._signals.prepared.connect(self._prepared)
        self._signals.done.connect(self._laid_out)
        self._pending_items: list = []
        # [paused]: the collector is paused while items are made batch by batch; a list that
        # the view's end can read without referring to the view
        self._collector_pause = [False]
        self.destroyed.connect(partial(_end_pause, self._collector_pause))
        self._builder = QTimer(self, interval=0, timeout=self._build_batch)
        self._mover: QVariantAnimation | None = None
        self._traveller: QVariantAnimation | None = None
        self._labels: list[GradientLabel] = []
        self._step_states: dict[str, str] = {}
        self._edges_between: dict[tuple[str, str], list[EdgeItem]] = {}
        self.overview = Overview(self)
        self.horizontalScrollBar().valueChanged.connect(self.overview.follow)
        self.verticalScrollBar().valueChanged.connect(self.overview.follow)
        self.message = QLabel(self.viewport())
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.setStyleSheet("color: palette(placeholder-text); font-size: 13px;")
        self.message.setWordWrap(True)
        self._say(EMPTY_HINT)
        if state is not None:
            self.bind(state)

    def bind(self, state) -> None:
        """Follow a model.view_state.ViewState."""
        self.state = state
        state.events.graph.connect(self.show_graph)
        state.events.step.connect(self._follow_step)
        state.events.selection.connect(self._follow_selection)
        state.events.reset.connect(self._follow_reset)
        self.graph_ready.connect(lambda: self.show_step(state.step_state()))
        if state.graph is not None:
            self.show_graph(state.graph)

    def _follow_step(self, step) -> None:
        replayed, self._replaying = self._replaying, step is not None
        self.show_step(step, self.state.glide_ms if step is not None else 0)
        if replayed and step is None and not self._user_zoomed and self.current is not None:
            self._fit_scene_rect()
            self.fit_new()  # the replay panned to its nodes: back to the view it left

    def _follow_selection(self, node_ids: list[str]) -> None:
        if node_ids != self.selection:
            self.selection = [n for n in node_ids if self.current and n in self.current.nodes]
            self._paint_selection(self.state.paths)

    def _follow_reset(self) -> None:
        self.expanded.clear()
        self._positions.clear()
        self._structure = None
        self._say(self.state.note or EMPTY_HINT)

    # ----- public -----------------------------------------------------------------------------
    def show_graph(self, graph: Graph | None) -> None:
        """Lay out ``graph`` off the UI thread; the old drawing stays until the new is ready."""
        self.graph = graph
        # nothing laid out or built meanwhile, nor the drawing turned over: it may be reused
        settled, self._turned = not self.busy and not self._turned, False
        self._generation += 1
        if graph is None or not graph.nodes:
            self._shown = self._generation
            self._clear()
            self._structure = None
            self._say(self._empty_text(graph))
            return
        fonts = (QFont(_BOLD), QFont(_PLAIN))  # copies: Ctrl+= may change the originals
        if len(graph.nodes) <= PREPARED_IN_PLACE:
            self._prepared(self._generation, _prepare(graph, set(self.expanded), fonts), settled)
            return
        # Folding, naming and measuring 10^5 nodes takes seconds: a worker does it.
        self._say(f"Preparing {len(graph.nodes):,} nodes…")
        threading.Thread(target=self._prepare_worker, daemon=True, name="graph-prepare",
                         args=(self._generation, graph, set(self.expanded), fonts,
                               settled)).start()

    def _prepare_worker(self, generation: int, graph: Graph, expanded: set[str], fonts,
                        settled: bool) -> None:
        with collector.paused():
            scene = _prepare(graph, expanded, fonts)
        self._signals.prepared.emit(generation, scene, settled)

    def _prepared(self, generation: int, scene: _Scene, settled: bool) -> None:
        if generation != self._generation:
            return  # a newer run's graph is on its way
        if settled and self._same_drawing(scene):
            self._redraw_in_place(scene)
            return
        previous = {node_id: self._positions[key] for node_id, key in scene.keys.items()
                    if key in self._positions}
        for group in scene.display.groups.values():
            key = scene.keys.get(group.members[0])
            if key in self._positions:
                previous[group.id] = self._positions[key]
        edges = [(e.source, e.target) for e in scene.display.edges]
        if len(scene.display.node_ids) > 400:
            self._say(f"Laying out {len(scene.display.node_ids):,} nodes…")
        threading.Thread(target=self._layout_worker, daemon=True, name="graph-layout",
                         args=(generation, scene, edges, previous)).start()

    def _same_drawing(self, scene: _Scene) -> bool:
        """Whether ``scene`` draws as the one on screen but for its text: the same nodes and
        edges under the same ids, each box the same size (a re-run that changed numbers)."""
        current = self.current
        if current is None or current.layout is None:
            return False
        old, new = current.display, scene.display
        if old.node_ids != new.node_ids or current.keys != scene.keys or \
                [(e.source, e.target) for e in old.edges] != \
                [(e.source, e.target) for e in new.edges]:
            return False
        # a number one digit longer widens its box a little: that fits where it stands
        return all(current.sizes[n][1] == scene.sizes[n][1] and
                   abs(current.sizes[n][0] - scene.sizes[n][0]) <= WIDTH_SLACK
                   for n in new.node_ids)

    def _redraw_in_place(self, scene: _Scene) -> None:
        """New text in the boxes on screen: no layout, no new items, nothing moves."""
        current = self.current
        scene.layout, scene.nodes, scene.edges = current.layout, current.nodes, current.edges
        scene._bounds = current._bounds if scene.sizes == current.sizes else None
        for node_id, item in scene.nodes.items():
            item.set_look(scene.looks[node_id], scene.sizes[node_id])
        self.current = scene
        self._old_positions = {}
        self._finish()

    def _empty_text(self, graph: Graph | None) -> str:
        result = self.state.result if self.state is not None else None
        if graph is None and (result is None or result.error is None):
            return self.state.note if self.state is not None and self.state.note else EMPTY_HINT
        if result is not None and result.error is not None:
            return ("The run stopped before it made any tensor:\n" + result.error.message +
                    "\nThe console has the details.")
        return ("This run left no tensors to draw.\n"
                "Tensors bound to variables appear here with their grad_fn graph.")

    def set_text_scale(self, scale: float) -> None:
        """Redraw with the graph's text at ``scale`` (nodes are measured again)."""
        set_label_scale(scale)
        if self.graph is not None:
            self.show_graph(self.graph)

    def set_upward(self, upward: bool) -> None:
        """Leaves at the top (output at the bottom) or the reverse; lays the graph out again."""
        if upward != self.upward:
            self.upward = upward
            self._turned = True
            self._positions.clear()
            self._structure = None  # drawn the other way up: fit it again
            self.show_graph(self.graph)

    def toggle_group(self, group_id: str) -> None:
        self.expanded.symmetric_difference_update({group_id})
        self.show_graph(self.graph)

    def fit(self) -> None:
        """The whole graph in view, however small (F, Ctrl+0, the Fit button)."""
        self.fit_new(readable=False)

    def fit_new(self, readable: bool = True) -> None:
        """The whole graph in view; a small graph is not blown up past FIT_LARGEST. With
        ``readable`` (a new graph), one too large to read whole is shown readable from its
        output end, with the overview in the corner showing all of it and where the view is."""
        if self.current is None or self.current.layout is None:
            return
        margin = SCENE_MARGIN - 1  # inside the scroll area: no scroll bar when all is shown
        rect = self.current.bounds().adjusted(-margin, -margin, margin, margin)
        if rect.isEmpty():
            return
        self._user_zoomed = False
        self.fitInView(rect, Qt.AspectRatioMode.KeepAspectRatio)
        scale = self.transform().m11()
        if scale > FIT_LARGEST or (readable and scale < FIT_SMALLEST):
            scale = FIT_LARGEST if scale > FIT_LARGEST else LARGE_GRAPH_SCALE
            self.resetTransform()
            self.scale(scale, scale)
            self.centerOn(rect.center() if scale == FIT_LARGEST else self._output_end(rect))
        self.overview.follow()

    def _output_end(self, rect: QRectF) -> QPointF:
        """Where to look first in a large graph: the output (the loss), at the view's edge."""
        positions = self.current.layout.positions
        pick = max if self.upward else min
        x, _ = pick(positions.values(), key=lambda position: position[1])
        half = self.viewport().height() / 2 / self.transform().m11()
        return QPointF(x, rect.top() + half if not self.upward else rect.bottom() - half)

    def visible_rect(self) -> QRectF:
        """The part of the scene inside the viewport."""
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def select(self, node_ids: list[str]) -> None:
        """Select one node (inspector) or two (the paths between them)."""
        self.selection = [n for n in node_ids if self.current and n in self.current.nodes][:2]
        paths = None
        if len(self.selection) == 2 and self.graph is not None:
            paths = paths_between(self.graph, *self.selection)
        self._paint_selection(paths)
        if self.state is not None:
            shown = self.current.display.node(self.selection[-1]) if self.selection else None
            self.state.select(self.selection, shown, paths)
        self.node_selected.emit(self.selection[-1] if self.selection else "")
        self.paths_selected.emit(paths)

    def text_on_screen(self) -> dict[str, list[str]]:
        """For each node inside the viewport, the lines of text drawn at the current zoom."""
        visible, detail = self.visible_rect(), self.transform().m11()
        return {node_id: item.shown_text(detail) for node_id, item in
                (self.current.nodes.items() if self.current else ())
                if visible.intersects(item.sceneBoundingRect())}

    def node_item(self, node_id: str) -> NodeItem | None:
        return self.current.nodes.get(node_id) if self.current else None

    def edge_items(self) -> list[EdgeItem]:
        return self.current.edges if self.current else []

    @property
    def busy(self) -> bool:
        gliding = any(animation is not None and animation.state() ==
                      QVariantAnimation.State.Running for animation in (self._mover,))
        return self._builder.isActive() or self._generation != self._shown or gliding

    # ----- layout off the UI thread --------------------------------------------------------------
    def _layout_worker(self, generation: int, scene: _Scene, edges, previous) -> None:
        scene.layout = layered_layout(scene.display.node_ids, edges, scene.sizes, previous,
                                      upward=self.upward)
        self._signals.done.emit(generation, scene)

    def _laid_out(self, generation: int, scene: _Scene) -> None:
        if generation != self._generation:
            return  # a newer run's graph is on its way
        old = self.current
        old_positions = {scene_key: item.pos() for scene_key, item in
                         self._items_by_key(old).items()} if old else {}
        self._clear(keep_message=True)
        self.current = scene
        self._pending_items = [("node", node_id) for node_id in scene.display.node_ids] + \
            [("edge", index) for index in range(len(scene.display.edges))]
        self._old_positions = old_positions
        self._build_batch()
        if self._pending_items:
            self._say(f"Drawing {len(scene.display.node_ids):,} nodes…")
            self._builder.start()
            # an index is built once at the end, not grown batch by batch (see INDEXED_ITEMS)
            self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
            self._pause_collector(True)  # until the last batch: see model/collector.py

    def _pause_collector(self, on: bool) -> None:
        if on != self._collector_pause[0]:
            self._collector_pause[0] = on
            (collector.pause if on else collector.resume)()

    def _build_batch(self) -> None:
        scene = self.current
        batch, self._pending_items = self._pending_items[:BATCH], self._pending_items[BATCH:]
        # Painting is Python: a node cached as a pixmap is redrawn only when it changes. Past
        # CACHED_NODES, making the pixmaps of a whole zoomed-out graph costs more than it saves.
        cached = len(scene.looks) <= CACHED_NODES
        for kind, ref in batch:
            if kind == "node":
                item = NodeItem(ref, scene.looks[ref], scene.sizes[ref])
                if cached:
                    item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
                x, y = scene.layout.positions[ref]
                item.setPos(x, y)
                self.scene().addItem(item)
                scene.nodes[ref] = item
            else:
                edge = scene.display.edges[ref]
                item = EdgeItem(edge.source, edge.target, self._edge_colour())
                item.input = edge.input
                self._edges_between.setdefault((edge.source, edge.target), []).append(item)
                item.set_route([QPointF(x, y) for x, y in scene.layout.routes[ref]],
                               self._target_top(scene, edge.target, ref))
                self.scene().addItem(item)
                scene.edges.append(item)
        if not self._pending_items:
            self._builder.stop()
            self._pause_collector(False)
            if len(scene.nodes) + len(scene.edges) <= INDEXED_ITEMS:
                self.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
            self._finish()

    def _target_top(self, scene: _Scene, target: str, index: int) -> float:
        route = scene.layout.routes[index]
        height = scene.sizes[target][1]
        going_down = route[-1][1] >= route[0][1]
        return route[-1][1] + (-height / 2 - 2 if going_down else height / 2 + 2)

    def _finish(self) -> None:
        scene = self.current
        self._shown = self._generation
        self.message.hide()
        self._fit_scene_rect()
        self._animate_survivors(scene)
        self._positions = {scene.keys.get(n, n): scene.layout.positions[n] for n in scene.nodes}
        for group in scene.display.groups.values():
            self._positions[scene.keys[group.members[0]]] = scene.layout.positions[group.id]
        structure = scene.structure()
        if structure != self._structure or not self._user_zoomed:
            self.fit_new()  # a new graph is shown whole; the user's zoom survives a re-run only
        self._structure = structure
        self.selection = [n for n in self.selection if n in scene.nodes]
        self._paint_selection(None if len(self.selection) < 2 else
                              paths_between(self.graph, *self.selection))
        self.graph_ready.emit()

    def _fit_scene_rect(self, extra: QRectF | None = None) -> None:
        """The scrollable area: the graph (and a callout sticking out of it) with a margin."""
        if self.current is None or self.current.layout is None:
            return
        rect = self.current.bounds()
        if extra is not None:
            rect = rect.united(extra)
        self.setSceneRect(rect.adjusted(-SCENE_MARGIN, -SCENE_MARGIN,
                                        SCENE_MARGIN, SCENE_MARGIN))

    def _animate_survivors(self, scene: _Scene) -> bool:
        """Nodes that were on screen before glide from their old place to the new one."""
        keys = self._items_by_key(scene)
        starts = {key: self._old_positions[key] for key in keys if key in self._old_positions}
        if not starts or len(starts) < len(keys) / 3:
            return False
        if all(keys[key].pos() == start for key, start in starts.items()):
            return False  # nothing moves: the edges need not hide for a glide
        _retire(self._mover)
        ends = {key: keys[key].pos() for key in starts}
        self._mover = QVariantAnimation(self, startValue=0.0, endValue=1.0, duration=MOVE_MS)

        def step(t) -> None:
            for key, start in starts.items():
                end = ends[key]
                keys[key].setPos(start + (end - start) * float(t))

        for edge in scene.edges:
            edge.setVisible(False)
        self._mover.valueChanged.connect(step)
        self._mover.finished.connect(lambda: [e.setVisible(True) for e in scene.edges])
        step(0.0)
        self._mover.start()
        return True

    def _items_by_key(self, scene: _Scene | None) -> dict[str, NodeItem]:
        if scene is None:
            return {}
        found = {}
        for node_id, item in scene.nodes.items():
            if node_id in scene.display.groups:
                key = scene.keys.get(scene.display.groups[node_id].members[0])
            else:
                key = scene.keys.get(node_id)
            if key:
                found[key] = item
        return found

    # ----- the backward player ------------------------------------------------------------------
    def show_step(self, state, travel_ms: int = 0, travel_at: float | None = None) -> None:
        """Draw a player state (model.playback.StepState), or clear it with None.

        Node looks change only where they differ from the last state, and only gradients that
        are still on their way (into waiting or running nodes) get a label: a step costs the
        same on a 10-node and a 1,000-node graph.
        """
        if self.current is None:
            return
        for label in self._labels:
            self.scene().removeItem(label)
        self._labels = []
        if self._traveller is not None:
            self._traveller.stop()
        group_of = self.current.display.group_of
        wanted: dict[str, str] = {}
        if state is not None:
            for node_id, node_state in state.states.items():
                shown_id = group_of.get(node_id, node_id)
                wanted[shown_id] = _merge_state(wanted.get(shown_id), node_state)
        for node_id in set(self._step_states) | set(wanted):
            item = self.current.nodes.get(node_id)
            if item is not None and item.state != wanted.get(node_id, ""):
                item.state = wanted.get(node_id, "")
                item.update()
        self._step_states = wanted
        self._show_leaf_grads(state.leaf_grads if state is not None else {})
        if state is None:
            return
        callout = None
        if state.running is not None and state.explanation:
            shown_id = group_of.get(state.running, state.running)
            item = self.current.nodes.get(shown_id)
            if item is not None:
                lines = list(state.explanation)
                if shown_id in self.current.display.groups:
                    members = self.current.display.groups[shown_id].members
                    lines.insert(0, f"inside the folded ×{len(members)}: node "
                                    f"{members.index(state.running) + 1} of {len(members)}")
                callout = self._place_callout(item, lines)
        for flow in state.arrived:
            self._place_label(flow, moving=False, at=ARRIVED_AT)
        if travel_at is None:
            travel_at = 0.0 if travel_ms else ARRIVED_AT
        moving = [self._place_label(flow, moving=True, at=travel_at) for flow in state.moving]
        moving = [m for m in moving if m is not None]
        if travel_ms and moving:
            self._travel(moving, travel_ms)
        if state.running is not None:
            self._keep_in_view(group_of.get(state.running, state.running), callout,
                               [edge for _, edge in moving])

    def _place_callout(self, item: NodeItem, lines: list[str]) -> Callout:
        """The explanation near its node, where it covers no node (nor a gradient's tag)."""
        callout = Callout(lines)
        node = item.sceneBoundingRect().adjusted(4, 4, -4, -4)  # the box, not its margin
        best = None
        for tip, corner in callout_spots(node, callout.width, callout.height,
                                         self.current.bounds()):
            box = QRectF(corner.x(), corner.y(), callout.width, callout.height)
            covered = sum(_overlap(box, other.sceneBoundingRect())
                          for other in self.scene().items(box.adjusted(-3, -3, 3, 3))
                          if isinstance(other, NodeItem))
            if best is None or covered < best[0]:
                best = (covered, tip, corner)
            if covered == 0:
                break
        _, tip, corner = best
        callout.offset = corner - tip
        callout.setPos(tip)
        self.scene().addItem(callout)
        self._labels.append(callout)
        self._fit_scene_rect(callout.sceneBoundingRect())
        return callout

    def _keep_in_view(self, node_id: str, callout: Callout | None, edges: list) -> None:
        """Pan so that the running node, its explanation and its edges are on screen."""
        item = self.current.nodes.get(node_id) if self.current else None
        if item is None:
            return
        must = item.sceneBoundingRect()
        if callout is not None:
            must = must.united(callout.sceneBoundingRect())
        wanted = QRectF(must)
        for edge in edges:
            wanted = wanted.united(edge.sceneBoundingRect())
        visible = self.visible_rect()
        if visible.contains(wanted):
            return
        target = wanted if wanted.width() <= visible.width() and \
            wanted.height() <= visible.height() else must
        if not visible.contains(target):
            self.centerOn(target.center())

    def _show_leaf_grads(self, grads: dict) -> None:
        """A leaf's text shows its .grad as of the player's step (or the final one)."""
        for node_id, item in self.current.nodes.items():
            if item.look.kind != "leaf":
                continue
            shown = grads.get(node_id, FINAL_GRAD)
            if item.grad_shown is shown:
                continue  # the same ArrayData as last step: nothing to redo
            item.grad_shown = shown
            lines = item.final_lines
            if node_id in grads:
                grad = grads[node_id]
                lines = [line for line in lines if not line.startswith("grad ")] + \
                    ["grad " + (short_values(grad) if grad is not None else "None")]
            if lines != item.look.lines:
                item.look = NodeLook(item.look.kind, lines, item.look.tooltip, item.look.dashed)
                item.update()

    def _place_label(self, flow, moving: bool, at: float):
        from playground.model.playback import brief

        group_of = self.current.display.group_of
        source = group_of.get(flow.source, flow.source)
        target = group_of.get(flow.target, flow.target)
        if source == target:
            return None  # inside a folded group
        edge = self._edge_for(source, target, flow.input)
        if edge is None or edge.route.isEmpty():
            return None
        # two gradients on one pair of nodes (x * x): the second tag rests beside the first
        earlier = sum(1 for other in self._labels if getattr(other, "between", None)
                      == (source, target))
        label = GradientLabel(brief(flow.value, 3), moving)
        label.between = (source, target)
        label.offset = QPointF(0, 18 * earlier)
        label.setPos(edge.route.pointAtPercent(at) + label.offset)
        self.scene().addItem(label)
        self._labels.append(label)
        return label, edge

    def _edge_for(self, source: str, target: str, number: int):
        candidates = [e for e in self._edges_between.get((source, target), [])]
        for edge in candidates:
            if edge.input == number:
                return edge
        return candidates[0] if candidates else None

    def _travel(self, moving: list, duration: int) -> None:
        """Outgoing gradients glide along their edges, from the node to its inputs."""
        _retire(self._traveller)
        self._traveller = QVariantAnimation(self, startValue=0.0, endValue=ARRIVED_AT,
                                            duration=duration)

        def step(t) -> None:
            for label, edge in moving:
                label.setPos(edge.route.pointAtPercent(float(t)) + label.offset)

        self._traveller.valueChanged.connect(step)
        self._traveller.start()

    def snapshot(self) -> dict:
        """What is drawn, for tests: node states and the gradient labels' texts."""
        states = {n: i.state for n, i in (self.current.nodes.items() if self.current else ())
                  if i.state}
        labels = sorted((getattr(label, "text", "") or "\n".join(label.lines),
                         round(label.pos().x(), 1), round(label.pos().y(), 1))
                        for label in self._labels)
        lines = {n: list(i.look.lines) for n, i in
                 (self.current.nodes.items() if self.current else ())}
        return {"states": states, "labels": labels, "lines": lines}

    # ----- drawing state ------------------------------------------------------------------------
    def _paint_selection(self, paths) -> None:
        if self.current is None:
            return
        on_path_nodes = paths.nodes if paths else set()
        on_path_edges = paths.edges if paths else set()
        group_of = self.current.display.group_of
        on_path_nodes = on_path_nodes | {group_of[m] for m in on_path_nodes if m in group_of}
        for node_id, item in self.current.nodes.items():
            selected, on_path = node_id in self.selection, node_id in on_path_nodes
            if (selected, on_path) != (item.selected, item.on_path):  # 10^5 nodes: most keep
                item.selected, item.on_path = selected, on_path
                item.update()
        for edge in self.current.edges:
            edge.set_highlighted((edge.source, edge.target) in on_path_edges)

    def _edge_colour(self) -> QColor:
        colour = self.palette().text().color()
        colour.setAlpha(150)
        return colour

    def _clear(self, keep_message: bool = False) -> None:
        self._builder.stop()
        self._pause_collector(False)
        self._pending_items = []
        # Their closures hold items of the scene being cleared: stopped, they touch none.
        _retire(self._mover)
        _retire(self._traveller)
        self._mover = self._traveller = None
        self._labels = []
        self._step_states = {}
        self._edges_between = {}
        self.scene().clear()
        self.current = None
        self.setSceneRect(QRectF())  # no scroll bars around an empty view
        self.overview.follow()
        if not keep_message:
            self.message.show()

    def _say(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()
        self._place_message()

    def _place_message(self) -> None:
        self.message.setGeometry(self.viewport().rect().adjusted(20, 20, -20, -20))

    # ----- interaction --------------------------------------------------------------------------
    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._place_message()
        self.overview.follow()

    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            super().wheelEvent(event)  # shift+wheel scrolls sideways
            return
        self.zoom(1.0015 ** event.angleDelta().y())

    def zoom(self, factor: float) -> None:
        scale = self.transform().m11() * factor
        if 0.02 < scale < 8:
            self.scale(factor, factor)
            self._user_zoomed = True
            self.overview.follow()

    def viewportEvent(self, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == event.Type.Gesture:
            pinch = event.gesture(Qt.GestureType.PinchGesture)
            if pinch is not None:
                self.zoom(pinch.scaleFactor())
                return True
        if event.type() == event.Type.NativeGesture and \
                event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture:
            self.zoom(1.0 + event.value())
            return True
        return super().viewportEvent(event)

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        item = self._node_at(event.position().toPoint())
        if event.button() == Qt.MouseButton.LeftButton and item is not None:
            adding = event.modifiers() & (Qt.KeyboardModifier.ControlModifier
                                          | Qt.KeyboardModifier.ShiftModifier)
            if adding and self.selection and item.node_id not in self.selection:
                self.select([self.selection[-1], item.node_id])
            else:
                self.select([item.node_id])
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton and self.selection:
            self.select([])
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 - Qt's name
        item = self._node_at(event.position().toPoint())
        if item is not None and item.look.kind == "group":
            self.toggle_group(item.node_id)
            return
        super().mouseDoubleClickEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_F:
            self.fit()
        elif event.key() in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom(1.25)
        elif event.key() == Qt.Key.Key_Minus:
            self.zoom(0.8)
        else:
            super().keyPressEvent(event)

    def _node_at(self, point) -> NodeItem | None:
        for item in self.items(point):
            if isinstance(item, NodeItem):
                return item
        return None


EMPTY_HINT = ("Run a script: its autograd graph appears here.\n"
              "Leaves at the bottom, the output at the top, gradients flowing down.")


def _overlap(a: QRectF, b: QRectF) -> float:
    common = a.intersected(b)
    return 0.0 if common.isEmpty() else common.width() * common.height()


def _merge_state(old: str | None, new: str) -> str:
    """A folded group shows its busiest member: running over waiting over done."""
    rank = {"running": 3, "waiting": 2, "done": 1}
    return new if old is None or rank[new] > rank[old] else old


def legend_html() -> str:
    """The colour key, as the overlay and the exports show it."""
    rows = "".join(
        f"<tr><td style='background:{FILLS[kind]}; border:1px solid #5b6470'>&nbsp;&nbsp;&nbsp;"
        f"&nbsp;</td><td>&nbsp;{text}</td></tr>" for kind, text in LEGEND)
    return f"<table cellspacing=3>{rows}</table>"
