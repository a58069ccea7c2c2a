"""Qt's Python types made on the UI thread, a few at a time, before a thread imports modules
that read them all.

PySide6 makes each Qt class's Python type the first time it is used, and two threads doing so
at once corrupt its type tables: a segmentation fault, seen at launch while the views' modules
were imported on their thread (pyqtgraph reads every name of QtCore, QtGui and QtWidgets as it
loads) and the UI thread made a type of its own. Made here first, in slices of a few
milliseconds between events, the names exist when the thread reads them."""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Iterator

from PySide6.QtCore import QObject, QTimer

# what pyqtgraph's import reads or imports (pyqtgraph/Qt/__init__.py)
MODULES = ("PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets", "PySide6.QtSvg",
           "PySide6.QtOpenGLWidgets", "PySide6.QtTest")
SLICE_S = 0.004  # the longest a slice holds the UI thread


def _names() -> Iterator[tuple]:
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:  # (pyqtgraph goes on without it too)
            continue
        for attribute in dir(module):
            yield module, attribute


class TypeMaker(QObject):
    """Makes every type of MODULES on the UI thread, a slice per timer tick, then calls
    ``then`` (once)."""

    def __init__(self, parent: QObject, then: Callable[[], None]) -> None:
        super().__init__(parent)
        self._pending = _names()
        self._then = then
        self.done = False
        self._timer = QTimer(self, interval=0)
        self._timer.timeout.connect(self._slice)
        self._timer.start()

    def _slice(self) -> None:
        ends = time.perf_counter() + SLICE_S
        for module, attribute in self._pending:
            getattr(module, attribute, None)
            if time.perf_counter() > ends:
                return
        self._timer.stop()
        self.done = True
        self._then()
