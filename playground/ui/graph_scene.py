"""A graph on its way to the screen: folded and measured, laid out on a thread, drawn in batches."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np
from PySide6.QtCore import QObject, QPointF, QRectF, QTimer, QVariantAnimation, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView

from playground.layout import Layout, layered_layout
from playground.model import Graph, gc_policy
from playground.model.display import DisplayGraph, fold, stable_keys
from playground.model.module_folding import AUTOMATIC
from playground.ui.graph_frames import (
    FrameItem,
    add_frames,
    frame_rects,
    framed_layout,
    line_up_repeats,
)
from playground.ui.graph_items import EdgeItem, NodeItem
from playground.ui.graph_look import NodeLook, measure, node_look
from playground.ui.relay import emit_on_ui_thread

# graphs up to this many nodes are folded and measured at once, without pausing the collector
PREPARED_IN_PLACE = gc_policy.THAW_AT_NODES
LAID_OUT_IN_PLACE = 120  # nodes laid out on the UI thread (≤ 2 ms): a thread's hop costs more
BATCH = 1500            # items created per event-loop turn: big graphs never freeze the window
# Past this many items a scene has no index: on 10^5 nodes Qt's BSP tree costs more to build,
# and to search at each paint, than testing every item does.
INDEXED_ITEMS = 20_000
CACHED_NODES = 3000     # up to this many nodes, each is painted once into a cached pixmap
# Up to this many nodes, a re-run whose graph changed keeps the boxes of the nodes it still
# has (by stable key): no item made, and a box whose text is the same is not painted again
# (its cached pixmap moves). Past it, clearing the scene at once costs less than removing
# the other items one by one.
REUSED_NODES = 500
MOVE_MS = 260           # how long surviving nodes glide to their new places
WIDTH_SLACK = 24.0  # a box this much wider or narrower after a re-run is redrawn in place


@dataclass
class Scene:
    """One laid-out display graph and its items."""

    display: DisplayGraph
    keys: dict[str, str]
    looks: dict[str, NodeLook]
    sizes: dict[str, tuple[float, float]]
    layout: Layout | None = None
    nodes: dict[str, NodeItem] = field(default_factory=dict)
    edges: list[EdgeItem] = field(default_factory=list)
    edges_between: dict[tuple[str, str], list[EdgeItem]] = field(default_factory=dict)
    frames: dict[str, FrameItem] = field(default_factory=dict)  # open modules, by path
    frame_boxes: dict[str, tuple] = field(default_factory=dict)  # their (x, y, w, h)
    _bounds: QRectF | None = None

    def structure(self) -> tuple[frozenset, frozenset]:
        """What a user recognises as "the same graph": its nodes and edges, by stable key
        (sets: sorting 10^5 keys held the window's thread a tenth of a second)."""
        key = self.keys.get
        return (frozenset(key(n, n) for n in self.display.node_ids),
                frozenset((key(e.source, e.source), key(e.target, e.target))
                          for e in self.display.edges))

    def bounds(self) -> QRectF:
        """The laid-out graph's rectangle (where the nodes end up, gliding or not); measured
        once, with NumPy, as every pan asks for it (the overview) and the layout never
        changes."""
        if self._bounds is None:
            positions = self.layout.positions
            if not positions:
                self._bounds = QRectF()
                return QRectF()
            centres = np.array(list(positions.values()), float).reshape(-1, 2)
            sizes = np.array([self.sizes.get(node_id, (0.0, 0.0)) for node_id in positions],
                             float).reshape(-1, 2)
            low, high = (centres - sizes / 2).min(axis=0), (centres + sizes / 2).max(axis=0)
            self._bounds = QRectF(low[0], low[1], high[0] - low[0], high[1] - low[1])
            for rect in frame_rects(self).values():
                self._bounds = self._bounds.united(rect)
        return QRectF(self._bounds)

    def same_drawing_as(self, shown: Scene | None) -> dict[str, str] | None:
        """Where this scene draws as ``shown`` but for its text (a re-run that changed
        numbers): the same nodes and edges, each box the same size. Then the new id of each
        node of ``shown`` whose id changed, else None. Nodes are matched by stable key: ids
        are discovery numbers, and a loop that ran once more than last time renumbers every
        node after it while its fold ("MulBackward0 ×10") is still the one node."""
        if shown is None or shown.layout is None:
            return None
        old, new = shown.display, self.display
        if len(old.node_ids) != len(new.node_ids) or len(old.edges) != len(new.edges):
            return None
        renamed: dict[str, str] = {}
        if old.node_ids != new.node_ids or shown.keys != self.keys:
            keys = [self.key_of(node_id) for node_id in new.node_ids]
            if None in keys or len(set(keys)) != len(keys) or \
                    keys != [shown.key_of(node_id) for node_id in old.node_ids]:
                return None
            renamed = {o: n for o, n in zip(old.node_ids, new.node_ids, strict=True) if o != n}
        now = renamed.get
        if [(now(e.source, e.source), now(e.target, e.target)) for e in old.edges] != \
                [(e.source, e.target) for e in new.edges]:
            return None
        # a number one digit longer widens its box a little: that fits where it stands
        sizes = self.sizes
        if all(size[1] == sizes[now(n, n)][1] and abs(size[0] - sizes[now(n, n)][0]) <=
               WIDTH_SLACK for n, size in shown.sizes.items()):
            return renamed
        return None

    def take_items_of(self, shown: Scene, renamed: dict[str, str]) -> None:
        """This scene's text in the items of ``shown``: no layout, no new items, nothing
        moves. ``renamed``: the new id of each of its nodes whose id changed
        (same_drawing_as)."""
        self.frames, self.frame_boxes = shown.frames, shown.frame_boxes
        self.edges = shown.edges
        if not renamed:
            self.layout, self.nodes = shown.layout, shown.nodes
            self.edges_between = shown.edges_between
            self._bounds = shown._bounds if self.sizes == shown.sizes else None
        else:  # the same boxes and arrows under the new run's ids
            now = renamed.get
            layout = shown.layout
            self.layout = replace(
                layout, positions={now(n, n): p for n, p in layout.positions.items()},
                layers={now(n, n): layer for n, layer in layout.layers.items()})
            self.nodes = {now(n, n): item for n, item in shown.nodes.items()}
            for edge in self.edges:
                edge.source, edge.target = now(edge.source, edge.source), \
                    now(edge.target, edge.target)
            self.edges_between = {(now(a, a), now(b, b)): items
                                  for (a, b), items in shown.edges_between.items()}
            self._bounds = None
        for node_id, item in self.nodes.items():
            item.node_id = node_id
            item.set_look(self.looks[node_id], self.sizes[node_id])

    def positions_by_key(self) -> dict[str, tuple[float, float]]:
        """Where the nodes stand, by stable key (a group's also under its first member's):
        what the next layout keeps in place."""
        positions = {self.keys.get(n, n): self.layout.positions[n] for n in self.nodes}
        for group in self.display.groups.values():
            positions[self.keys[group.members[0]]] = self.layout.positions[group.id]
        return positions

    def earlier_positions(self, by_key: dict[str, tuple[float, float]]) -> dict:
        """Where this scene's nodes stood in the last layout (``positions_by_key`` of it)."""
        previous = {node_id: by_key[key] for node_id, key in self.keys.items() if key in by_key}
        for group in self.display.groups.values():
            key = self.keys.get(group.members[0])
            if key in by_key:
                previous[group.id] = by_key[key]
        return previous

    def items_by_key(self) -> dict[str, NodeItem]:
        """The node items by stable key, a group's under its first member's."""
        found = {}
        for node_id, item in self.nodes.items():
            key = self.key_of(node_id)
            if key:
                found[key] = item
        return found

    def key_of(self, node_id: str) -> str | None:
        """A node's stable key (a group's is its first member's): the same node in the next
        run's graph has it too."""
        if node_id in self.display.groups:
            return self.keys.get(self.display.groups[node_id].members[0])
        return self.keys.get(node_id)

    def arrow_tip_y(self, index: int) -> float:
        """Where edge ``index`` meets its target's box: its near side, just outside."""
        route = self.layout.routes[index]
        height = self.sizes[self.display.edges[index].target][1]
        going_down = route[-1][1] >= route[0][1]
        return route[-1][1] + (-height / 2 - 2 if going_down else height / 2 + 2)

    def edge_for(self, source: str, target: str, number: int) -> EdgeItem | None:
        """The edge from ``source`` into ``target``'s input ``number`` (or any between them)."""
        candidates = [e for e in self.edges_between.get((source, target), [])]
        for edge in candidates:
            if edge.input == number:
                return edge
        return candidates[0] if candidates else None

    def mark_selection(self, selection: list[str], paths) -> None:
        """Outline the selected nodes; the paths between two of them (model.display.Paths or
        None) in the path colour, nodes and edges."""
        on_path_nodes = paths.nodes if paths else set()
        on_path_edges = paths.edges if paths else set()
        group_of = self.display.group_of
        on_path_nodes = on_path_nodes | {group_of[m] for m in on_path_nodes if m in group_of}
        for node_id, item in self.nodes.items():
            selected, on_path = node_id in selection, node_id in on_path_nodes
            if (selected, on_path) != (item.selected, item.on_path):  # 10^5 nodes: most keep
                item.selected, item.on_path = selected, on_path
                item.update()
        for edge in self.edges:
            edge.set_highlighted((edge.source, edge.target) in on_path_edges)

    def mark_linked(self, node_ids: set[str]) -> list[str]:
        """Outline the nodes of ``node_ids`` (graph ids: a node folded into a group or a
        collapsed module outlines that); returns the items outlined."""
        group_of = self.display.group_of
        shown = {group_of.get(node_id, node_id) for node_id in node_ids}
        for node_id, item in self.nodes.items():
            if (node_id in shown) != item.linked:
                item.linked = node_id in shown
                item.update()
        return [node_id for node_id in self.nodes if node_id in shown]


def prepare(graph: Graph, expanded: set[str], fonts: tuple[QFont, QFont],
            depth: int | None = AUTOMATIC) -> Scene:
    """The display graph of ``graph`` with each node's look and box: all but the layout. Runs
    on any thread (QFont and QFontMetricsF are reentrant; these fonts are this call's copies).
    ``depth``: the modules that start collapsed (model.module_folding)."""
    display = fold(graph, expanded, depth)
    looks = {node_id: node_look(display.node(node_id)) for node_id in display.node_ids}
    by_text = _measured_in(fonts)
    sizes = {}
    for node_id, look in looks.items():
        text = (look.kind, *look.lines)
        size = by_text.get(text)
        if size is None:
            size = by_text[text] = measure(look, fonts)
        sizes[node_id] = size
    return Scene(display, stable_keys(graph), looks, sizes)


# Boxes measured, by the fonts' description and then by kind and lines: most boxes repeat a
# few texts, and a re-run repeats most of the last run's (a 300-node graph measured ~100 texts
# again at each run). Kept while the label size stays; dropped when it holds too many.
_MEASURED: dict[tuple[str, str], dict[tuple, tuple[float, float]]] = {}
MEASURED_TEXTS = 50_000


def _measured_in(fonts: tuple[QFont, QFont]) -> dict[tuple, tuple[float, float]]:
    key = (fonts[0].toString(), fonts[1].toString())
    by_text = _MEASURED.get(key)
    if by_text is None or len(by_text) > MEASURED_TEXTS:
        _MEASURED.clear()  # (another label size: the old sizes are of no more use)
        by_text = _MEASURED[key] = {}
    return by_text


class SceneMaker(QObject):
    """Prepares and lays out scenes on worker threads. Each comes back on the UI thread with
    the generation it was asked for, so that the view can drop all but its latest."""

    prepared = Signal(int, object, bool)  # generation, Scene, whether it may redraw in place
    laid_out = Signal(int, object)        # generation, Scene

    def prepare(self, generation: int, graph: Graph, expanded: set[str],
                fonts: tuple[QFont, QFont], settled: bool, depth: int | None) -> None:
        """Fold, name and measure ``graph`` off the UI thread: 10^5 nodes take seconds."""
        threading.Thread(target=self._prepare, daemon=True, name="graph-prepare",
                         args=(generation, graph, expanded, fonts, settled, depth)).start()

    def lay_out(self, generation: int, scene: Scene, previous: dict, upward: bool) -> None:
        """Lay ``scene`` out off the UI thread, keeping the order of ``previous`` positions."""
        threading.Thread(target=self._lay_out, daemon=True, name="graph-layout",
                         args=(generation, scene, previous, upward)).start()

    def _prepare(self, generation: int, graph: Graph, expanded: set[str], fonts,
                 settled: bool, depth: int | None) -> None:
        with gc_policy.paused():
            scene = prepare(graph, expanded, fonts, depth)
        emit_on_ui_thread(self.prepared, generation, scene, settled)

    def _lay_out(self, generation: int, scene: Scene, previous, upward: bool) -> None:
        lay_out(scene, previous, upward)
        emit_on_ui_thread(self.laid_out, generation, scene)


def lay_out(scene: Scene, previous: dict, upward: bool) -> None:
    """Give ``scene`` its layout, keeping the order of ``previous`` positions (any thread)."""
    edges = [(e.source, e.target) for e in scene.display.edges]
    if scene.display.frames:  # open modules: each laid out inside its frame
        scene.layout, scene.frame_boxes = framed_layout(scene, edges, previous, upward)
        return
    scene.layout = layered_layout(scene.display.node_ids, edges, scene.sizes, previous,
                                  upward=upward)
    if scene.display.groups:
        line_up_repeats(scene)


class ItemBatches(QTimer):
    """Makes a laid-out scene's items in the view, BATCH of them per event-loop turn, so that
    a large graph never freezes the window; active while batches remain, ``built`` once all
    are there. The garbage collector is paused until the last batch (see model/gc_policy.py)."""

    built = Signal()

    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view, interval=0)
        self.timeout.connect(self._make_batch)
        self._canvas = view.scene()  # where the items go
        self._scene: Scene | None = None
        self._edge_colour = QColor()
        self._pending: list[tuple[str, str | int]] = []
        self._reusable: dict[str, NodeItem] = {}
        # [paused]: a list that the view's end can read without referring to the view
        self._collector_pause = [False]
        view.destroyed.connect(partial(_end_pause, self._collector_pause))

    def build(self, scene: Scene, edge_colour: QColor,
              reusable: dict[str, NodeItem] | None = None) -> bool:
        """Make ``scene``'s items: the first batch now; whether more follow on later turns.
        ``reusable``: node items still in the view, by stable key, that a node of the same
        key takes over (with its new look) instead of a new item."""
        self._scene, self._edge_colour = scene, edge_colour
        self._reusable = dict(reusable or {})
        self._pending = [("node", node_id) for node_id in scene.display.node_ids] + \
            [("edge", index) for index in range(len(scene.display.edges))]
        self._make_batch()
        if not self._pending:
            return False
        self.start()
        # an index is built once at the end, not grown batch by batch (see INDEXED_ITEMS)
        self._canvas.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self._pause_collector(True)
        return True

    def cancel(self) -> None:
        """Make no more items: the view is being cleared."""
        self.stop()
        self._pause_collector(False)
        self._pending = []
        self._scene = None
        self._reusable = {}

    def _pause_collector(self, on: bool) -> None:
        if on != self._collector_pause[0]:
            self._collector_pause[0] = on
            (gc_policy.pause if on else gc_policy.resume)()

    def _make_batch(self) -> None:
        scene = self._scene
        batch, self._pending = self._pending[:BATCH], self._pending[BATCH:]
        # Painting is Python: a node cached as a pixmap is redrawn only when it changes. Past
        # CACHED_NODES, making the pixmaps of a whole zoomed-out graph costs more than it saves.
        cached = len(scene.looks) <= CACHED_NODES
        for kind, ref in batch:
            if kind == "node":
                self._add_node(scene, ref, cached)
            else:
                self._add_edge(scene, ref)
        if not self._pending:
            for unused in self._reusable.values():  # nodes this run no longer has
                self._canvas.removeItem(unused)
            add_frames(scene, self._canvas)
            self.stop()
            self._pause_collector(False)
            if len(scene.nodes) + len(scene.edges) <= INDEXED_ITEMS:
                self._canvas.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
            self._scene = None
            self._reusable = {}
            self.built.emit()

    def _add_node(self, scene: Scene, node_id: str, cached: bool) -> None:
        item = self._reusable.pop(scene.key_of(node_id), None)
        if item is not None:  # (in the view already, at its old place: it glides from there)
            item.take_over(node_id, scene.looks[node_id], scene.sizes[node_id])
        else:
            item = NodeItem(node_id, scene.looks[node_id], scene.sizes[node_id])
            if cached:
                item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            self._canvas.addItem(item)
        x, y = scene.layout.positions[node_id]
        item.setPos(x, y)
        scene.nodes[node_id] = item

    def _add_edge(self, scene: Scene, index: int) -> None:
        edge = scene.display.edges[index]
        item = EdgeItem(edge.source, edge.target, self._edge_colour)
        item.input = edge.input
        siblings = scene.edges_between.setdefault((edge.source, edge.target), [])
        siblings.append(item)
        points = [QPointF(x, y) for x, y in scene.layout.routes[index]]
        item.set_route(_bowed(points, len(siblings) - 1), scene.arrow_tip_y(index))
        self._canvas.addItem(item)
        scene.edges.append(item)


