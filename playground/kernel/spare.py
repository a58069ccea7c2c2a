"""The next fresh run's kernel process, started while the last run's result is looked at.

A run that changed its process (fingerprint.py) has the next fresh run go to a new one; that
one is started as soon as the run's State says so (by the client's reader thread), so that
it is warm when the user runs again. The lock keeps a start from racing a close or a take.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Callable


def discard(process: subprocess.Popen) -> None:
    """End a spare kernel that never ran anything (its pipes closed, the process reaped)."""
    with contextlib.suppress(OSError):
        process.kill()
    process.wait()
    for stream in (process.stdin, process.stdout, process.stderr):
        with contextlib.suppress(OSError):
            stream.close()


class Spare:
    """At most one waiting process; none is started once the kernel is closing."""

    def __init__(self) -> None:
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        self._closing = False

    def open(self) -> None:
        """The kernel (re)started: spares may be started again."""
        with self._lock:
            self._closing = False

    def keep(self, start: Callable[[], subprocess.Popen]) -> None:
        """Start one with ``start()`` unless one is waiting (or the kernel is closing)."""
        with self._lock:
            if self._process is None and not self._closing:
                with contextlib.suppress(OSError):  # none now: the next fresh run starts one
                    self._process = start()

    def take(self) -> subprocess.Popen | None:
        """The waiting process, if it is alive (it is no longer the spare's)."""
        with self._lock:
            process, self._process = self._process, None
        if process is not None and process.poll() is not None:  # it died waiting (memory)
            discard(process)
            return None
        return process

    def end(self, closing: bool = False) -> None:
        """End the waiting process; ``closing``: and start none until ``open``."""
        with self._lock:
            process, self._process = self._process, None
            self._closing = self._closing or closing
        if process is not None:
            discard(process)
