"""Runs code in the kernel off the UI thread and reports back through Qt signals."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal

from playground.kernel.client import Kernel, KernelError
from playground.model import RunError, RunResult


class KernelRunner(QObject):
    """Owns the kernel; ``run`` returns at once, ``finished`` carries the RunResult."""

    output = Signal(str, str)
    finished = Signal(object)
    started = Signal()
    engine_changed = Signal(str)

    def __init__(self, engine: str = "numpy", device: str = "auto") -> None:
        super().__init__()
        self.kernel = Kernel(engine, device)
        self._thread: threading.Thread | None = None
        self._running = False

    @property
    def busy(self) -> bool:
        # Not the thread's liveness: the thread is still returning when the UI thread gets
        # ``finished``, and a run started from that slot must not be refused.
        return self._running

    def run(self, code: str, filename: str, fresh: bool = True) -> bool:
        """Start a run unless one is going; False when busy."""
        if self.busy:
            return False
        self.started.emit()
        self._running = True
        self._thread = threading.Thread(target=self._work, args=(code, filename, fresh),
                                        daemon=True)
        self._thread.start()
        return True

    def _work(self, code: str, filename: str, fresh: bool) -> None:
        try:
            result = self.kernel.run(code, filename, fresh,
                                     on_output=lambda stream, text: self.output.emit(stream, text))
        except (KernelError, OSError) as error:
            result = RunResult(self.kernel.engine, error=RunError("crash", str(error)))
        self._running = False
        self.finished.emit(result)

    def stop(self) -> None:
        self.kernel.interrupt()

    def switch(self, engine: str, device: str = "auto") -> str:
        """Restart on another engine; returns its description (raises KernelError)."""
        self.kernel.switch(engine, device)
        self.engine_changed.emit(self.kernel.description)
        return self.kernel.description

    def close(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            self.kernel.interrupt()
            self._thread.join(timeout=3)
        self.kernel.close()
