"""The kernel's end of its pipes, the same on every OS: requests on stdin, replies on stdout,
the user's output on stderr.

At start the kernel keeps private copies of its stdin and stdout for the control channel, and
of its stderr for output, at random high descriptor numbers (a script that writes garbage to
descriptors 3-63 or closes a range of them misses them), and gives user code other
descriptors 0-2: 0 reads an empty file
(``input()`` ends at once, as before), 1 and 2 are both the process's stderr pipe, which the
app reads itself: what a run prints arrives in the order it was written, and the last words of
a crashing process still reach the app. Python's sys.stdout and sys.stderr write into the same
pipe (streams.py). Nothing user code does to descriptors 0-2 reaches the control channel, and
they are put back before every run.

A second thread reads requests: Stop is answered at once from that thread (the main thread
is busy running user code), a closed stdin means the app is gone and the kernel ends.
"""

from __future__ import annotations

import contextlib
import errno
import os
import queue
import threading
from collections.abc import Callable

from playground.kernel import processes, protocol, streams, wire

# The kernel's exit status when a script closed its own pipes (``os.closerange(3, ...)``): it
# can no longer hear the app or answer it; the app says so in one sentence.
PIPES_CLOSED_STATUS = 112


class KernelChannel:
    """Control frames in and out, and the user's output into one ordered pipe."""

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.control_in = processes.hidden_copy(0)
        self.control_out = processes.hidden_copy(1)
        self.output = processes.hidden_copy(2)
        self.markers = streams.StreamMarkers.new()
        empty = os.open(os.devnull, os.O_RDONLY)
        self._stdio = {0: processes.hidden_copy(empty), 1: processes.hidden_copy(2),
                       2: processes.hidden_copy(2)}
        os.close(empty)
        self.restore_stdio()
        self.requests: queue.Queue = queue.Queue()
        self._send_lock = threading.Lock()
        # A stderr piece and its markers go out whole, between any two stdout writes.
        self._output_lock = threading.Lock()

    def start(self, on_interrupt: Callable[[str], None],
              on_app_gone: Callable[[int], None]) -> None:
        """``on_app_gone(status)``: the app closed the pipe (0), or a script did
        (PIPES_CLOSED_STATUS)."""
        threading.Thread(target=self._read_requests, args=(on_interrupt, on_app_gone),
                         name="playground-requests", daemon=True).start()

    def restore_stdio(self) -> None:
        """Descriptors 0-2 as the kernel set them up, whatever user code closed or replaced."""
        for fd, kept in self._stdio.items():
            with contextlib.suppress(OSError):
                os.dup2(kept, fd)
        processes.point_std_handles(self.platform)

    def send(self, message: protocol.Message) -> None:
        self.send_frame(wire.encode(message.to_wire()))

    def send_frame(self, frame: bytes) -> None:
        with self._send_lock:  # the main thread and the watchdog
            wire.send_frame(self.control_out, frame)

    def send_output(self, stream: str, data: bytes) -> None:
        """What the running script printed through sys.stdout or sys.stderr."""
        with self._output_lock, contextlib.suppress(OSError):  # the app is gone
            streams.write_output(self.output, self.markers, stream, data)

    def end_output(self, marker: str) -> None:
        """Send all of a run's output, then mark its end (it precedes the run's reply)."""
        streams.flush_all()
        with self._output_lock:
            streams.mark_end(self.output, marker)

    def _read_requests(self, on_interrupt: Callable[[str], None],
                       on_app_gone: Callable[[int], None]) -> None:
        while True:
            status = 0
            try:
                frame = wire.receive(self.control_in)
                request = None if frame is None else protocol.read(frame, protocol.REQUESTS)
            except OSError as error:
                request = None
                if error.errno == errno.EBADF:  # the script closed the kernel's pipe
                    status = PIPES_CLOSED_STATUS
            except Exception:  # noqa: BLE001 - the app never sends garbage: it is gone
                request = None
            if request is None:
                on_app_gone(status)
                return
            if isinstance(request, protocol.Interrupt):
                on_interrupt(request.id)
            else:
                self.requests.put(request)
