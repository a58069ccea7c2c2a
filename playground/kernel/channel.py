"""The kernel's end of its pipes, the same on every OS: requests on stdin, replies on stdout.

At start the kernel keeps private copies of its stdin and stdout for the control channel and
gives user code other descriptors 0-2: 0 reads an empty file (``input()`` ends at once, as
before), 1 is a pipe whose bytes a thread here forwards to the app as output frames tagged
with the run that printed them, 2 stays the process's stderr pipe (so that the last words of
a crashing process still reach the app). Python's sys.stdout and sys.stderr send their text
as output frames directly (streams.py); the descriptors carry what C code and the processes
a script starts write. Nothing user code does to descriptors 0-2 reaches
the control channel, and they are put back before every run.

A second thread reads requests: Stop is answered at once from that thread (the main thread
is busy running user code), a closed stdin means the app is gone and the kernel ends.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import queue
import threading
from collections.abc import Callable

from playground.kernel import processes, streams, wire


class KernelChannel:
    """Control frames in and out, and the user's output on descriptor 1 forwarded as frames."""

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.control_in = os.dup(0)
        self.control_out = os.dup(1)
        empty = os.open(os.devnull, os.O_RDONLY)
        self._output_read, output_write = os.pipe()
        self._stdio = {0: empty, 1: output_write, 2: os.dup(2)}
        self.restore_stdio()
        self.requests: queue.Queue = queue.Queue()
        self.run_id: str | None = None  # the run whose output is being forwarded
        self._send_lock = threading.Lock()
        # Output leaves in the order it was written: whoever sends output first forwards
        # what waits in the descriptor 1 pipe, and only one thread at a time does either.
        self._order = threading.RLock()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def start(self, on_interrupt: Callable[[str], None],
              on_app_gone: Callable[[], None]) -> None:
        threading.Thread(target=self._read_requests, args=(on_interrupt, on_app_gone),
                         name="playground-requests", daemon=True).start()
        threading.Thread(target=self._forward_output, name="playground-output",
                         daemon=True).start()

    def restore_stdio(self) -> None:
        """Descriptors 0-2 as the kernel set them up, whatever user code closed or replaced."""
        for fd, kept in self._stdio.items():
            with contextlib.suppress(OSError):
                os.dup2(kept, fd)
        processes.point_std_handles(self.platform)

    def send(self, message: dict) -> None:
        self.send_frame(wire.encode(message))

    def send_frame(self, frame: bytes) -> None:
        with self._send_lock:  # the main thread, the output forwarder and the watchdog
            wire.send_frame(self.control_out, frame)

    def send_output(self, stream: str, text: str) -> None:
        """What the running script printed, after what it wrote to descriptor 1 before."""
        with self._order:
            self._forward_pending()
            self._send_output(stream, text)

    def end_output(self, marker: str) -> None:
        """Send all of a run's output; mark the end of its stderr, which the app reads
        itself (everything sent here precedes the run's reply)."""
        streams.flush_all()
        with self._order:
            self._forward_pending()
        streams.mark_end(marker)

    def _send_output(self, stream: str, text: str) -> None:
        run_id = self.run_id
        if run_id is not None and text:  # between runs: dropped
            with contextlib.suppress(OSError):
                self.send({"op": "output", "id": run_id, "stream": stream, "text": text})

    def _forward_pending(self) -> None:
        """Send what waits in the descriptor 1 pipe (call with ``_order`` held)."""
        while processes.pipe_has_data(self._output_read):
            chunk = os.read(self._output_read, 1 << 16)
            if not chunk:
                return
            self._send_output("stdout", self._decoder.decode(chunk))

    def _forward_output(self) -> None:
        while True:
            processes.wait_for_data(self._output_read)
            with self._order:
                self._forward_pending()

    def _read_requests(self, on_interrupt: Callable[[str], None],
                       on_app_gone: Callable[[], None]) -> None:
        while True:
            try:
                request = wire.receive(self.control_in)
            except Exception:  # noqa: BLE001 - the app never sends garbage: it is gone
                request = None
            if request is None:
                on_app_gone()
                return
            if request.get("op") == "interrupt":
                on_interrupt(str(request.get("id", "")))
            else:
                self.requests.put(request)
