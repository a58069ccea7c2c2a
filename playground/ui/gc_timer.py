"""The UI thread's timer that collects garbage in the window (policy and reasons:
model/gc_policy.py)."""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QTimer

from playground.model import gc_policy

CHECK_MS = 100  # how often the UI thread looks: a young collection is far cheaper than a frame

_timer: QTimer | None = None


def install() -> None:
    """Switch automatic collection off and collect on the UI thread instead (once)."""
    global _timer
    application = QCoreApplication.instance()
    if _timer is not None or application is None:
        return
    gc.disable()
    _timer = QTimer(application, interval=CHECK_MS)
    _timer.timeout.connect(gc_policy.collect_due)
    _timer.start()
