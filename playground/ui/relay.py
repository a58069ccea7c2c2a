"""Hands a worker thread's results to the UI thread without queuing Python objects in Qt.

A signal emitted on a worker thread with Python arguments is queued by Qt, which copies each
argument while it holds the sender's connection lock; PySide's copy takes the GIL. The UI
thread holds the GIL whenever it runs Python, and a call such as ``setHtml`` connects
signals inside, taking connection locks (Qt shares a small pool of them between all
objects). When the two meet, each waits for the other forever: the window freezes. So workers
put their results in a plain queue and wake the UI thread with a signal that carries nothing;
the UI thread emits the real signal itself."""

from __future__ import annotations

import queue

from PySide6.QtCore import QCoreApplication, QObject, Signal, SignalInstance


class _Relay(QObject):
    wake = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._pending: queue.SimpleQueue = queue.SimpleQueue()
        self.wake.connect(self._deliver)

    def post(self, signal: SignalInstance, arguments: tuple) -> None:
        self._pending.put((signal, arguments))
        self.wake.emit()

    def _deliver(self) -> None:
        while True:
            try:
                signal, arguments = self._pending.get_nowait()
            except queue.Empty:
                return
            try:
                signal.emit(*arguments)
            except RuntimeError:  # its object was deleted meanwhile (the window closed)
                continue


_relay: _Relay | None = None


def install() -> None:
    """Make the relay on the UI thread (before any worker needs it)."""
    global _relay
    if _relay is None:
        _relay = _Relay()
        application = QCoreApplication.instance()
        if application is not None and _relay.thread() is not application.thread():
            _relay.moveToThread(application.thread())


def emit_on_ui_thread(signal: SignalInstance, *arguments) -> None:
    """``signal.emit(*arguments)``, done by the UI thread; safe to call from any thread."""
    install()
    _relay.post(signal, arguments)
