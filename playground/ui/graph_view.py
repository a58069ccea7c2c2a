"""The graph view: the run's tensors and grad_fn nodes in layers, with names, values, grads."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, QVariantAnimation, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QGraphicsView, QLabel

from playground.model import Graph
from playground.model.display import paths_between
from playground.model.module_folding import AUTOMATIC, GROUP_PREFIX, module_group_id
from playground.ui import gc_timer
from playground.ui.following import follow
from playground.ui.graph_fit import SCENE_MARGIN, fit_view
from playground.ui.graph_frames import frame_title_at
from playground.ui.graph_items import EdgeItem, NodeItem, anchored, shortest_shift
from playground.ui.graph_look import label_fonts, set_label_scale
from playground.ui.graph_overview import Overview, overview_held
from playground.ui.graph_replay import ReplayDrawing, StepFocus
from playground.ui.graph_scene import (
    LAID_OUT_IN_PLACE,
    PREPARED_IN_PLACE,
    REUSED_NODES,
    ItemBatches,
    Scene,
    SceneMaker,
    clear_but,
    glide,
    lay_out,
    prepare,
    retire,
)

EMPTY_HINT = ("Run a script: its autograd graph appears here.\n"
              "Leaves at the bottom, the output at the top, gradients flowing down.")


class GraphView(QGraphicsView):
    """Shows a Graph; click selects, Ctrl+click a second node shows the paths between them.

    Given a ViewState it follows it: its graph, the replay's steps and the selection.
    """

    node_selected = Signal(str)            # a graph node id (or a group id), "" when cleared
    paths_selected = Signal(object)        # model.display.Paths or None
    graph_ready = Signal()                 # the items of the last graph are all on screen
    node_hovered = Signal(str)             # the node under the mouse, "" when it leaves it

    def __init__(self, state=None, parent=None) -> None:
        super().__init__(parent)
        gc_timer.install()  # its layout threads must never collect Qt objects
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
        self._structure: tuple[frozenset, frozenset] | None = None
        self._replaying = False  # a replay step is on screen (its end refits the view)
        self._turned = False  # leaves on top changed: the next graph is laid out anew
        self._user_zoomed = False  # since the last fit
        self._fitted: tuple | None = None  # where graph_fit.fit_view left the view, and
        self._fitted_for: tuple | None = None  # what it fitted there
        self.graph: Graph | None = None
        self.current: Scene | None = None
        self.expanded: set[str] = set()  # groups the user turned from how they start
        self.module_depth: int | None = AUTOMATIC  # modules this deep start collapsed
        self._reveal: str | None = None  # a group just opened or closed: brought into view
        self.selection: list[str] = []
        self.linked: set[str] = set()  # nodes outlined: the editor's current line made them
        self._hovered = ""
        self._generation = 0
        self._shown = 0  # the generation on screen; differs from _generation while laying out
        self._positions: dict[str, tuple[float, float]] = {}  # by stable key, last layout
        self._old_positions: dict[str, QPointF] = {}  # the last scene's items', for a glide
        self._maker = SceneMaker()  # no parent: a worker thread may outlive the view
        self._maker.prepared.connect(self._prepared)
        self._maker.laid_out.connect(self._laid_out)
        self._builder = ItemBatches(self)
        self._builder.built.connect(self._finish)
        self._mover: QVariantAnimation | None = None
        self._replay = ReplayDrawing(self)
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
        follow(self, state.events.graph, self.show_graph)
        follow(self, state.events.step, self._follow_step)
        follow(self, state.events.selection, self._follow_selection)
        follow(self, state.events.reset, self._follow_reset)
        self.graph_ready.connect(lambda: self.show_step(state.step_state()))
        if state.graph is not None:
            self.show_graph(state.graph)

    def _follow_step(self, step) -> None:
        replayed, self._replaying = self._replaying, step is not None
        self.show_step(step, step.glide_ms if step is not None else 0)
        if replayed and step is None and not self._user_zoomed and self.current is not None:
            self._fit_scene_rect()
            self.fit_new()  # the replay panned to its nodes: back to the view it left

    def _follow_selection(self, node_ids: list[str]) -> None:
        if node_ids != self.selection:
            self.selection = [n for n in node_ids if self.current and n in self.current.nodes]
            self._paint_selection(self.state.paths)

    def _follow_reset(self) -> None:
        self.expanded.clear()
        self.module_depth = AUTOMATIC
        self._positions.clear()
        self._structure = None
        self._say(self.state.note or EMPTY_HINT)

    # ----- public -----------------------------------------------------------------------------
    @overview_held  # (a small graph is drawn here and now)
    def show_graph(self, graph: Graph | None) -> None:
        """Lay out ``graph`` off the UI thread; the old drawing stays until the new is ready."""
        self.graph = graph
        # nothing laid out or built meanwhile, nor the drawing turned over: it may be reused
        # (a glide still under way goes on to the same places)
        settled = not self._builder.isActive() and self._generation == self._shown and \
            not self._turned
        self._turned = False
        self._generation += 1
        if graph is None or not graph.nodes:
            self._shown = self._generation
            self._clear()
            self._structure = None
            self._say(self._empty_text(graph))
            return
        fonts = label_fonts()
        if len(graph.nodes) <= PREPARED_IN_PLACE:
            self._prepared(self._generation, prepare(graph, set(self.expanded), fonts,
                                                     self.module_depth), settled)
            return
        self._say(f"Preparing {len(graph.nodes):,} nodes…")
        self._maker.prepare(self._generation, graph, set(self.expanded), fonts, settled,
                            self.module_depth)

    def _prepared(self, generation: int, scene: Scene, settled: bool) -> None:
        if generation != self._generation:
            return  # a newer run's graph is on its way
        if settled and (renamed := scene.same_drawing_as(self.current)) is not None:
            scene.take_items_of(self.current, renamed)  # new text in the boxes on screen
            self.current = scene
            self._old_positions = {}
            self._finish()
            return
        previous = scene.earlier_positions(self._positions)
        if len(scene.display.node_ids) <= LAID_OUT_IN_PLACE:
            lay_out(scene, previous, self.upward)
            self._laid_out(generation, scene)
            return
        if len(scene.display.node_ids) > 400:
            self._say(f"Laying out {len(scene.display.node_ids):,} nodes…")
        self._maker.lay_out(generation, scene, previous, self.upward)

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
        self._reveal = group_id  # what was opened or closed stays in sight
        self.show_graph(self.graph)

    def collapse_modules(self, depth: int | None) -> None:
        """Modules ``depth`` deep or deeper collapsed (None: all open; AUTOMATIC: as the
        graph's size suggests), whatever single ones were opened or closed before."""
        self.module_depth = depth
        self.expanded = {g for g in self.expanded if not g.startswith(GROUP_PREFIX)}
        self.show_graph(self.graph)

    def fit(self) -> None:
        """The whole graph in view, however small (F, Ctrl+0, the Fit button)."""
        self.fit_new(readable=False)

    def fit_new(self, readable: bool = True) -> None:
        """The whole graph in view (graph_fit.fit_view: readable, for a new graph)."""
        if self.current is not None and self.current.layout is not None:
            fit_view(self, self.current, readable)
            self.overview.follow()

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

    def outline(self, node_ids: set[str]) -> list[str]:
        """Outline these nodes (the editor's current line made them; kept for the graph's
        next drawing); returns the ids of the items outlined."""
        self.linked = set(node_ids)
        return [] if self.current is None else self.current.mark_linked(self.linked)

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
        """Whether a graph is still on its way: prepared, laid out, made or gliding."""
        gliding = self._mover is not None and \
            self._mover.state() == QVariantAnimation.State.Running
        return self._builder.isActive() or self._generation != self._shown or gliding

    # ----- a laid-out graph onto the screen ------------------------------------------------------
    def _laid_out(self, generation: int, scene: Scene) -> None:
        if generation != self._generation:
            return  # a newer run's graph is on its way
        old = self.current
        old_items = old.items_by_key() if old else {}
        old_positions = {scene_key: item.pos() for scene_key, item in old_items.items()}
        small = len(old_items) <= REUSED_NODES and len(scene.display.node_ids) <= REUSED_NODES
        reusable = old_items if small else {}
        self._clear(keep_message=True, keep=reusable.values())
        self.current = scene
        self._old_positions = old_positions
        if self._builder.build(scene, self._edge_colour(), reusable):
            self._say(f"Drawing {len(scene.display.node_ids):,} nodes…")

    @overview_held
    def _finish(self) -> None:
        scene = self.current
        self._shown = self._generation
        self.message.hide()
        self._fit_scene_rect()
        mover = glide(self, scene, self._old_positions)
        if mover is not None:
            retire(self._mover)
            self._mover = mover
        self._positions = scene.positions_by_key()
        structure = scene.structure()
        if structure != self._structure or not self._user_zoomed:
            self.fit_new()  # a new graph is shown whole; the user's zoom survives a re-run only
        self._structure = structure
        self._reveal_toggled(scene)
        kept = [n for n in self.selection if n in scene.nodes]
        if kept != self.selection and self.state is not None:
            self.select(kept)  # a module just collapsed or opened: the inspector follows
        self.selection = kept
        if self.state is not None:
            self.state.stages = {member: group for member, group in
                                 scene.display.group_of.items() if group.startswith(GROUP_PREFIX)}
        self._paint_selection(None if len(self.selection) < 2 else
                              paths_between(self.graph, *self.selection))
        self.outline(self.linked)
        self.graph_ready.emit()

    def _reveal_toggled(self, scene: Scene) -> None:
        """The module or group just opened (its frame, its top first) or closed, in view."""
        toggled, self._reveal = self._reveal, None
        if toggled is None:
            return
        path = toggled[len(GROUP_PREFIX):] if toggled.startswith(GROUP_PREFIX) else None
        item = scene.frames.get(path) or scene.nodes.get(toggled)
        if item is not None:
            rect = item.sceneBoundingRect()
            visible = self.visible_rect()
            rect.setHeight(min(rect.height(), visible.height() - 40))
            self.ensureVisible(rect, 40, 40)

    def _fit_scene_rect(self, extra: QRectF | None = None) -> None:
        """The scrollable area: the graph (and a callout sticking out of it) with a margin."""
        if self.current is None or self.current.layout is None:
            return
        rect = self.current.bounds()
        if extra is not None:
            rect = rect.united(extra)
        self.setSceneRect(rect.adjusted(-SCENE_MARGIN, -SCENE_MARGIN,
                                        SCENE_MARGIN, SCENE_MARGIN))

    # ----- the backward player ------------------------------------------------------------------
    def show_step(self, state, travel_ms: int = 0, travel_at: float | None = None) -> None:
        """Draw a player state (model.playback.StepState), or clear it with None; the running
        node, its rule and its gradients' edges are brought on screen."""
        if self.current is None:
            return
        focus = self._replay.show(self.current, state, travel_ms, travel_at)
        if focus is not None:
            if focus.callout is not None:  # it may stick out of the graph: scroll to it
                self._fit_scene_rect(focus.callout.sceneBoundingRect())
            self._keep_in_view(focus)

    def _keep_in_view(self, focus: StepFocus) -> None:
        """Pan as little as it takes to show the running node, its explanation and its edges;
        where they do not all fit, the node whole and as much of its callout as fits."""
        item = self.current.nodes.get(focus.node_id) if self.current else None
        if item is None:
            return
        node = item.sceneBoundingRect()
        must = QRectF(node)
        if focus.callout is not None:
            must = must.united(focus.callout.sceneBoundingRect())
        wanted = QRectF(must)
        for edge in focus.edges:
            wanted = wanted.united(edge.sceneBoundingRect())
        visible = self.visible_rect()
        if visible.contains(wanted):
            return
        target = wanted if wanted.width() <= visible.width() and \
            wanted.height() <= visible.height() else anchored(must, node, visible)
        if not visible.contains(target):
            self.centerOn(visible.center() + shortest_shift(target, visible))

    def snapshot(self) -> dict:
        """What is drawn, for tests: node states and the gradient labels' texts."""
        states = {n: i.state for n, i in (self.current.nodes.items() if self.current else ())
                  if i.state}
        labels = sorted((getattr(label, "text", "") or "\n".join(label.lines),
                         round(label.pos().x(), 1), round(label.pos().y(), 1))
                        for label in self._replay.labels)
        lines = {n: list(i.look.lines) for n, i in
                 (self.current.nodes.items() if self.current else ())}
        return {"states": states, "labels": labels, "lines": lines}

    @property
    def _labels(self) -> list[QGraphicsItem]:
        """The replay's gradient tags and callout (tests/ui/test_journeys.py reads them)."""
        return self._replay.labels

    # ----- drawing state ------------------------------------------------------------------------
    def _paint_selection(self, paths) -> None:
        if self.current is not None:
            self.current.mark_selection(self.selection, paths)

    def _edge_colour(self) -> QColor:
        colour = self.palette().text().color()
        colour.setAlpha(150)
        return colour

    def _clear(self, keep_message: bool = False, keep=()) -> None:
        """Empty the view but for the node items ``keep`` (which the next drawing takes over)."""
        self._builder.cancel()
        # Their closures hold items of the scene being cleared: stopped, they touch none.
        retire(self._mover)
        self._mover = None
        self._replay.forget()
        clear_but(self.scene(), keep)
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

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt's name
        item = self._node_at(event.position().toPoint())
        hovered = item.node_id if item is not None else ""
        if hovered != self._hovered:
            self._hovered = hovered
            self.node_hovered.emit(hovered)
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self._hovered:
            self._hovered = ""
            self.node_hovered.emit("")
        super().leaveEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 - Qt's name
        item = self._node_at(event.position().toPoint())
        if item is not None and item.look.kind in ("group", "module"):
            self.toggle_group(item.node_id)
            return
        frame = frame_title_at(self, event.position().toPoint())
        if item is None and frame is not None:
            self.toggle_group(module_group_id(frame.path))
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

