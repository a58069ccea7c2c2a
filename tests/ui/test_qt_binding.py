"""The Qt binding we install does not leak references to None (PySide6 6.12.0 on Python 3.11
aborts with "none_dealloc" after a few thousand calls of Qt methods that return nothing)."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def test_ten_thousand_void_qt_calls_keep_none_alive():
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QPen
    from PySide6.QtWidgets import QApplication, QGraphicsRectItem

    application = QApplication.instance() or QApplication([])
    item = QGraphicsRectItem(0, 0, 10, 10)
    pen = QPen()
    before = sys.getrefcount(None)
    for step in range(10_000):
        item.setPos(QPointF(step % 7, step % 5))
        item.setPen(pen)
    after = sys.getrefcount(None)
    assert after >= before - 100, f"None lost {before - after} references"
    assert application is not None


def test_the_views_modules_are_imported_on_a_thread_only_after_qts_types_are_made(qtbot):
    """PySide6 makes a Qt class's Python type on first use, and two threads doing so at
    once crash the process (seen at launch: pyqtgraph, imported on a thread, reads every name
    of QtWidgets while the UI thread makes types of its own). The window makes them first,
    on the UI thread, between events, and only then starts the import."""
    from PySide6 import QtWidgets

    from playground.model.view_state import ViewState
    from playground.ui import panes

    tabs = panes.TabbedViews(ViewState())
    qtbot.addWidget(tabs)
    tabs.start_importing()
    assert tabs.importing and tabs._importing is None  # types first: no thread yet
    qtbot.waitUntil(lambda: tabs._importing is not None, timeout=30_000)
    lazy = [name for name in dir(QtWidgets) if name not in QtWidgets.__dict__]
    assert lazy == [], f"types still to be made when the thread started: {lazy[:5]}"
    qtbot.waitUntil(lambda: not tabs.importing, timeout=60_000)
