"""The kernel's memory cap on every OS: a thread that watches the process's resident memory.

The OS caps allocations where it can (see processes.cap_memory); this watchdog is the cap
everywhere, and the only one on macOS. Past the limit during a run it asks the main thread
to raise MemoryError (the run ends with the usual one sentence, the kernel lives on); if the
memory is still over the limit ``grace`` seconds later (code that ignores the interrupt, or
C code that never returns to Python) it ends the kernel.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable

import numpy as np

# A sample every 50 ms: more often, the thread's wake-ups alone slow a busy loop measurably.
INTERVAL_S = 0.05
# ... from this far into a run on: each wake takes the GIL from the script at an odd moment,
# and one or two of them cost a 25 ms run (example 07) 3-5 ms. A run's first fifth of a second
# cannot fault in much (the OS's cap, where there is one, holds from the start).
FIRST_SAMPLE_S = 0.2
GRACE_S = 2.0


@functools.cache
def _this_process(pid: int):
    import psutil

    return psutil.Process(pid)


def resident_bytes() -> int:
    """This process's resident set size (its psutil handle made once: 6 µs a sample, not 15)."""
    return _this_process(os.getpid()).memory_info().rss


class MemoryWatchdog:
    """Samples ``resident()`` every ``interval`` seconds while armed (during a run)."""

    def __init__(self, limit: int, on_over: Callable[[], None], on_stuck: Callable[[], None],
                 resident: Callable[[], int] = resident_bytes,
                 interval: float = INTERVAL_S, grace: float = GRACE_S,
                 first_after: float = FIRST_SAMPLE_S) -> None:
        self.limit, self.interval, self.grace = limit, interval, grace
        self.first_after = first_after
        self._armed_at = 0.0  # when the current run began (time.monotonic)
        self.on_over, self.on_stuck = on_over, on_stuck  # what to do past the limit, and stuck
        self.resident = resident
        self._armed = threading.Event()
        self._over_since: float | None = None

    def start(self) -> None:
        if self.limit > 0:
            threading.Thread(target=self._watch, name="playground-memory", daemon=True).start()

    def arm(self) -> None:
        self._over_since = None
        self._armed_at = time.monotonic()
        self._armed.set()

    def disarm(self) -> None:
        self._armed.clear()

    def _until_next_sample(self) -> float:
        """The run's first sample FIRST_SAMPLE_S after it began, then one an interval."""
        first = self._armed_at + self.first_after - time.monotonic()
        return first if first > 0 else self.interval

    def check(self, now: float) -> None:
        """One sample: ask once when over the limit, end the kernel if it stays over."""
        if not self._armed.is_set():
            self._over_since = None
            return
        if self.resident() <= self.limit:
            self._over_since = None
        elif self._over_since is None:
            self._over_since = now
            self.on_over()
        elif now - self._over_since > self.grace:
            self._armed.clear()
            self.on_stuck()

    def _watch(self) -> None:
        while True:
            self._armed.wait()
            time.sleep(self._until_next_sample())
            if time.monotonic() - self._armed_at < self.first_after:
                continue  # woken for a run that ended, inside a newer one: not yet its turn
            try:
                self.check(time.monotonic())
            except Exception:  # noqa: BLE001 - a failed sample (psutil missing) is no cap,
                return         # never a dead kernel


class MemoryReserve:
    """Memory held back from user code for the kernel's own work after a run.

    A script that fills the memory up to the cap (and keeps it, in its namespace) left the
    kernel no room to build even a small reply: the next run printed, then python aborted
    ("Cannot recover from MemoryError"). The reserve counts against the cap while user code
    runs and is let go while the kernel answers."""

    def __init__(self, size: int = 32 << 20) -> None:
        self.size = size
        self._held: np.ndarray | None = None
        self.take()

    def take(self) -> None:
        """Hold it again (after the answer); where the memory is not there, next time."""
        if self._held is None:
            try:
                # np.empty maps pages it never touches: they count against the cap but cost
                # no resident memory and no time (a bytearray zeroed them, on every run)
                self._held = np.empty(self.size, np.uint8)
            except MemoryError:
                self._held = None

    def release(self) -> None:
        self._held = None
