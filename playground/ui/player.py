"""The backward player bar: replay a recorded backward() step by step on the graph."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from playground.model import Graph, RunResult
from playground.model.playback import ORDER_EXPLAINED, Playback, StepState

SPEEDS = (("0.25×", 0.25), ("0.5×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0))
STEP_MS = 1100  # one step at 1×: long enough to read the rule with its numbers


class PlayerBar(QWidget):
    """⏮ ◀ ▶ ▶| ⏭, speed, "step 4 of 11 · MulBackward0", a scrubber and the call to replay."""

    state_changed = Signal(object)  # StepState, or None when there is nothing to replay

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.playback: Playback | None = None
        self.graph: Graph | None = None
        self.traces = []
        self.position = 0
        self.calls = QComboBox()
        self.calls.setToolTip("Which backward() or autograd.grad() call of the run to replay")
        self.calls.currentIndexChanged.connect(self._call_chosen)
        icon = QStyle.StandardPixmap
        self.to_start = self._button(icon.SP_MediaSkipBackward, "To the start (Home)",
                                     lambda: self.go(0))
        self.back = self._button(icon.SP_MediaSeekBackward, "Step back (←)",
                                 lambda: self.go(self.position - 1))
        self.play_button = self._button(icon.SP_MediaPlay, "Play / pause (Space)",
                                        self.toggle_play)
        self.forward = self._button(icon.SP_MediaSeekForward, "Step forward (→)",
                                    lambda: self.go(self.position + 1))
        self.to_end = self._button(icon.SP_MediaSkipForward, "To the end (End)",
                                   self.go_to_end)
        self.speed = QComboBox()
        for label, factor in SPEEDS:
            self.speed.addItem(label, factor)
        self.speed.setCurrentIndex(2)
        self.speed.setToolTip("Playback speed")
        self.speed.currentIndexChanged.connect(self._speed_changed)
        self.scrubber = QSlider(Qt.Orientation.Horizontal)
        self.scrubber.setMinimum(0)
        self.scrubber.valueChanged.connect(self.go)
        self.counter = QLabel()
        self.counter.setMinimumWidth(190)
        why = QLabel("<a href='#'>why this order?</a>")
        why.setToolTip(ORDER_EXPLAINED)
        why.linkActivated.connect(lambda _: why.setToolTip(ORDER_EXPLAINED))
        self.timer = QTimer(self, timeout=self._advance)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(6, 2, 6, 2)
        rows.setSpacing(0)
        layout = QHBoxLayout()
        layout.addWidget(QLabel("<b>Backward</b>"))
        for button in (self.to_start, self.back, self.play_button, self.forward, self.to_end):
            layout.addWidget(button)
        layout.addWidget(self.speed)
        layout.addWidget(self.counter, 1)
        layout.addWidget(self.calls)
        layout.addWidget(why)
        rows.addLayout(layout)
        rows.addWidget(self.scrubber)
        self.load(None)

    def _button(self, icon, tip: str, slot) -> QToolButton:
        button = QToolButton()
        button.setIcon(self.style().standardIcon(icon))
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.clicked.connect(slot)
        return button

    # ----- loading ------------------------------------------------------------------------------
    def load(self, result: RunResult | None) -> None:
        """A new run: offer its backward calls, positioned before the first step."""
        self.stop()
        self.graph = result.graph if result is not None else None
        self.traces = [t for t in (result.traces if result is not None else []) if t.steps]
        self.calls.blockSignals(True)
        self.calls.clear()
        for number, trace in enumerate(self.traces, start=1):
            roots = ", ".join(self._root_name(r) for r in trace.roots)
            call = "backward()" if trace.kind == "backward" else "autograd.grad()"
            self.calls.addItem(f"{number} of {len(self.traces)}: {call} from {roots}")
        self.calls.blockSignals(False)
        self.calls.setEnabled(len(self.traces) > 1)
        self.calls.setVisible(bool(self.traces))
        self._call_chosen(0)

    def reset(self) -> None:
        """The code changed: the recorded run no longer matches it."""
        if self.playback is not None:
            self.load(None)
            self.counter.setText("code changed: run it to replay backward")

    def _root_name(self, node_id: str) -> str:
        if self.graph is None:
            return node_id
        for edge in self.graph.edges:  # the tensor whose grad_fn the root is
            if edge.target == node_id and edge.kind == "output":
                return self.graph.node(edge.source).label
        return self.graph.node(node_id).label

    def _call_chosen(self, index: int) -> None:
        self.stop()
        if self.graph is None or not self.traces or index < 0:
            self.playback = None
        else:
            self.playback = Playback(self.graph, self.traces[index])
        count = self.playback.count if self.playback else 0
        self.scrubber.blockSignals(True)
        self.scrubber.setMaximum(count)
        self.scrubber.setValue(0)
        self.scrubber.blockSignals(False)
        for widget in (self.to_start, self.back, self.play_button, self.forward, self.to_end,
                       self.scrubber, self.speed):
            widget.setEnabled(count > 0)
        self.position = 0
        if self.playback is None:
            self.counter.setText("no backward() in this run" if self.graph is not None
                                 else "run a script that calls backward()")
            self.state_changed.emit(None)
        else:
            self._show()

    # ----- moving -------------------------------------------------------------------------------
    def go(self, position: int) -> None:
        if self.playback is None:
            return
        position = max(0, min(position, self.playback.count))
        if position == self.position and self.scrubber.value() == position:
            return
        self.position = position
        self._show()

    def go_to_end(self) -> None:
        if self.playback is not None:
            self.go(self.playback.count)

    def toggle_play(self) -> None:
        if self.timer.isActive():
            self.stop()
        elif self.playback is not None:
            if self.position >= self.playback.count:
                self.position = 0
                self._show()
            self.play_button.setIcon(
                self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPause))
            self.timer.start(self._interval())

    def stop(self) -> None:
        self.timer.stop()
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))

    def _advance(self) -> None:
        if self.playback is None or self.position >= self.playback.count:
            self.stop()
            return
        self.go(self.position + 1)

    def _interval(self) -> int:
        return int(STEP_MS / float(self.speed.currentData()))

    def travel_ms(self) -> int:
        """How long a gradient takes along its edge: most of a step while playing."""
        return int(self._interval() * 0.6) if self.timer.isActive() else 350

    def _speed_changed(self, _index: int) -> None:
        if self.timer.isActive():
            self.timer.setInterval(self._interval())

    def _show(self) -> None:
        state: StepState = self.playback.state(self.position)
        self.scrubber.blockSignals(True)
        self.scrubber.setValue(self.position)
        self.scrubber.blockSignals(False)
        self.counter.setText(state.title)
        self.state_changed.emit(state)
