"""The runner's hand-over to the kernel: Run returns once the request is on its way, so the
window's own work for the run (the console, a paint) never delays the kernel's start."""

from __future__ import annotations

import threading
import time
import types

from playground.model import RunResult
from playground.ui import kernel_runner
from playground.ui.kernel_runner import KernelRunner


class SlowToSend:
    """A kernel whose request takes a few milliseconds to go out, then runs until released."""

    def __init__(self, *_arguments, **_options) -> None:
        self.engine, self.process = "numpy", object()
        self.later = types.SimpleNamespace()
        self.sent_at: float | None = None
        self.release = threading.Event()

    def run(self, code, filename, fresh, cell=False, stop=None, figure_scale=1.0, later=False,
            on_output=None, sent=None) -> RunResult:
        time.sleep(0.002)  # (writing the request)
        self.sent_at = time.perf_counter()
        sent.set()
        self.release.wait(5)
        return RunResult("numpy")


def test_run_returns_once_the_request_is_sent_and_the_result_still_comes(qtbot, monkeypatch):
    monkeypatch.setattr(kernel_runner, "Kernel", SlowToSend)
    runner = KernelRunner()
    assert runner.run("print(1)", "script.py")
    returned = time.perf_counter()
    kernel = runner.kernel
    assert kernel.sent_at is not None and kernel.sent_at <= returned
    with qtbot.waitSignal(runner.finished, timeout=5000) as finished:
        kernel.release.set()
    assert isinstance(finished.args[0], RunResult) and not runner.busy
