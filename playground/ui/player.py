"""The backward player bar: replay a recorded backward() step by step on the graph."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer
from PySide6.QtGui import QIcon, QPainter
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSlider,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from playground.model.playback import ORDER_EXPLAINED, Playback
from playground.model.view_state import ViewState
from playground.ui.following import follow

SPEEDS = (("0.25×", 0.25), ("0.5×", 0.5), ("1×", 1.0), ("2×", 2.0), ("4×", 4.0))
STEP_MS = 1100  # one step at 1×: long enough to read the rule with its numbers
STILL_GLIDE_MS = 350  # a gradient's glide when stepping by hand


class PlayerBar(QWidget):
    """⏮ ◀ ▶ ▶| ⏭ ■, speed, "step 4 of 11 · MulBackward0", a scrubber and the call to replay.

    It drives the ViewState's replay; the graph, plots and inspector follow the state. Until
    the user asks for a replay (▶, → or a step button) every view shows the run's final state,
    and the replay ends back there.
    """

    def __init__(self, state: ViewState | None = None, parent=None) -> None:
        super().__init__(parent)
        self.state = state or ViewState()
        self._icons: dict[tuple, QIcon] = {}  # (style's icon, colour) -> the icon drawn
        self.calls = QComboBox()
        self.calls.setToolTip("Which backward() or autograd.grad() call of the run to replay")
        self.calls.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.calls.setMinimumContentsLength(18)
        self.calls.currentIndexChanged.connect(self._call_chosen)
        icon = QStyle.StandardPixmap
        self.to_start = self._button(icon.SP_MediaSkipBackward, "To the start (Home)",
                                     lambda: self.go(0))
        self.back = self._button(icon.SP_MediaSeekBackward,
                                 "Step back (Shift+F10, or ← in the graph)",
                                 lambda: self.step(-1))
        self.play_button = self._button(icon.SP_MediaPlay, "Replay the backward pass / pause "
                                         "(F8, or Space in the graph)", self.toggle_play)
        self.forward = self._button(icon.SP_MediaSeekForward,
                                    "Step forward (F10, or → in the graph)",
                                    lambda: self.step(1))
        self.to_end = self._button(icon.SP_MediaSkipForward, "To the last step (End)",
                                   self.go_to_end)
        self.final = self._button(icon.SP_MediaStop, "End the replay: show the run's final "
                                  "gradients (Esc)", self.finish)
        self.speed = QComboBox()
        for label, factor in SPEEDS:
            self.speed.addItem(label, factor)
        self.speed.setCurrentIndex(2)
        self.speed.setToolTip("Playback speed")
        self.speed.currentIndexChanged.connect(self._speed_changed)
        self.scrubber = QSlider(Qt.Orientation.Horizontal)
        self.scrubber.setMinimum(0)
        self.scrubber.valueChanged.connect(self.go)
        # as tall as the call selector beside it: the bar keeps its height when the selector
        # hides (it shrank by a few pixels, and the graph above it was resized and repainted)
        self.scrubber.setMinimumHeight(self.calls.sizeHint().height())
        self.counter = QLabel()
        self.counter.setMinimumWidth(80)
        # a long hint is elided by the layout rather than widening the window
        self.counter.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        why = QLabel("<a href='#'>why this order?</a>")
        why.setToolTip(ORDER_EXPLAINED)
        why.linkActivated.connect(lambda _: why.setToolTip(ORDER_EXPLAINED))
        self.timer = QTimer(self, timeout=self._advance)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(6, 2, 6, 2)
        rows.setSpacing(0)
        layout = QHBoxLayout()
        layout.addWidget(QLabel("<b>Backward</b>"))
        for button in (self.to_start, self.back, self.play_button, self.forward, self.to_end,
                       self.final):
            layout.addWidget(button)
        layout.addWidget(self.speed)
        layout.addSpacing(6)
        layout.addWidget(self.counter, 1)
        rows.addLayout(layout)
        lower = QHBoxLayout()  # the call selector beside the scrubber: room for both rows
        lower.addWidget(self.scrubber, 3)
        lower.addWidget(self.calls, 2)
        lower.addWidget(why)
        rows.addLayout(lower)
        follow(self, self.state.events.calls, self._calls_changed)
        follow(self, self.state.events.step, self._step_shown)
        follow(self, self.state.events.reset, self.stop)
        self._calls_changed(self.state.calls)

    def _icon(self, icon) -> QIcon:
        """The style's media icon in the palette's text colour: Fusion draws them dark grey,
        which looks disabled on a dark theme. Made once per icon and colour (each run stops
        the player: remaking it cost a millisecond of every run)."""
        colour = self.palette().buttonText().color()
        key = (icon, colour.rgba())
        if key not in self._icons:
            pixmap = self.style().standardIcon(icon).pixmap(QSize(16, 16))
            painter = QPainter(pixmap)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceIn)
            painter.fillRect(pixmap.rect(), colour)
            painter.end()
            self._icons[key] = QIcon(pixmap)
        return self._icons[key]

    def _button(self, icon, tip: str, slot) -> QToolButton:
        button = QToolButton()
        button.setIcon(self._icon(icon))
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.clicked.connect(slot)
        return button

    # ----- what the state says ----------------------------------------------------------------
    @property
    def playback(self) -> Playback | None:
        return self.state.playback

    @property
    def position(self) -> int:
        return self.state.position

    def _calls_changed(self, calls) -> None:
        self.stop()
        total = self.state.calls_made
        self.calls.blockSignals(True)
        self.calls.clear()
        for call in calls:
            roots = ", ".join(self._root_name(call, root) for root in call.trace.roots)
            where = f" · {call.where}" if call.where else ""
            failed = " · failed" if call.trace.failed else ""
            self.calls.addItem(f"{call.number:,} of {total:,}: {call.call} from {roots}{where}"
                               f"{failed}")
        self.calls.setCurrentIndex(self.state.call_index)
        self.calls.blockSignals(False)
        self.calls.setEnabled(len(calls) > 1)
        # one call needs no choosing: room for the counter. While the run's calls are still
        # on their way the selector keeps its place (hidden, then shown again a frame later,
        # it laid out the graph's pane twice and repainted it at every run of a loop)
        if not self.state.traces_coming:
            self.calls.setVisible(len(calls) > 1)
        if len(calls) < total:
            self.calls.setToolTip(
                f"{len(calls)} of {total:,} backward calls can be replayed: the first ones, the "
                "latest recorded and a sample between (recording every call of a loop would "
                "slow it down)")
        self._step_shown(self.state.step_state())

    @staticmethod
    def _root_name(call, node_id: str) -> str:
        graph = call.graph
        for edge in graph.edges:  # the tensor whose grad_fn the root is
            if edge.target == node_id and edge.kind == "output":
                return graph.node(edge.source).label
        return graph.node(node_id).label

    def _step_shown(self, step) -> None:
        count = self.playback.count if self.playback is not None else \
            self.state.calls_count_of_current()
        self.scrubber.blockSignals(True)
        self.scrubber.setMaximum(count)
        self.scrubber.setValue(step.position if step is not None else count)
        self.scrubber.blockSignals(False)
        for widget in (self.to_start, self.back, self.play_button, self.forward, self.to_end,
                       self.scrubber, self.speed):
            widget.setEnabled(count > 0)
        self.final.setEnabled(step is not None)
        if step is None:
            self.counter.setText(self._idle_text(count))
        else:  # before the first step, the key that takes it
            self.counter.setText(step.title + (" · F10 steps on" if step.position == 0 else ""))
        self.counter.setToolTip(self.counter.text())
        if step is None:
            self.stop()

    def _idle_text(self, count: int) -> str:
        failed = self.state.current_call_failed()
        if count and failed:
            return f"{failed} failed at step {count} · F10 replays its {count} steps"
        if count:
            return f"final · F10 replays {count} steps"
        if self.state.note:
            return self.state.note
        if self.state.result is not None:
            return "no backward() in this run"
        return "run a script that calls backward()"

    # ----- moving -------------------------------------------------------------------------------
    def go(self, position: int) -> None:
        self.state.step_to(position, glide_ms=self.travel_ms())

    def step(self, delta: int) -> None:
        """One step back or on; on past the last step ends the replay."""
        self.state.step_by(delta, glide_ms=self.travel_ms())

    def go_to_end(self) -> None:
        self.go(self.state.calls_count_of_current())

    def finish(self) -> None:
        self.stop()
        self.state.stop_replay()

    def _call_chosen(self, index: int) -> None:
        self.stop()
        self.state.choose_call(index)
        self._step_shown(self.state.step_state())

    def toggle_play(self) -> None:
        if self.timer.isActive():
            self.stop()
        elif self.state.calls:
            if self.playback is None or self.position >= self.playback.count:
                self.go(0)
            self.play_button.setIcon(
                self._icon(QStyle.StandardPixmap.SP_MediaPause))
            self.timer.start(self._interval())

    def stop(self) -> None:
        self.timer.stop()
        play = self._icon(QStyle.StandardPixmap.SP_MediaPlay)
        if self.play_button.icon().cacheKey() != play.cacheKey():
            self.play_button.setIcon(play)

    def _advance(self) -> None:
        """One step on; after the last step the replay ends on the final state."""
        if self.playback is None:
            self.stop()
            return
        self.state.step_by(1, glide_ms=self.travel_ms())

    def _interval(self) -> int:
        return int(STEP_MS / float(self.speed.currentData()))

    def travel_ms(self) -> int:
        """How long a gradient takes along its edge: most of a step while playing."""
        return int(self._interval() * 0.6) if self.timer.isActive() else STILL_GLIDE_MS

    def _speed_changed(self, _index: int) -> None:
        if self.timer.isActive():
            self.timer.setInterval(self._interval())
