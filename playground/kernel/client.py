"""The app's side of the kernel: start it, run code in it, stream its output, survive it.

A crash, ``os._exit``, an endless loop or a memory blow-up in user code ends or stalls only the
child process; every method here returns a RunResult saying what happened in one sentence.
The transport is the same on every OS: requests go to the kernel's stdin, replies come back
as frames on its stdout, and the user's printed output, in the order it was written, on its
stderr (see channel.py for the kernel's end, processes.py for what differs between OSes).
"""

from __future__ import annotations

import codecs
import contextlib
import os  # (ids from os.urandom: importing secrets loads OpenSSL, 10 ms of a start)
import queue
import subprocess
import threading
import time
from collections.abc import Callable

from playground.engines.registry import DEFAULT_ENGINE
from playground.kernel import errors, processes, protocol, streams, wire
from playground.kernel.later_inbox import LaterInbox
from playground.kernel.launch import default_memory_limit, launch
from playground.kernel.run_stages import add_stages
from playground.kernel.spare import Spare
from playground.kernel.start_errors import not_started
from playground.kernel.streams import RunOutput
from playground.model import RunError, RunResult, gc_policy
from playground.model.figure import DrawnFigures
from playground.model.run_result import reply_hook

INTERRUPT_GRACE = 2.0
DRAIN_S = 2.0  # the longest wait for the end of a run's output after its reply
COMPLETION_WAIT_S = 10.0  # jedi's first parse of a big namespace takes seconds
POLL_S = 0.05
STATE_WAIT_S = 5.0  # how long a fresh run waits for the last run's State (a few ms)
LIBRARIES_KEPT = 50  # names of libraries a spare imports at most (the kernel's data is untrusted)
STOPPED_CHECK_S = 0.5  # how often a running kernel is checked for being stopped (SIGSTOP)


class KernelError(RuntimeError):
    """The kernel could not start (its engine is unavailable): one sentence."""