PARALLEL_BOW = 18.0  # how far the second of two edges between the same nodes bows out


def _bowed(points: list[QPointF], nth: int) -> list[QPointF]:
    """The route of the nth (from 0) of several edges between the same two nodes (x * x
    sends two gradients to one AccumulateGrad): the first straight, the others bowed out to
    alternate sides, so that two edges never look like one."""
    if nth == 0:
        return points
    shift = PARALLEL_BOW * ((nth + 1) // 2) * (1 if nth % 2 else -1)
    if len(points) == 2:
        middle = (points[0] + points[1]) / 2
        return [points[0], middle + QPointF(shift, 0), points[1]]
    return [points[0], *(p + QPointF(shift, 0) for p in points[1:-1]), points[-1]]


def _end_pause(pause: list[bool], *_) -> None:
    """A view closed while making a graph's items ends its pause of the collector."""
    if pause[0]:
        pause[0] = False
        gc_policy.resume()


def clear_but(canvas: QGraphicsScene, keep) -> None:
    """Empty ``canvas`` but for the items ``keep`` (the next drawing takes them over)."""
    if not keep:
        canvas.clear()
        return
    kept = {id(item) for item in keep}
    for item in canvas.items():
        if item.parentItem() is None and id(item) not in kept:
            canvas.removeItem(item)


def glide(parent: QObject, scene: Scene,
          old_positions: dict[str, QPointF]) -> QVariantAnimation | None:
    """Nodes that were on screen before glide from their old place to the new one, the edges
    hidden meanwhile; None where too few survive or none moves."""
    keys = scene.items_by_key()
    starts = {key: old_positions[key] for key in keys if key in old_positions}
    if not starts or len(starts) < len(keys) / 3:
        return None
    if all(keys[key].pos() == start for key, start in starts.items()):
        return None  # nothing moves: the edges need not hide for a glide
    ends = {key: keys[key].pos() for key in starts}
    mover = QVariantAnimation(parent, startValue=0.0, endValue=1.0, duration=MOVE_MS)

    def step(t) -> None:
        for key, start in starts.items():
            end = ends[key]
            keys[key].setPos(start + (end - start) * float(t))

    for edge in scene.edges:
        edge.setVisible(False)
    mover.valueChanged.connect(step)
    mover.finished.connect(lambda: [e.setVisible(True) for e in scene.edges])
    step(0.0)
    mover.start()
    return mover


def retire(animation: QVariantAnimation | None) -> None:
    """Stop an animation that is being replaced and let Qt delete it: as a child of the view it
    would otherwise live (with its closure over a whole old scene) as long as the window."""
    if animation is not None:
        animation.stop()
        animation.deleteLater()
