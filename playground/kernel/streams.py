"""The kernel's stdout and stderr: written at once when output is sparse, batched when it floods.

Unbuffered, a script printing 10^6 lines makes 2·10^6 system calls (seconds); fully buffered, the
line printed just before a segfault is lost. A write goes straight out when the stream has been
quiet for a tick of the flusher thread (``TICK_S``); while output keeps coming it is left to that
thread, so a flood costs a few hundred writes and the user still sees what came before a crash.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import time

TICK_S = 0.02
BUFFER_SIZE = 1 << 16


class BatchedStream(io.TextIOWrapper):
    """A text stream on a file descriptor, flushed at once when quiet and every tick when busy."""

    def __init__(self, fd: int) -> None:
        super().__init__(io.BufferedWriter(io.FileIO(fd, "w", closefd=False), BUFFER_SIZE),
                         encoding="utf-8", errors="backslashreplace")
        self.quiet = True   # nothing was written during the flusher's last tick
        self.dirty = False  # written since the last flush

    def write(self, text: str) -> int:
        written = super().write(text)
        if self.quiet:  # kept cheap: print() calls this twice per line
            self.quiet = False
            super().flush()
        else:
            self.dirty = True
        return written

    def tick(self) -> None:
        """The flusher's call: write what is waiting, or note that the stream went quiet."""
        if self.dirty:
            self.dirty = False
            if not self.closed:
                super().flush()
        else:
            self.quiet = True


def install() -> tuple[BatchedStream, BatchedStream]:
    """Replace sys.stdout/sys.stderr, start the flusher, and make os._exit flush first."""
    sys.stdout, sys.stderr = BatchedStream(1), BatchedStream(2)
    threading.Thread(target=_flush_forever, daemon=True).start()
    real_exit = os._exit

    def exit_after_flushing(status: int) -> None:
        flush_all()
        real_exit(status)

    os._exit = exit_after_flushing
    return sys.stdout, sys.stderr


def flush_all() -> None:
    for stream in (sys.stdout, sys.stderr):
        # closed by user code, or replaced by an object without flush()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()


def mark_end(marker: str) -> None:
    """Write the run's end-of-output marker on both streams, after all they hold."""
    flush_all()
    if not marker:
        return
    data = marker.encode("utf-8")
    for fd in (1, 2):
        with contextlib.suppress(OSError):  # user code closed the descriptor: no marker
            os.write(fd, data)


def _flush_forever() -> None:
    while True:
        time.sleep(TICK_S)
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, BatchedStream):
                # closed by user code between the check and now
                with contextlib.suppress(OSError, ValueError):
                    stream.tick()
