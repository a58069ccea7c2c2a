"""The kernel's sys.stdout and sys.stderr, and the one ordered stream of a run's output.

Everything a run prints reaches the app through one pipe, in the order it was written, as a
terminal shows it: descriptors 1 and 2 of user code (C code, the processes a script starts) are
both that pipe, and Python's sys.stdout and sys.stderr write their text into it too, stderr's
between two markers the kernel chose (``StreamMarkers``), so that the app can colour it and the
CLI can send it to its own stderr. What C code writes to descriptor 2 reads as stdout: two
descriptors could not be kept in order. The pipe is the kernel's stderr, read by the app
itself, so what a crashing kernel wrote last still arrives. A run's end is a marker the app
chose for it.

Each stream is line-buffered, as python's are in a terminal: a line goes out when it ends (so
it never lands torn among what descriptors 1 and 2 carry, and the line printed just before a
segfault is not lost). A partial line goes out when it ends, when the other stream is written
or flushed, when the run ends, and, once it has grown for a tick (``TICK_S``: dots, a progress
bar), at the flusher thread's ticks; python in a terminal shows it no sooner. In a flood (over
FLOOD_LINES lines a tick) whole lines go out once a tick instead, so a descriptor write may then
overtake printed lines, never split one. The flusher sleeps until a stream needs its ticks: a
thread that woke every tick (or at every print(), whose words are partial writes) cost a 25 ms
run of small ops 3-5 ms, each wake taking the GIL from the script at an odd moment. A write to
one stream first sends what the other holds.
A thread left running by an earlier script is "retired" when a fresh run starts: what it prints
afterwards is dropped, never shown as the new run's output.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from os import write as _write  # bound at start: a script may replace os.write

TICK_S = 0.02
FLOOD_LINES = 100
FLOOD_BUFFER = 1 << 20  # a tick's worth of a flood of lines (~70 kB measured)
FDS = {"stdout": 1, "stderr": 2}
# Threads of earlier scripts, whose output a fresh run does not show.
_retired: weakref.WeakSet = weakref.WeakSet()
_retiring = False  # whether any were retired (a fast check: print() writes twice a line)
_send: Callable[[str, bytes], None] = lambda _stream, _data: None  # noqa: E731 - set by install
# Writes up to this size reach a pipe whole, never interleaved with another process's.
ATOMIC_WRITE = 4096


@dataclass(frozen=True)
class StreamMarkers:
    """The bytes that open and close sys.stderr's text in the output pipe: NUL-delimited
    and random, so that no ordinary output contains them."""

    begin: bytes
    end: bytes

    @classmethod
    def new(cls) -> StreamMarkers:
        token = os.urandom(8).hex()
        return cls(f"\0{token}<\0".encode(), f"\0{token}>\0".encode())

    def to_json(self) -> list[str]:
        return [self.begin.decode(), self.end.decode()]

    @classmethod
    def from_json(cls, data) -> StreamMarkers | None:
        """The markers a kernel announced; None for anything else (no stderr is told apart)."""
        if not isinstance(data, list) or len(data) != 2 or not all(
                isinstance(part, str) and len(part) > 2 for part in data):
            return None
        return cls(data[0].encode(), data[1].encode())


def write_output(fd: int, markers: StreamMarkers, stream: str, data: bytes) -> None:
    """``data`` of ``stream`` into the output pipe; stderr's in pieces that each reach the
    pipe whole with their markers (another process's write never lands inside one)."""
    if stream != "stderr":
        _write_all(fd, data)
        return
    room = ATOMIC_WRITE - len(markers.begin) - len(markers.end)
    for start in range(0, len(data), room):
        _write_all(fd, markers.begin + data[start:start + room] + markers.end)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[_write(fd, view):]


class _PipeWriter(io.RawIOBase):
    """The bytes of one stream, written into the output pipe. Its file descriptor is the
    OS-level one, for code that asks."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.name_of_stream = name

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return FDS[self.name_of_stream]

    def write(self, data) -> int:
        _send(self.name_of_stream, bytes(data))
        return len(data)


class LineStream(io.TextIOWrapper):
    """A text stream into the output pipe, written out at the end of each line, as python's
    are in a terminal; a partial line goes out when the stream has been idle for a tick.
    In a flood (more than FLOOD_LINES lines a tick) whole lines go out once a tick: a write
    per line made a million-line print 2.5x as slow. The buffer is large enough that it
    never fills within a tick, which would split a line."""

    def __init__(self, name: str) -> None:
        super().__init__(io.BufferedWriter(_PipeWriter(name), FLOOD_BUFFER),
                         encoding="utf-8", errors="backslashreplace")
        self.held = False         # written, not yet sent
        self.ends_line = True     # the last write ended a line
        self.lines = 0            # lines ended since the last tick (or counted_since)
        self.counted_since = time.monotonic()  # when ``lines`` began counting (no ticks)
        self.partial_since = 0.0  # when the partial line held began
        self.flooding = False
        self.partner: LineStream | None = None  # the other stream, sent first

    def write(self, text: str) -> int:
        if _retiring and threading.current_thread() in _retired:
            return len(text)
        partner = self.partner
        if partner is not None and partner.held:
            with contextlib.suppress(OSError, ValueError):
                partner.flush()
        written = super().write(text)
        if "\n" not in text:
            if self.ends_line:  # a new line begins (print's first word)
                self.partial_since = time.monotonic()
            elif time.monotonic() - self.partial_since > TICK_S:
                _wake_flusher()  # a line that grows for a tick (dots, a progress bar)
            self.held, self.ends_line = True, False
            return written
        self.lines += 1  # (print() writes its end on its own: one line)
        self.ends_line = text[-1] == "\n"
        if not self.flooding and self.lines > FLOOD_LINES:
            self._count_flood()
        if self.flooding:
            self.held = True
            _wake_flusher()
        else:  # python's line buffering: a write holding a newline is sent
            self.flush()
        return written

    def _count_flood(self) -> None:
        """More than FLOOD_LINES lines: a flood if they came within a tick, else the count
        starts again (the flusher, asleep, does not count ticks)."""
        now = time.monotonic()
        if now - self.counted_since <= TICK_S:
            self.flooding = True
        else:
            self.lines, self.counted_since = 1, now

    def flush(self) -> None:
        self.held = False
        super().flush()

    def tick(self) -> bool:
        """The flusher's call: whole lines held in a flood, or a partial line left idle;
        whether the stream still needs ticks."""
        idle = self.lines == 0
        self.flooding, self.lines = self.lines > FLOOD_LINES, 0
        if self.held and (self.ends_line or idle) and not self.closed:
            self.flush()
        return self.waiting()

    def waiting(self) -> bool:
        """Whether it holds text or floods (the flusher must tick)."""
        return self.held or self.flooding


def install(send: Callable[[str, bytes], None]) -> None:
    """Replace sys.stdout/sys.stderr with streams that ``send(stream, data)``, start the
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


def reopen(name: str) -> LineStream:
    """A new stream for ``name`` (user code closed the old one), paired with the other."""
    stream = LineStream(name)
    other = getattr(sys, "stderr" if name == "stdout" else "stdout", None)
    if isinstance(other, LineStream):
        stream.partner, other.partner = other, stream
    return stream


def flush_all() -> None:
    for stream in (sys.stdout, sys.stderr):
        # closed by user code, or replaced by an object without flush()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            stream.flush()


def retire_threads() -> None:
    """Drop from now on what the threads running now print (the kernel's own excepted)."""
    global _retiring
    _retired.clear()
    main = threading.main_thread()
    _retired.update(thread for thread in threading.enumerate()
                    if thread is not main and not thread.name.startswith("playground-"))
    _retiring = bool(_retired)


class OutputScanner:
    """Splits the output pipe's text, read in chunks that may split a marker, into stdout
    and stderr pieces, and finds a run's end-of-output marker."""

    def __init__(self) -> None:
        self.held = ""  # the start of what may be a marker, kept for the next chunk
        self.stream = "stdout"

    def feed(self, text: str, markers: StreamMarkers | None,
             end: str) -> tuple[list[tuple[str, str]], bool]:
        """The pieces before the end marker as (stream, text), and whether it was found
        (what follows it is dropped: nobody waits for it)."""
        text, self.held = self.held + text, ""
        switches = {} if markers is None else {markers.begin.decode(): "stderr",
                                               markers.end.decode(): "stdout"}
        pieces: list[tuple[str, str]] = []
        while text:
            at, found = self._first_marker(text, [*switches, end] if end else list(switches))
            if found is None:
                text = self._hold_partial(text, [*switches, end])
                if text:
                    pieces.append((self.stream, text))
                return pieces, False
            if at:
                pieces.append((self.stream, text[:at]))
            text = text[at + len(found):]
            if found == end:
                self.stream = "stdout"
                return pieces, True
            self.stream = switches[found]
        return pieces, False

    @staticmethod
    def _first_marker(text: str, markers: list[str]) -> tuple[int, str | None]:
        best, found = len(text), None
        for marker in markers:
            at = text.find(marker)
            if 0 <= at < best:
                best, found = at, marker
        return best, found

    def _hold_partial(self, text: str, markers: list[str]) -> str:
        """Keep back a tail that may be the start of a marker; return the rest."""
        start = text.rfind("\0")
        if start >= 0 and any(m and m.startswith(text[start:]) for m in markers):
            text, self.held = text[:start], text[start:]
        return text


def mark_end(fd: int, marker: str) -> None:
    """Write the run's end-of-output marker (the caller flushed the streams)."""
    if marker:
        with contextlib.suppress(OSError):  # the app is gone
            _write_all(fd, marker.encode("utf-8"))


_flusher_due = threading.Event()  # set while a stream holds text or floods


def _wake_flusher() -> None:
    if not _flusher_due.is_set():
        _flusher_due.set()


def _flush_forever() -> None:
    while True:
        _flusher_due.wait()
        time.sleep(TICK_S)
        if not any([_ticked(stream) for stream in (sys.stdout, sys.stderr)]):
            _flusher_due.clear()
            # a write between the ticks and the clear found the event set: look again
            if any(isinstance(s, LineStream) and s.waiting() for s in (sys.stdout, sys.stderr)):
                _flusher_due.set()


def _ticked(stream) -> bool:
    """Tick ``stream`` if it is one of ours; whether it needs more ticks."""
    if not isinstance(stream, LineStream):
        return False
    with contextlib.suppress(OSError, ValueError):  # closed by user code meanwhile
        return stream.tick()
    return False


# characters of a run's output kept in its RunResult; the rest is still streamed, then dropped
OUTPUT_LIMIT = 1 << 20


class RunOutput:
    """Collects streamed output up to ``limit`` characters and passes every chunk on.

    The kernel ends each run's output with ``marker``; seeing it, the parent knows it has
    every byte the run wrote before it hands the result on.
    """

    def __init__(self, on_output: Callable[[str, str], None] | None,
                 limit: int = OUTPUT_LIMIT) -> None:
        self.limit = limit
        self.marker = f"\0end of run {os.urandom(8).hex()}\0"
        self.ended = threading.Event()
        self.on_output = on_output
        self.parts: list[str] = []
        self.size = 0
        self.truncated = False
        self.lock = threading.Lock()

    def add(self, stream: str, text: str) -> None:
        if not text:
            return
        with self.lock:
            if self.on_output is not None:
                self.on_output(stream, text)
            if self.size + len(text) > self.limit:
                text = text[: max(0, self.limit - self.size)]
                self.truncated = True
            self.parts.append(text)
            self.size += len(text)
