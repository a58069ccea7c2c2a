"""The kernel's sys.stdout and sys.stderr: frames sent at once when sparse, batched in floods.

Unbuffered, a script printing 10^6 lines makes 2·10^6 sends (seconds); fully buffered, the line
printed just before a segfault is lost. A write goes straight out when the stream has been quiet
for a tick of the flusher thread (``TICK_S``); while output keeps coming it is left to that
thread, so a flood costs a few hundred frames and the user still sees what came before a crash.
Both streams go out as frames on the one control pipe, and a write to one first sends what the
other holds: the app gets stdout and stderr in the order the script wrote them.
A thread left running by an earlier script is "retired" when a fresh run starts: what it prints
afterwards is dropped, never shown as the new run's output.
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable

TICK_S = 0.02
BUFFER_SIZE = 1 << 16
FDS = {"stdout": 1, "stderr": 2}
# Threads of earlier scripts, whose output a fresh run does not show.
_retired: weakref.WeakSet = weakref.WeakSet()
_send: Callable[[str, str], None] = lambda _stream, _text: None  # noqa: E731 - set by install


class _FrameWriter(io.RawIOBase):
    """The bytes of one stream, sent as text (a character split between writes is kept
    until its end comes). Its file descriptor is the OS-level one, for code that asks."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name_of_stream = name
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return FDS[self.name_of_stream]

    def write(self, data) -> int:
        text = self.decoder.decode(bytes(data))
        if text:
            _send(self.name_of_stream, text)
        return len(data)


class BatchedStream(io.TextIOWrapper):
    """A text stream sending frames, flushed at once when quiet and every tick when busy."""

    def __init__(self, name: str) -> None:
        super().__init__(io.BufferedWriter(_FrameWriter(name), BUFFER_SIZE),
                         encoding="utf-8", errors="backslashreplace")
        self.quiet = True   # nothing was written during the flusher's last tick
        self.dirty = False  # written since the last flush
        self.partner: BatchedStream | None = None  # the other stream, sent first

    def write(self, text: str) -> int:
        if _retired and threading.current_thread() in _retired:
            return len(text)
        partner = self.partner
        if partner is not None and partner.dirty:
            partner.dirty = False
            with contextlib.suppress(OSError, ValueError):
                partner.flush()
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


def install(send: Callable[[str, str], None]) -> None:
    """Replace sys.stdout/sys.stderr with streams that ``send(stream, text)``, start the
    flusher, and make os._exit flush first."""
    global _send
    _send = send
    sys.stdout = reopen("stdout")
    sys.stderr = reopen("stderr")
    threading.Thread(target=_flush_forever, name="playground-flusher", daemon=True).start()
    real_exit = os._exit

    def exit_after_flushing(status: int) -> None:
        flush_all()
        real_exit(status)

    os._exit = exit_after_flushing


def reopen(name: str) -> BatchedStream:
    """A new stream for ``name`` (user code closed the old one), paired with the other."""
    stream = BatchedStream(name)
    other = getattr(sys, "stderr" if name == "stdout" else "stdout", None)
    if isinstance(other, BatchedStream):
        stream.partner, other.partner = other, stream
    return stream


def flush_all() -> None:
    for stream in (sys.stdout, sys.stderr):
        # closed by user code, or replaced by an object without flush()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()


def retire_threads() -> None:
    """Drop from now on what the threads running now print (the kernel's own excepted)."""
    _retired.clear()
    main = threading.main_thread()
    _retired.update(thread for thread in threading.enumerate()
                    if thread is not main and not thread.name.startswith("playground-"))


class EndScanner:
    """Finds a run's end-of-output marker in text read in chunks that may split it."""

    def __init__(self) -> None:
        self.held = ""  # the start of what may be the marker, kept for the next chunk

    def feed(self, text: str, marker: str) -> tuple[str, bool]:
        """The text before and after the marker (the marker removed), and whether it was
        found."""
        text, self.held = self.held + text, ""
        if not marker:
            return text, False
        at = text.find(marker)
        if at >= 0:
            return text[:at] + text[at + len(marker):], True
        start = text.rfind(marker[0])
        if start >= 0 and marker.startswith(text[start:]):
            text, self.held = text[:start], text[start:]
        return text, False


def mark_end(marker: str) -> None:
    """Write the run's end-of-output marker on stderr (the caller flushed the streams)."""
    if marker:
        with contextlib.suppress(OSError):  # user code closed the descriptor: no marker
            os.write(2, marker.encode("utf-8"))


def _flush_forever() -> None:
    while True:
        time.sleep(TICK_S)
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, BatchedStream):
                # closed by user code between the check and now
                with contextlib.suppress(OSError, ValueError):
                    stream.tick()
