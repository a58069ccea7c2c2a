"""Python's cyclic garbage collection, run on the UI thread only.

Left to itself the collector runs in whichever thread happens to allocate, and a cycle that
holds Qt objects (an old plot's menus) is then destroyed on a worker thread: its C++
destructor takes Qt's connection locks and waits there for the GIL, while the UI thread,
holding the GIL, waits for those locks to connect a signal. The window freezes for good (seen
in a test run: a layout thread collecting a pyqtgraph PlotItem while the UI thread made a new
one). So automatic collection is switched off and a timer on the UI thread collects each
generation when its count passes its threshold, as the automatic collector would."""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QTimer

from playground.model import collector

CHECK_MS = 100  # how often the UI thread looks: a young collection costs well under 1 ms

_timer: QTimer | None = None


def install() -> None:
    """Switch automatic collection off and collect on the UI thread instead (once)."""
    global _timer
    application = QCoreApplication.instance()
    if _timer is not None or application is None:
        return
    gc.disable()
    _timer = QTimer(application, interval=CHECK_MS)
    _timer.timeout.connect(collect_due)
    _timer.start()


def collect_due() -> None:
    """Each generation whose count passed its threshold, collected here (none while a large
    result is being built: model/collector.py pauses collection then)."""
    if collector.is_paused():
        return
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):  # the oldest due one: collecting it collects the younger
        if counts[generation] > thresholds[generation]:
            gc.collect(generation)
            return
