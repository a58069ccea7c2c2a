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