class Kernel:
    """A child process running user code on one engine (a name engines/registry.py lists)."""

    def __init__(self, engine: str = DEFAULT_ENGINE, device: str = "auto",
                 memory_limit: int | None = None,
                 on_death: Callable[[RunError], None] | None = None,
                 autostart: bool = True, completions: bool = True,
                 launched: subprocess.Popen | None = None, spare: bool | None = None) -> None:
        """``on_death`` hears at once, from a watcher thread, when the process dies between
        runs (during a run, ``run`` itself returns the error). Without ``autostart`` the
        caller starts it (the window does, off its UI thread). Without ``completions`` (the
        CLI) the kernel does not warm up jedi, whose seconds of parsing slow a first run.
        ``launched``: the process ``launch`` started for it (the CLI's head start).
        ``spare`` (by default with ``completions``): a fresh run after a run that changed its
        process (the default dtype, grad mode, the working folder, warnings, a monkeypatched
        torch: fingerprint.py) goes to a new process, started and warmed while the last
        run's result was being looked at; after runs that changed nothing, the same warm one
        serves."""
        self.completions = completions
        self.spare = completions if spare is None else spare
        self._spare = Spare()  # the next fresh run's process
        self._dirty = False  # whether a run changed the current process (fingerprint.py)
        self._state_known = threading.Event()  # the last run's State came (or none is due)
        self._state_known.set()
        self._libraries: set[str] = set()  # what scripts imported: a spare imports them too
        self.later = LaterInbox()  # what comes of each run after its result
        self.on_death = on_death
        self.engine = engine
        self.device = device
        self.memory_limit = default_memory_limit() if memory_limit is None else memory_limit
        self.description = ""
        self.cuda = False  # whether the engine found a CUDA device (torch only)
        self.process: subprocess.Popen | None = None
        self._group: processes.ProcessGroup | None = None
        self._output: RunOutput | None = None
        self._interrupted_at: float | None = None
        self._control = threading.RLock()
        self._sending = threading.Lock()
        self._replies: queue.Queue = queue.Queue()
        # when each run's result was read whole, and the seconds spent decoding it, by run id
        self._decoding: dict[str, tuple[float, float]] = {}
        self._ending = ""  # why the kernel said it is ending itself ("memory")
        self._readers: list[threading.Thread] = []
        self._run_id = ""
        self._markers: streams.StreamMarkers | None = None  # sys.stderr's, in the output
        self._unclaimed = ""  # the end of what the kernel printed outside any run
        if autostart:
            self.start(launched)

    # ----- lifecycle -----------------------------------------------------------------------
    def start(self, launched: subprocess.Popen | None = None) -> None:
        self._dirty = False
        self._spare.open()
        self._state_known.set()
        self.process = launched or launch(self.engine, self.device, self.memory_limit,
                                          self.completions)
        try:
            self._group = processes.ProcessGroup(self.process, self.memory_limit)
        except OSError as failure:  # no job object: the kernel cannot be kept in check
            self.process.kill()
            self.process.wait()
            self.process = None
            raise KernelError(f"The kernel process could not be grouped with its "
                              f"children: {failure}.") from failure
        self._control_out = self.process.stdin.fileno()
        self._replies = queue.Queue()
        self._ending = ""
        self._readers = [
            threading.Thread(target=self._read_control,
                             args=(self.process, self._group, self._replies), daemon=True),
            threading.Thread(target=self._pump, args=(self.process.stderr,), daemon=True)]
        for reader in self._readers:
            reader.start()
        hello = self._replies.get()
        if not isinstance(hello, protocol.Ready) or hello.version != protocol.VERSION:
            self._readers[1].join(timeout=2)  # what a dying kernel printed, read to its end
            self.close()
            raise KernelError(not_started(hello, self._unclaimed, self.memory_limit))
        self.description = hello.description
        self.cuda = hello.cuda
        self._markers = streams.StreamMarkers.from_json(hello.stderr_markers)
        threading.Thread(target=self._watch, args=(self.process,), daemon=True).start()

    def _watch(self, process: subprocess.Popen) -> None:
        process.wait()
        if self.on_death is not None and process is self.process and self._output is None:
            self.on_death(self._crash_error())

    def _read_control(self, process: subprocess.Popen, group: processes.ProcessGroup,
                      replies: queue.Queue) -> None:
        """Every frame from the kernel: output goes to the run that printed it, the rest
        to ``replies``; None there when the kernel is gone or its pipe out of step."""
        control_in = process.stdout.fileno()
        try:
            # a result's parts become model objects as they are read: a large result's 10^5
            # nodes and steps never exist as dicts as well (model/run_result.py)
            timings: dict[str, float] = {}
            while (frame := wire.receive(control_in, timings, reply_hook)) is not None:
                message = protocol.read(frame, protocol.REPLIES)
                if isinstance(message, protocol.Result):  # its decoding, for its timings
                    self._decoding[message.id] = (timings["arrived"], timings["decode"])
                if isinstance(message, protocol.Ending):
                    self._ending = message.reason
                elif isinstance(message, protocol.State):
                    self._take_state(message)
                elif not self.later.take(message):  # (its traces and figures: the inbox's)
                    replies.put(message)
        except Exception as failure:  # noqa: BLE001 - garbage on the pipe, of any kind
            replies.put(protocol.Broken(f"{type(failure).__name__}: {failure}"))
            group.kill()  # the pipe is out of step: only a new kernel fixes it
        self._state_known.set()  # (the process is gone: the next run starts a new one)
        self.later.give_up(errors.DRAWING_ENDED, process)  # (the window's Stop goes off)
        replies.put(None)

    def _take_state(self, state: protocol.State) -> None:
        """A run's effect on its process, sent after its result: a run that changed it has
        the next fresh run go to a spare, started now while the result is looked at."""
        self._dirty = self._dirty or bool(state.dirty)  # (the reader's process is current:
        # a restart joins the old reader before it starts the new process)
        self._libraries.update(str(name) for name in state.libraries[:LIBRARIES_KEPT])
        if self._dirty:
            self._keep_a_spare()
        self._state_known.set()

    @property
    def state_known(self) -> bool:
        """Whether the last run's State has come and been taken (its spare, if it needs one,
        started): until then the process still has after-run work going."""
        return self._state_known.is_set()

    def _pump(self, stream) -> None:
        """Pass the run's output on as it comes, up to its end-of-output marker."""
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # a character may
        scanner = streams.OutputScanner()                                  # span two reads
        for chunk in iter(lambda: stream.read(65536), b""):
            output = self._output
            pieces, ended = scanner.feed(decoder.decode(chunk), self._markers,
                                         output.marker if output else "")
            if output is None:  # no run to claim it: kept (its end) to say why a start failed
                said = self._unclaimed + "".join(text for _, text in pieces)
                self._unclaimed = said[-4000:]
                continue
            for name, text in pieces:
                output.add(name, text)
            if ended:
                output.ended.set()

    def close(self) -> None:
        """End the kernel, and its spare."""
        self._spare.end(closing=True)  # (a State read meanwhile starts no spare)
        self._end_current(gracefully=True)

    def _end_current(self, gracefully: bool) -> None:
        process = self.process
        if process is None:
            return
        self.later.give_up()  # (the window says why the figures went: it asked for it)
        if process.poll() is None and gracefully:
            with contextlib.suppress(OSError):  # the kernel may already be gone
                self._send(protocol.Shutdown())
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1.0)
        self._group.kill()  # and whatever the kernel started that outlived it
        process.wait()
        self._group.close()
        with contextlib.suppress(OSError):
            process.stdin.close()
        for reader in self._readers:
            reader.join(timeout=1.0)
        for stream in (process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                stream.close()
        self._readers = []
        self.process = None

    def sent_by(self, pid: int) -> bool:
        """Whether process ``pid`` is this kernel or one it started (POSIX)."""
        process = self.process
        return process is not None and processes.same_session(pid, process.pid)

    def restart(self) -> None:
        """A clean kernel: the spare when one is ready (at once), else a new process. Not
        while a completion is being answered (it would be read from the other process)."""
        with self._control:
            spare = self._spare.take()
            self._end_current(gracefully=spare is None)
            self.start(spare)

    def _keep_a_spare(self) -> None:
        """Start the process the next fresh run will take (from the reader thread)."""
        if self.spare and self.process is not None:
            self._spare.keep(lambda: launch(self.engine, self.device, self.memory_limit,
                                            self.completions, spare=True,
                                            preload=sorted(self._libraries)[:LIBRARIES_KEPT]))

    def interrupt(self) -> None:
        """KeyboardInterrupt in the run sent last, or in its figures' drawing; a kernel that
        ignores it is killed after 2 s. The kernel keeps one that comes before its run starts
        (it was completing). Any thread may call it; a run not sent is stopped by ``stop``."""
        if self.process is not None and self.process.poll() is None:
            self._interrupted_at = time.monotonic()
            with contextlib.suppress(OSError):  # it died meanwhile: run() reports that
                self._send(protocol.Interrupt(self._run_id))
            if self._output is None and (drawing := self.later.drawing) is not None:
                threading.Timer(INTERRUPT_GRACE, self._end_ignored_stop,
                                (self.process, drawing)).start()

    def _end_ignored_stop(self, process: subprocess.Popen, run_id: str) -> None:
        """A Stop of the figures' drawing that the kernel ignored (a C call that never
        checks for it): the kernel is ended, as a run that ignores Stop is (a run sent since
        waits for the drawing: its own Stop ends it so)."""
        if process is self.process and self.later.drawing == run_id and self._output is None:
            self.later.why_ended = errors.STOP_IGNORED  # (the reader says it once it is gone)
            self._group.kill()

    def _send(self, message: protocol.Message) -> None:
        with self._sending:  # Stop comes from another thread than the run's request
            wire.send(self._control_out, message.to_wire())

    def switch(self, engine: str, device: str = "auto") -> None:
        """Restart on another engine (or device); a failure leaves the old engine running."""
        with self._control:  # not while a completion is being answered
            previous = (self.engine, self.device)
            self.close()
            self.engine, self.device = engine, device
            try:
                self.start()
            except KernelError:
                self.engine, self.device = previous
                self.start()
                raise

    def __enter__(self) -> Kernel:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    # ----- running -------------------------------------------------------------------------
    def run(self, code: str, filename: str = "<script>", fresh: bool = True,
            on_output: Callable[[str, str], None] | None = None,
            timeout: float | None = None, cell: bool = False,
            stop: threading.Event | None = None, figure_scale: float = 1.0,
            later: bool = False, sent: threading.Event | None = None) -> RunResult:
        """Run ``code`` (a whole script, or a cell when ``fresh`` is False) and wait for it.
        A ``cell`` shows its last expression's value as ``Out[n]:``, as Jupyter does.
        ``stop``, set from any thread, interrupts the run whenever it is set: before the run
        could be sent (a completion held the pipe) it never starts. ``sent`` is set once the
        request is on its way. matplotlib figures are rendered for ``figure_scale`` device
        pixels per pixel, after the result is sent, and so are the backward calls' traces:
        they are waited for and put in it, or with ``later`` (the window) the result comes
        at once and ``later.on_traces`` and ``later.on_pictures`` hear of them."""
        stop = stop or threading.Event()
        if not self._take_control(stop):
            return RunResult(self.engine, error=errors.interrupted_error())
        try:  # one request at a time on the control pipe
            if fresh and self.spare and not self._state_known.wait(STATE_WAIT_S):
                self._dirty = True  # the last run's state never came: a new process, to be sure
            if self.process is None or self.process.poll() is not None or \
                    (fresh and self._dirty and self.spare):
                self.restart()  # a fresh run in a fresh process (the spare: at once)
            self._state_known.clear()  # until this run's State comes
            output = self._output = RunOutput(on_output)
            self._interrupted_at = None
            self._run_id = os.urandom(8).hex()  # its reply must name it
            started = time.perf_counter()
            self._drop_stale_replies()
            self._send(protocol.Run(code, filename, fresh, output.marker, cell, self._run_id,
                                    float(figure_scale)))
            sent is not None and sent.set()
            run_id = self._run_id
            reply, stop_reason = self._wait_for_reply(timeout, stop)
        finally:
            self._control.release()
        elapsed = time.perf_counter() - started
        self._drain(output)
        self._output = None
        result = self._result(reply, stop_reason, elapsed)
        arrived, decode = self._decoding.pop(self._run_id, (started, 0.0))
        self._decoding.clear()  # results of runs nobody waits for any more
        add_stages(result, started, arrived, decode, started + elapsed)
        result.output = "".join(output.parts)
        result.output_truncated = output.truncated
        result.run = run_id
        if result.figures_due and later:
            self.later.await_pictures(run_id)
        if result.traces_due and not later:  # (none if the kernel ends first)
            result.traces = self.later.traces_while(result.run, self._alive, POLL_S)
            result.traces_due = False
        if result.figures_due and not later:
            self._wait_for_pictures(result, stop, timeout)
        return result

    def _alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _wait_for_pictures(self, result: RunResult, stop: threading.Event,
                           timeout: float | None) -> None:
        """Put the figures the kernel draws after ``result`` in it: ``stop`` or ``timeout``
        interrupts the drawing (the run's error then says so), a kernel that ignores that is
        killed after 2 s."""
        deadline = None if timeout is None else time.monotonic() + timeout
        interrupted = None
        while (drawn := self.later.pictures(result.run, POLL_S)) is None:
            now = time.monotonic()
            if self.process is None or self.process.poll() is not None:
                drawn = DrawnFigures(result.run, [], [], [errors.DRAWING_ENDED], True)
                break
            if interrupted is None and (stop.is_set() or (deadline and now > deadline)):
                self.interrupt()
                interrupted = now
            elif interrupted is not None and now - interrupted > INTERRUPT_GRACE:
                self._group.kill()
        result.figures = drawn.figures
        result.notes += drawn.notes
        result.output += "".join(drawn.failures)
        if drawn.stopped and result.error is None:
            result.error = errors.interrupted_error()

    def complete(self, code: str, line: int, column: int) -> list[tuple[str, str]]:
        """(name, kind) completions at a 1-based line and 0-based column; [] while busy."""
        if not self._control.acquire(blocking=False):
            return []
        try:
            if self.process is None or self.process.poll() is not None:
                return []
            self._drop_stale_replies()
            request_id = os.urandom(8).hex()
            self._send(protocol.Complete(code, line, column, request_id))
            deadline = time.monotonic() + COMPLETION_WAIT_S
            while (left := deadline - time.monotonic()) > 0:
                reply = self._replies.get(timeout=left)
                if reply is None or isinstance(reply, protocol.Broken):
                    self._replies.put(reply)  # the kernel's end: the next run must see it
                    return []
                if isinstance(reply, protocol.Completions) and reply.id == request_id:
                    return [(str(name), str(kind))
                            for name, kind in reply.items][:wire.COMPLETIONS_LIMIT]
            return []
        except queue.Empty:
            return []
        except Exception:  # noqa: BLE001 - garbage instead of completions: none, and the
            if self.process is not None:  # kernel restarts for the next run
                self._group.kill()
            return []
        finally:
            self._control.release()

    def _take_control(self, stop: threading.Event) -> bool:
        """The control pipe, or False when ``stop`` is set while another request holds it."""
        while not self._control.acquire(timeout=POLL_S):
            if stop.is_set():
                return False
        if stop.is_set():
            self._control.release()
            return False
        return True

    def _drop_stale_replies(self) -> None:
        """Replies nobody waits for any more (a completion answered after its time)."""
        while True:
            try:
                reply = self._replies.get_nowait()
            except queue.Empty:
                return
            if reply is None or isinstance(reply, protocol.Broken):
                self._replies.put(reply)  # the kernel's end: the next wait must see it
                return

    def _wait_for_reply(self, timeout: float | None,
                        stop: threading.Event
                        ) -> tuple[protocol.Result | None, str | None]:
        """The kernel's reply; on timeout or ``stop`` interrupt it, and kill it 2 s after
        any interrupt."""
        deadline = None if timeout is None else time.monotonic() + timeout
        reason = None
        checked = time.monotonic()
        while True:
            if stop.is_set() and self._interrupted_at is None:
                self.interrupt()
            if time.monotonic() - checked > STOPPED_CHECK_S:
                checked = time.monotonic()
                self._continue_if_stopped()
            try:
                reply = self._replies.get(timeout=POLL_S)
            except queue.Empty:
                pass
            else:
                if reply is None:
                    return None, reason
                if isinstance(reply, protocol.Broken):
                    return None, reason or "broken"
                if isinstance(reply, protocol.Result) and reply.id == self._run_id:
                    return reply, reason  # a frame not for this run (user code
            now = time.monotonic()                  # writing to the pipe) is never it
            if deadline is not None and now > deadline and reason is None:
                reason = "timeout"
                self.interrupt()
            interrupted_at = self._interrupted_at
            if interrupted_at is not None and now - interrupted_at > INTERRUPT_GRACE:
                self._group.kill()
                self.process.wait()
                return None, reason or "interrupt"

    def _continue_if_stopped(self) -> None:
        """A script that stopped its own process (SIGSTOP) would stall the run for good,
        Stop included: the kernel is continued, and the run's output says so."""
        if processes.is_stopped(self.process) and processes.continue_process(self.process):
            output = self._output
            if output is not None:
                output.add("stderr", "(the script stopped its kernel process with a signal; "
                                     "it was continued)\n")

    def _drain(self, output: RunOutput) -> None:
        """Let the readers pass on what the process wrote before it answered or died."""
        deadline = time.monotonic() + DRAIN_S
        while not output.ended.wait(POLL_S):
            # a dead kernel writes no marker (its readers end instead); a process the script
            # started that holds stderr open may delay it: wait a little, then go on
            if self.process is None or self.process.poll() is not None:
                for reader in self._readers:
                    reader.join(timeout=1.0)
                return
            if time.monotonic() > deadline:
                return

    def _result(self, reply: protocol.Result | None, stop_reason: str | None,
                elapsed: float) -> RunResult:
        if reply is not None:
            try:
                with gc_policy.paused():
                    result = RunResult.from_json(reply.result)
            except Exception:  # noqa: BLE001 - a reply that is not a RunResult
                reply, stop_reason = None, "broken"
                if self.process is not None:
                    self._group.kill()
        if reply is not None:
            if stop_reason == "timeout" and result.error is not None:
                result.error = RunError("timeout", "The run took longer than the time limit "
                                        "and was stopped.")
            return result
        if stop_reason in errors.RESTARTED:  # a reply unreadable or never come: a new kernel
            self.restart()
            error = errors.restarted_error(stop_reason)
            return RunResult(self.engine, error=error, elapsed=elapsed)
        return RunResult(self.engine, error=self._crash_error(), elapsed=elapsed)

    def _crash_error(self) -> RunError:
        try:  # a kernel that closed its control pipe yet lives on is ended here
            code = self.process.wait(timeout=INTERRUPT_GRACE)
        except subprocess.TimeoutExpired:
            self._group.kill()
            code = self.process.wait()
        self._group.kill()  # what it started dies with it: no output leaks into later runs
        return errors.ended_error(code, self._ending, self.memory_limit)
