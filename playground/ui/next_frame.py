"""Work that can wait one frame: done once the window's next paint pass is over, so that what
a person waits for after Run (the graph, the console) reaches the screen first.

A paint pass paints every widget that changed before the screen shows any of them: a view
that updates with the graph (the plots take as long to paint as the rest of the window
together) holds the graph's frame back. Such a view asks for its update here instead, and
is painted in the pass after."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QWidget
from shiboken6 import isValid

# With nothing to paint no pass comes: the work is done after this long anyway (a frame).
NO_PASS_MS = 16


class _AfterPaint(QObject):
    """The calls waiting for one window's next paint pass, each once (a newer call of the
    same key replaces one not yet made)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._calls: dict[object, tuple[QObject, Callable[[], None]]] = {}
        self._no_pass = QTimer(self, singleShot=True, interval=NO_PASS_MS)
        self._no_pass.timeout.connect(self._call)
        window.installEventFilter(self)

    def add(self, key: object, owner: QObject, call: Callable[[], None]) -> None:
        self._calls[key] = (owner, call)
        if not self._no_pass.isActive():
            self._no_pass.start()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        # the window's paint pass is delivered as this event: a call queued now is made
        # once the pass (and its flush to the screen) is over
        if event.type() == QEvent.Type.UpdateRequest and self._calls:
            QTimer.singleShot(0, self, self._call)  # (none, if the window goes first)
        return False

    def _call(self) -> None:
        self._no_pass.stop()
        calls, self._calls = self._calls, {}
        for owner, call in calls.values():
            if isValid(owner):  # (a view deleted meanwhile is not called)
                call()


def after_next_frame(widget: QWidget, key: object, call: Callable[[], None]) -> None:
    """``call()`` once the window of ``widget`` has painted its next frame; at once when the
    window is not on screen (nothing is painted, nothing need wait)."""
    window = widget.window()
    if not window.isVisible():
        call()
        return
    follower = window.findChild(_AfterPaint, options=Qt.FindChildOption.FindDirectChildrenOnly)
    if follower is None:
        follower = _AfterPaint(window)
    follower.add(key, widget, call)
