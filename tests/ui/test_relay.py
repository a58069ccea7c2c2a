"""Worker threads hand results to the UI thread through the relay: delivered in order, on the
UI thread, and never by a queued Qt signal carrying Python objects (the freeze it caused)."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal
from shiboken6 import Shiboken

from playground.ui import relay


class _Receiver(QObject):
    result = Signal(int, object)

    def __init__(self) -> None:
        super().__init__()
        self.seen: list = []
        self.result.connect(self._on_result)

    def _on_result(self, number: int, payload) -> None:
        self.seen.append((number, payload, QThread.currentThread() is self.thread()))


def test_results_from_workers_arrive_in_order_on_the_ui_thread(qtbot):
    relay.install()
    receiver = _Receiver()
    payloads = [{"n": n} for n in range(200)]

    def work() -> None:
        for number, payload in enumerate(payloads):
            relay.emit_on_ui_thread(receiver.result, number, payload)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: len(receiver.seen) == 200, timeout=5000)
    assert [n for n, _, _ in receiver.seen] == list(range(200))
    assert all(payload is payloads[n] for n, payload, _ in receiver.seen)
    assert all(on_ui for _, _, on_ui in receiver.seen)


def test_a_deleted_receiver_is_skipped(qtbot):
    relay.install()
    gone = _Receiver()
    kept = _Receiver()
    relay.emit_on_ui_thread(gone.result, 1, None)
    relay.emit_on_ui_thread(kept.result, 2, None)
    Shiboken.delete(gone)  # its C++ object gone before the UI thread gets to it
    qtbot.waitUntil(lambda: bool(kept.seen), timeout=5000)
    assert kept.seen[0][0] == 2


def test_no_worker_emits_a_signal_with_python_arguments_itself():
    """The freeze came from ``signal.emit(...)`` on worker threads: those now go through
    the relay (a regression check over the modules that start threads)."""
    ui = Path(relay.__file__).parent
    threaded = [p for p in ui.glob("*.py") if "threading.Thread(" in p.read_text()]
    assert threaded
    for path in threaded:
        text = path.read_text()
        for function in re.findall(r"def (_\w+|work|ask)\(", text):
            body = text.split(f"def {function}(", 1)[1].split("\n    def ", 1)[0]
            if function in re.findall(r"threading\.Thread\(target=(?:self\.)?(\w+)", text):
                assert ".emit(" not in body.replace("emit_on_ui_thread(", ""), (path, function)


def test_garbage_is_collected_on_the_ui_thread_only(qtbot):
    """Automatic collection is off once a graph view exists (a worker thread collecting a
    cycle of Qt objects froze the window); the UI thread's timer collects when due."""
    import gc

    from playground.ui import gc_timer
    from playground.ui.graph_view import GraphView

    view = GraphView()
    qtbot.addWidget(view)
    assert not gc.isenabled()
    threshold = gc.get_threshold()[0]
    for _ in range(threshold * 2):  # cycles: only the collector frees them
        cycle = []
        cycle.append(cycle)
    assert gc.get_count()[0] > threshold
    qtbot.waitUntil(lambda: gc.get_count()[0] < threshold,
                    timeout=20 * gc_timer.CHECK_MS)


def test_qt_objects_in_cycles_are_freed_on_the_ui_thread_whichever_thread_allocates(qtbot):
    """The deadlock the policy prevents (model/gc_policy.py): a worker thread's allocations
    used to start a collection there, destroying Qt objects off the UI thread. Here a worker
    allocates far past the collector's threshold, and the cycles holding Qt objects are freed
    later, on the UI thread, by its timer."""
    import gc
    import threading

    from PySide6.QtCore import QObject

    from playground.ui import gc_timer

    gc_timer.install()
    freed_on: list[int] = []

    class Holder:
        def __del__(self) -> None:
            freed_on.append(threading.get_ident())

    for _ in range(20):
        holder = Holder()
        holder.qt, holder.cycle = QObject(), holder
    del holder

    def allocate() -> None:
        for _ in range(gc.get_threshold()[0] * 20):
            made = []
            made.append(made)

    worker = threading.Thread(target=allocate)
    worker.start()
    worker.join()
    assert freed_on == []  # nothing collected on the worker
    qtbot.waitUntil(lambda: len(freed_on) == 20, timeout=40 * gc_timer.CHECK_MS)
    assert set(freed_on) == {threading.main_thread().ident}


def test_the_application_hands_results_between_threads_without_pythons_5_ms_wait(qtbot):
    """A result crosses the reader, the runner and the UI thread: make_application shortens
    the switch interval (playground/kernel/switching.py), so that none of them waits 5 ms."""
    import sys

    from playground.kernel.switching import QUICK_SWITCH_S
    from playground.ui.app import make_application

    make_application()
    assert sys.getswitchinterval() == QUICK_SWITCH_S
