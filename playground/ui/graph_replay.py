"""The backward replay drawn on the graph: node states, gradients on their edges, the rule."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QObject, QPointF, QRectF, QVariantAnimation
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QGraphicsItem, QGraphicsView

from playground.ui.formatting import short_values
from playground.ui.graph_items import (
    FINAL_GRAD,
    Callout,
    EdgeItem,
    GradientLabel,
    NodeItem,
    callout_spots,
)
from playground.ui.graph_look import PLAIN_FONT, NodeLook
from playground.ui.graph_scene import Scene, retire

ARRIVED_AT = 0.62       # where on its edge a gradient's label rests (0: source, 1: target)


@dataclass
class StepFocus:
    """What a step wants on screen: the running node, its callout, its gradients' edges."""

    node_id: str
    callout: Callout | None
    edges: list[EdgeItem]


CALLOUT_TEXT_PX = 11.0  # the replay's explanation reads at least this large on screen
MOST_GROWTH = 2.5       # ... growing it no more than this over the graph's own text


class ReplayDrawing(QObject):
    """Draws the backward player's state on a scene's items, in the view it is made for: which
    nodes wait, run or are done, each leaf's .grad as of the step, the gradients on their
    edges (those leaving the running node glide along them) and the running rule's callout."""

    def __init__(self, view: QGraphicsView) -> None:
        super().__init__(view)  # the parent of its animations
        self._view = view
        self._canvas = view.scene()  # where the tags and the callout go
        self.labels: list[QGraphicsItem] = []  # the gradient tags and the callout drawn
        self._states: dict[str, str] = {}  # the nodes' player states drawn, by shown id
        self._traveller: QVariantAnimation | None = None

    def forget(self) -> None:
        """The view is being cleared: its items go, and the travel whose closure holds some."""
        retire(self._traveller)
        self._traveller = None
        self.labels = []
        self._states = {}

    def show(self, scene: Scene, state, travel_ms: int = 0,
             travel_at: float | None = None) -> StepFocus | None:
        """Draw a player state (model.playback.StepState), or clear it with None; what it wants
        on screen, where a node runs.

        Node looks change only where they differ from the last state, and only gradients that
        are still on their way (into waiting or running nodes) get a label: a step costs the
        same on a 10-node and a 1,000-node graph.
        """
        for label in self.labels:
            self._canvas.removeItem(label)
        self.labels = []
        if self._traveller is not None:
            self._traveller.stop()
        self._show_states(scene, state.states if state is not None else {})
        self._show_leaf_grads(scene, state.leaf_grads if state is not None else {})
        if state is None:
            return None
        callout = self._explain(scene, state)
        for flow in state.arrived:
            self._place_label(scene, flow, moving=False, at=ARRIVED_AT)
        if travel_at is None:
            travel_at = 0.0 if travel_ms else ARRIVED_AT
        moving = [self._place_label(scene, flow, moving=True, at=travel_at)
                  for flow in state.moving]
        moving = [m for m in moving if m is not None]
        if travel_ms and moving:
            self._travel(moving, travel_ms)
        if state.running is None:
            return None
        return StepFocus(scene.display.group_of.get(state.running, state.running), callout,
                         [edge for _, edge in moving])

    def _show_states(self, scene: Scene, states: dict[str, str]) -> None:
        """Each node's state, where it changed; a folded group shows its busiest member's."""
        group_of = scene.display.group_of
        wanted: dict[str, str] = {}
        for node_id, node_state in states.items():
            shown_id = group_of.get(node_id, node_id)
            wanted[shown_id] = _merge_state(wanted.get(shown_id), node_state)
        for node_id in set(self._states) | set(wanted):
            item = scene.nodes.get(node_id)
            if item is not None and item.state != wanted.get(node_id, ""):
                item.state = wanted.get(node_id, "")
                item.update()
        self._states = wanted

    def _show_leaf_grads(self, scene: Scene, grads: dict) -> None:
        """A leaf's text shows its .grad as of the player's step (or the final one)."""
        for node_id, item in scene.nodes.items():
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

    def _explain(self, scene: Scene, state) -> Callout | None:
        """The running step's rule beside its node (inside a folded group: which member)."""
        if state.running is None or not state.explanation:
            return None
        shown_id = scene.display.group_of.get(state.running, state.running)
        item = scene.nodes.get(shown_id)
        if item is None:
            return None
        lines = list(state.explanation)
        if shown_id in scene.display.groups:
            group = scene.display.groups[shown_id]
            members, number = group.members, group.members.index(state.running) + 1
            if group.module is not None:  # passed in one step: say how far through it
                kind = f" ({group.info.class_name})" if group.info and group.info.class_name \
                    else ""
                lines.insert(0, f"backward through {group.module}{kind}: {number} of its "
                                f"{len(members)} nodes have run")
            else:
                lines.insert(0, f"inside the folded ×{len(members)}: node {number} of "
                                f"{len(members)}")
        return self._place_callout(scene, item, lines)

    def _place_callout(self, scene: Scene, item: NodeItem, lines: list[str]) -> Callout:
        """The explanation near its node, where it covers no node (nor a gradient's tag)."""
        callout = Callout(lines)
        grown = self._callout_growth()
        callout.setScale(grown)
        width, height = callout.width * grown, callout.height * grown
        node = item.sceneBoundingRect().adjusted(4, 4, -4, -4)  # the box, not its margin
        best = None
        for tip, corner in callout_spots(node, width, height, scene.bounds()):
            box = QRectF(corner.x(), corner.y(), width, height)
            covered = sum(_overlap(box, other.sceneBoundingRect())
                          for other in self._canvas.items(box.adjusted(-3, -3, 3, 3))
                          if isinstance(other, NodeItem))
            if best is None or covered < best[0]:
                best = (covered, tip, corner)
            if covered == 0:
                break
        _, tip, corner = best
        callout.offset = (corner - tip) / grown
        callout.setPos(tip)
        self._canvas.addItem(callout)
        self.labels.append(callout)
        return callout

    def _callout_growth(self) -> float:
        """How much larger than the graph's text the callout is drawn: its text at least
        CALLOUT_TEXT_PX high on screen (a graph fitted small left it at 7 px)."""
        shown = QFontInfo(PLAIN_FONT).pixelSize() * self._view.transform().m11()
        return min(MOST_GROWTH, max(1.0, CALLOUT_TEXT_PX / max(shown, 1e-6)))

    def _place_label(self, scene: Scene, flow, moving: bool, at: float):
        """A gradient's tag on its edge, ``at`` along it; (tag, edge), or None where the flow
        has no edge of its own on screen."""
        from playground.model.playback import brief

        group_of = scene.display.group_of
        source = group_of.get(flow.source, flow.source)
        target = group_of.get(flow.target, flow.target)
        if source == target:
            return None  # inside a folded group
        edge = scene.edge_for(source, target, flow.input)
        if edge is None or edge.route.isEmpty():
            return None
        # two gradients on one pair of nodes (x * x): the second tag rests beside the first
        earlier = sum(1 for other in self.labels if getattr(other, "between", None)
                      == (source, target))
        label = GradientLabel(brief(flow.value, 3), moving)
        label.between = (source, target)
        label.offset = QPointF(0, 18 * earlier)
        label.setPos(edge.route.pointAtPercent(at) + label.offset)
        self._canvas.addItem(label)
        self.labels.append(label)
        return label, edge

    def _travel(self, moving: list, duration: int) -> None:
        """Outgoing gradients glide along their edges, from the node to its inputs."""
        retire(self._traveller)
        self._traveller = QVariantAnimation(self, startValue=0.0, endValue=ARRIVED_AT,
                                            duration=duration)

        def step(t) -> None:
            for label, edge in moving:
                label.setPos(edge.route.pointAtPercent(float(t)) + label.offset)

        self._traveller.valueChanged.connect(step)
        self._traveller.start()


def _overlap(a: QRectF, b: QRectF) -> float:
    common = a.intersected(b)
    return 0.0 if common.isEmpty() else common.width() * common.height()


def _merge_state(old: str | None, new: str) -> str:
    """A folded group shows its busiest member: running over waiting over done."""
    rank = {"failed": 4, "running": 3, "waiting": 2, "done": 1}
    return new if old is None or rank[new] > rank[old] else old
