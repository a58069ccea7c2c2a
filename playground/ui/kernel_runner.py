"""Runs code in the kernel off the UI thread and reports back through Qt signals.

Starting a kernel (torch: seconds), restarting it and switching engines happen off the UI
thread too: the window keeps painting, and a run asked for meanwhile waits for the kernel.
"""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from playground.engines.registry import DEFAULT_ENGINE, entry
from playground.kernel.client import Kernel, KernelError
from playground.model import RunError, RunResult
from playground.ui.relay import emit_on_ui_thread

# How long Run waits for the request to be on its way before the window goes on: a kernel
# that must be started first (seconds) is not waited for.
SEND_WAIT_S = 0.005


class KernelRunner(QObject):
    """Owns the kernel; ``run`` returns at once, ``finished`` carries the RunResult."""

    output = Signal(str, str)
    finished = Signal(object)
    started = Signal()
    starting = Signal(str)   # "Starting torch…": a kernel is on its way
    ready = Signal(str)      # its description: the kernel (re)started
    failed = Signal(str)     # why it could not start; the engine before it runs again
    traces = Signal(str, object)  # (run id, [BackwardTrace]): its backward calls, after it
    pictures = Signal(object)  # DrawnFigures: a run's figures, drawn after its result
    vectors = Signal(str, object)  # (run id, [[number, svg, why], ...]): figures' SVGs, later
    _start_ended = Signal(object)  # a start's error or None, told on the UI thread

    def __init__(self, engine: str = DEFAULT_ENGINE, device: str = "auto",
                 background: bool = False, launched: subprocess.Popen | None = None) -> None:
        super().__init__()
        self.kernel = Kernel(engine, device, autostart=not background)
        self.kernel.later.on_traces = lambda run_id, traces: emit_on_ui_thread(
            self.traces, run_id, traces)
        self.kernel.later.on_pictures = lambda drawn: emit_on_ui_thread(self.pictures, drawn)
        self.kernel.later.on_vectors = lambda run_id, figures: emit_on_ui_thread(
            self.vectors, run_id, figures)
        self._thread: threading.Thread | None = None
        self._running = False
        self._jobs = 0  # kernel starts/restarts/switches queued or under way
        self._jobs_lock = threading.Lock()
        # One thing at a time on the kernel: a run, a start, a restart or a switch.
        self._lifecycle = threading.Lock()
        self._waiting_run: tuple | None = None
        self._stop = threading.Event()  # the Stop of the run going now
        self._starters: list[threading.Thread] = []
        self._closed = False  # signals queued before close() must not start anything after
        self.figure_scale = 1.0  # the screen's device pixel ratio: matplotlib figures' PNGs
        self.ready.connect(self._run_waiting)
        self.failed.connect(self._run_waiting)
        self._start_ended.connect(self._count_start_ended)
        if background:
            self._in_background(lambda: self.kernel.start(launched),
                                f"Starting the {self._name(engine)} engine…")

    @property
    def busy(self) -> bool:
        # Not the thread's liveness: the thread is still returning when the UI thread gets
        # ``finished``, and a run started from that slot must not be refused.
        return self._running or self._waiting_run is not None

    @property
    def is_starting(self) -> bool:
        return self._jobs > 0

    def run(self, code: str, filename: str, fresh: bool = True, cell: bool = False) -> bool:
        """Start a run unless one is going (False); while a kernel starts, it waits for it."""
        if self.busy or self._closed:
            return False
        self.started.emit()
        if self.is_starting:
            self._waiting_run = (code, filename, fresh, cell)
            return True
        self._launch(code, filename, fresh, cell)
        return True

    def _launch(self, code: str, filename: str, fresh: bool, cell: bool = False) -> None:
        self._running = True
        self._stop = threading.Event()  # this run's Stop, whenever it comes
        sent = threading.Event()
        self._thread = threading.Thread(target=self._work,
                                        args=(code, filename, fresh, cell, self._stop, sent),
                                        daemon=True)
        self._thread.start()
        # the request first: the window's own work for the run (the console, a paint) would
        # otherwise hold the interpreter while the run's thread waits to send it (3-4 ms)
        sent.wait(SEND_WAIT_S)

    def _run_waiting(self, _text: str = "") -> None:
        if self._closed or self.kernel.process is None:
            return  # no kernel at all (its engine failed to start): the window picks another
        waiting, self._waiting_run = self._waiting_run, None
        if waiting is not None:
            self._launch(*waiting)

    def _work(self, code: str, filename: str, fresh: bool, cell: bool,
              stop: threading.Event, sent: threading.Event) -> None:
        try:
            with self._lifecycle:
                result = self.kernel.run(
                    code, filename, fresh, cell=cell, stop=stop, figure_scale=self.figure_scale,
                    later=True, sent=sent,
                    on_output=lambda stream, text: emit_on_ui_thread(self.output, stream, text))
        except (KernelError, OSError) as error:
            result = RunResult(self.kernel.engine, error=RunError("crash", str(error)))
        except Exception as error:  # noqa: BLE001 - never leave the window "Running…"
            result = RunResult(self.kernel.engine, error=RunError(
                "crash", f"The run could not be completed: {type(error).__name__}: {error}"))
        self._running = False
        emit_on_ui_thread(self.finished, result)

    def stop(self) -> None:
        if self._waiting_run is not None:  # it never started: nothing to interrupt
            self._waiting_run = None
            self.finished.emit(RunResult(self.kernel.engine, error=RunError(
                "interrupted", "The run was interrupted.")))
            return
        self._stop.set()  # the run's thread interrupts it once it is sent, if not yet
        self.kernel.interrupt()

    # ----- kernels off the UI thread ------------------------------------------------------------
    def restart(self) -> None:
        """A clean kernel on the same engine, started in the background."""
        self._in_background(self.kernel.restart,
                            f"Restarting the {self._name(self.kernel.engine)} engine…")

    def switch_in_background(self, engine: str, device: str = "auto") -> None:
        """Restart on another engine; ``ready`` or ``failed`` says how it went."""
        self._in_background(lambda: self.kernel.switch(engine, device),
                            f"Starting the {self._name(engine)} engine…")

    def _in_background(self, job: Callable[[], None], message: str) -> None:
        """Run ``job`` after whatever the kernel is doing (a run is interrupted first)."""
        if self._closed:
            return
        with self._jobs_lock:
            self._jobs += 1
        self.starting.emit(message)
        if self._running:
            self.kernel.interrupt()

        def work() -> None:
            error = None
            with self._lifecycle:
                try:
                    if not self._closed:  # queued before the window closed: nothing to do
                        job()
                except (KernelError, OSError) as failure:
                    error = str(failure)
            emit_on_ui_thread(self._start_ended, error)

        starter = threading.Thread(target=work, daemon=True, name="kernel-start")
        self._starters = [*(t for t in self._starters if t.is_alive()), starter]
        starter.start()

    def _count_start_ended(self, error: str | None) -> None:
        """A start is over: it counts as starting until the window has been told, so that
        nothing waiting on ``is_starting`` acts before ``ready`` has been shown."""
        with self._jobs_lock:
            self._jobs -= 1
            last = self._jobs == 0
        if error is not None:
            self.failed.emit(error)
        elif last:  # the kernel the user asked for last
            self.ready.emit(self.kernel.description)

    @staticmethod
    def _name(engine: str) -> str:
        return entry(engine).noun

    def close(self) -> None:
        self._closed = True
        self._waiting_run = None
        for starter in self._starters:
            starter.join(timeout=30)  # a kernel half started would outlive the window
        if self._thread is not None and self._thread.is_alive():
            self.kernel.interrupt()
            self._thread.join(timeout=3)
        with self._lifecycle:  # every queued start and the run have finished
            self.kernel.close()
