"""Open nn.Modules drawn as labelled frames around what they made, nested as the modules are."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsScene, QGraphicsView

from playground.layout.layered import Layout
from playground.layout.nested import clustered_layout
from playground.model.graph import parent_path
from playground.model.module_folding import path_depth
from playground.ui.graph_look import (
    FRAME,
    FRAME_FILL,
    PLAIN_FONT,
    TEXT,
    TITLE_FILL,
    short_path,
)

if TYPE_CHECKING:
    from playground.ui.graph_scene import Scene

PADDING = 10.0  # between a frame and what it holds
TITLE_BAND = 15.0  # above what it holds: the module's name


class FrameItem(QGraphicsRectItem):
    """An open module: a tinted, rounded frame with its path and class at the top left;
    double-clicking its title collapses it."""

    def __init__(self, path: str, title: str, rect: QRectF) -> None:
        super().__init__(rect)
        self.path = path
        self.title = title
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self.setZValue(-100 + path_depth(path))  # under the nodes; inner frames over outer
        self.setToolTip(f"{title}\ndouble-click its name to collapse it")

    def title_rect(self) -> QRectF:
        rect = self.rect()
        return QRectF(rect.left(), rect.top(), rect.width(), TITLE_BAND + 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        rect = self.rect()
        painter.setBrush(QBrush(FRAME_FILL))
        pen = QPen(FRAME, 1.2, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawRoundedRect(rect, 8, 8)
        painter.setFont(PLAIN_FONT)
        metrics = QFontMetricsF(PLAIN_FONT)
        text = metrics.elidedText(self.title, Qt.TextElideMode.ElideMiddle, rect.width() - 12)
        # the title on a label of its own: dark text reads on it whatever the theme behind
        label = QRectF(rect.left() + 4, rect.top() + 2, metrics.horizontalAdvance(text) + 8,
                       TITLE_BAND - 1)
        painter.setBrush(QBrush(TITLE_FILL))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawRoundedRect(label, 4, 4)
        painter.setPen(TEXT)
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, text)


def frame_title_at(view: QGraphicsView, point) -> FrameItem | None:
    """The open module whose frame's title is under ``point`` (view coordinates)."""
    spot = view.mapToScene(point)
    for item in view.items(point):  # the innermost first: it is drawn on top
        if isinstance(item, FrameItem) and item.title_rect().contains(spot):
            return item
    return None


def frame_title(scene: Scene, path: str) -> str:
    """``encoder · TransformerEncoder`` inside its parent's frame; a root by its whole path."""
    module = scene.display.graph.modules.get(path)
    name = short_path(path) if parent_path(path) in scene.display.frames else path
    return name + (f" · {module.class_name}" if module and module.class_name else "")


def frame_rects(scene: Scene) -> dict[str, QRectF]:
    """Each open module's frame, as the layout made room for it."""
    return {path: QRectF(*box) for path, box in scene.frame_boxes.items()}


def framed_layout(scene: Scene, edges: list[tuple[str, str]], previous: dict,
                  upward: bool) -> tuple[Layout, dict[str, tuple]]:
    """The display graph laid out module by module, each open module in a frame that has
    room for its title (any thread: the font metrics are reentrant)."""
    frames = scene.display.frames
    owner: dict[str, str] = {}
    for path in sorted(frames, key=path_depth):  # the innermost frame last: it wins
        for node_id in frames[path]:
            owner[node_id] = path
    parent = {path: parent_path(path) for path in frames}
    metrics = QFontMetricsF(PLAIN_FONT)
    least = {path: metrics.horizontalAdvance(frame_title(scene, path)) + 16 for path in frames}
    return clustered_layout(scene.display.node_ids, edges, scene.sizes, owner, parent,
                            (PADDING, PADDING + TITLE_BAND), least, previous, upward)


def add_frames(scene: Scene, canvas: QGraphicsScene) -> None:
    """The scene's open modules as frames on ``canvas`` (kept in ``scene.frames``)."""
    for path, rect in frame_rects(scene).items():
        item = FrameItem(path, frame_title(scene, path), rect)
        canvas.addItem(item)
        scene.frames[path] = item


def line_up_repeats(scene: Scene) -> None:
    """Collapsed modules of one class joined one to the next (``layers.0`` … ``layers.3``)
    moved into one column where their layers have room, their edges' ends with them: the
    layout, which knows no modules, leaves them a little apart."""
    display, layout = scene.display, scene.layout
    classes = {group_id: group.info.class_name for group_id, group in display.groups.items()
               if group.module is not None and group.info is not None}
    following: dict[str, list[str]] = {}
    preceded: set[str] = set()
    for edge in display.edges:
        if edge.source != edge.target and edge.source in classes and \
                classes.get(edge.target) == classes[edge.source]:
            following.setdefault(edge.source, []).append(edge.target)
            preceded.add(edge.target)
    by_layer: dict[int, list[str]] = {}
    for node_id, layer in layout.layers.items():
        by_layer.setdefault(layer, []).append(node_id)
    for start in following:
        if start in preceded:
            continue
        run = [start]
        while len(following.get(run[-1], ())) == 1 and len(run) <= len(classes):
            run.append(following[run[-1]][0])
        xs = sorted(layout.positions[member][0] for member in run)
        low, high = -math.inf, math.inf  # the columns where every member has room
        for member in run:
            member_low, member_high = _room_for(scene, member, by_layer)
            low, high = max(low, member_low), min(high, member_high)
        if low <= high:
            column = min(max(xs[len(xs) // 2], low), high)
            for member in run:
                _move_to_column(scene, member, column)


GAP = 6.0  # at least this much between a moved module and its neighbours


def _room_for(scene: Scene, member: str, by_layer: dict) -> tuple[float, float]:
    """The columns ``member`` may stand at in its layer, between its neighbours there."""
    layout = scene.layout
    x = layout.positions[member][0]
    half = scene.sizes[member][0] / 2 + GAP
    low, high = -math.inf, math.inf
    for other in by_layer.get(layout.layers.get(member), ()):
        if other == member or other not in layout.positions:
            continue
        other_x = layout.positions[other][0]
        other_half = scene.sizes.get(other, (0.0, 0.0))[0] / 2
        if other_x < x:
            low = max(low, other_x + other_half + half)
        else:
            high = min(high, other_x - other_half - half)
    return low, high


def _move_to_column(scene: Scene, member: str, column: float) -> None:
    layout = scene.layout
    x, y = layout.positions[member]
    shift = column - x
    layout.positions[member] = (column, y)
    for index, edge in enumerate(scene.display.edges):
        route = layout.routes[index]
        if edge.source == member:
            route[0] = (route[0][0] + shift, route[0][1])
        if edge.target == member:
            route[-1] = (route[-1][0] + shift, route[-1][1])
