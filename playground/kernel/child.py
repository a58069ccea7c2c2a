"""The kernel process: runs user code on one engine, answers over its stdin and stdout.

Started by ``playground.kernel.client.Kernel`` as
``python -m playground.kernel.child ENGINE DEVICE MEMORY_LIMIT [complete|no-complete]``
(no-complete: no jedi warm-up, for the CLI). How the pipes are used is in channel.py.
"""

from __future__ import annotations

import _thread
import builtins
import contextlib
import functools
import linecache
import os
import re
import signal
import sys
import threading
import time
import traceback
import types
from pathlib import Path

import numpy as np

from playground.engines.base import EngineError, run_code
from playground.engines.registry import ENGINES
from playground.kernel import notebook_lines, processes, streams, wire
from playground.kernel.channel import KernelChannel
from playground.kernel.watchdog import MemoryWatchdog
from playground.model.trace import traces_to_json

MESSAGE_LIMIT = 500        # characters of an exception's text in the one-sentence message
TRACEBACK_LIMIT = 64 * 1024
JEDI_WARM_UP_S = 1.0      # after the kernel is ready: its first run goes first
# Frames in these folders are the kernel's or the engine's, never shown to the user.
_OWN_CODE = str(Path(__file__).resolve().parents[1])


def make_engine(name: str, device: str):
    return ENGINES[name].load(device)


_memory_limit = 0  # bytes; 0: none
_exit_now = os._exit  # streams.install makes os._exit flush first; ending must not wait


def describe_exception(error: BaseException, filename: str) -> dict:
    """The run's error as RunError fields, with a traceback like Python's own."""
    if isinstance(error, SyntaxError):
        text = "".join(traceback.format_exception_only(type(error), error))
        where = f" (line {error.lineno})" if error.lineno else ""
        return {"kind": "syntax", "message": f"{type(error).__name__}: {error.msg}{where}.",
                "exception_type": type(error).__name__,
                "traceback": text, "line": error.lineno, "exit_code": None}
    frames = traceback.extract_tb(error.__traceback__)
    # A 5 MB exception message still makes one sentence and a readable traceback.
    error_text = str(error)
    if len(error_text) > MESSAGE_LIMIT:
        error_text = error_text[:MESSAGE_LIMIT] + f"… ({len(error_text):,} characters)"
    user_lines = [frame.lineno for frame in frames if frame.filename == filename]
    shown = traceback.TracebackException(type(error), error, error.__traceback__)
    shown.stack = traceback.StackSummary.from_list(_users_frames(shown.stack, filename))
    # torch's allocator says it with a RuntimeError of its own (its text is kept, as torch's)
    out_of_memory = isinstance(error, MemoryError) or "can't allocate memory" in error_text
    kind = "memory" if out_of_memory else "exception"
    if isinstance(error, MemoryError):  # NumPy's _ArrayMemoryError is a detail: say what happened
        shown.exc_type = MemoryError
    text = _shorten("".join(shown.format()))
    line = user_lines[-1] if user_lines else None
    where = f" (line {line})" if line else ""
    if kind == "memory" and not error_text and _memory_limit:
        error_text = (f"the code asked for more memory than the kernel's limit of "
                      f"{_memory_limit / (1 << 30):.1f} GB")
    summary = f"{type(error).__name__}: {error_text}" if error_text else type(error).__name__
    return {"kind": kind, "message": f"{summary}{where}.", "exception_type": type(error).__name__,
            "traceback": text, "line": line, "exit_code": None}


def _users_frames(stack, filename: str) -> list:
    """The frames a user wants to see: not the kernel's or the engine's, nor the libraries
    the engine called (NumPy under npgrad); a user's function the engine called back is."""
    shown, inside_engine = [], False
    for frame in stack:
        if frame.filename.startswith(_OWN_CODE):
            inside_engine = True
        elif frame.filename == filename:
            inside_engine = False
            shown.append(frame)
        elif not inside_engine:
            shown.append(frame)
    return shown


def _quote_the_code(error: SyntaxError, code: str) -> None:
    """A SyntaxError quotes the line of the code that ran (the editor's text, a notebook's
    cell), not the line Python re-reads from a file of the same name on disk."""
    lines = code.splitlines()
    if error.lineno is None and "\0" in code:  # Python names no line for a null byte
        error.lineno = code.count("\n", 0, code.index("\0")) + 1
    if error.lineno and 0 < error.lineno <= len(lines):
        error.text = lines[error.lineno - 1] + "\n"
        error.end_lineno = error.end_lineno if error.end_lineno == error.lineno else None


def _shorten(text: str) -> str:
    """A traceback of at most TRACEBACK_LIMIT characters whose last line is still the error's."""
    if len(text) <= TRACEBACK_LIMIT:
        return text
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if len(line) > MESSAGE_LIMIT:  # a huge message (or value) on one line
            lines[index] = f"{line[:MESSAGE_LIMIT]}… ({len(line):,} characters)\n"
    text = "".join(lines)
    if len(text) <= TRACEBACK_LIMIT:
        return text
    half = TRACEBACK_LIMIT // 2
    return f"{text[:half]}\n[… traceback shortened …]\n{text[-half:]}"


_JEDI = threading.Lock()
_TORCH_IMPORT = re.compile(r"^\s*(import torch\b|from torch\b)")


def completions(code: str, line: int, column: int, namespace: dict, torch_module) -> list:
    """Names that complete the code at (line, column), from the live namespace (like Jupyter).

    ``import torch`` lines are blanked: jedi would otherwise analyse the installed torch
    package (seconds) instead of the engine module the namespace already holds.
    """
    lines = ["" if _TORCH_IMPORT.match(text) else text for text in code.split("\n")]
    names = {"torch": torch_module, **namespace}
    try:
        jedi = _jedi()  # imported while user code may be importing too: never fatal
        with _JEDI:  # jedi is not thread-safe, and the warm-up runs in its own thread
            found = jedi.Interpreter("\n".join(lines), [names]).complete(line, column)
    except Exception:  # noqa: BLE001 - completion must never break the kernel
        return []
    return [[item.name, item.type] for item in found if not item.name.startswith("__")][:200]


@functools.cache  # patch parso once, not at every completion
def _jedi():
    """jedi, with parso's parse cache kept in this process's memory only.

    parso pickles every module it parses to the user's cache folder and unpickles it on the
    next start. Nothing from disk may be unpickled here, and a kernel killed while parso
    writes (Restart, an engine switch) left a truncated file that broke completion for good.
    Without the disk cache each kernel parses anew: the warm-up thread pays for it.
    """
    import jedi
    import parso.cache

    # parso's own switch (pickling=False) is not reachable through jedi's API.
    parso.cache._load_from_file_system = _no_disk_cache  # "not cached": parse the file
    parso.cache._save_to_file_system = _no_disk_cache   # the memory cache is filled first
    # Completing ``obj.`` must not run the user's properties: one that loops would hang
    # the kernel (IPython turns this off for the same reason).
    jedi.settings.allow_unsafe_interpreter_executions = False
    return jedi


def _no_disk_cache(*_arguments, **_options) -> None:
    return None


class Session:
    """The engine and the namespace that cells share between runs."""

    def __init__(self, engine, watchdog: MemoryWatchdog | None = None) -> None:
        self.engine = engine
        self.watchdog = watchdog  # armed while user code runs
        self.namespace: dict = {"__name__": "__main__"}
        self.executions = 0  # cells run, for Out[n]
        self.notes: list[str] = []  # what the run's console shows in grey
        # User code may replace print, delete len or close sys.stdout; the kernel needs them.
        self._builtins = dict(builtins.__dict__)
        self._streams = {"stdout": sys.stdout, "stderr": sys.stderr}
        self._numpy_errors = np.geterr()  # np.seterr in one run must not reach a fresh one

    def _fresh_main(self, filename: str) -> dict:
        """A new ``__main__`` module for a fresh run: pickle (multiprocessing's Pool) finds
        the script's functions in it by name, as it does when python runs the script."""
        module = types.ModuleType("__main__")
        module.__file__ = filename
        module.__builtins__ = builtins
        sys.modules["__main__"] = module
        return module.__dict__

    def restore(self) -> None:
        """Put back the builtins and standard streams that user code changed."""
        if builtins.__dict__ != self._builtins:
            builtins.__dict__.clear()
            builtins.__dict__.update(self._builtins)
        for name in ("stdout", "stderr"):
            stream = self._streams[name]
            if stream.closed:  # closing sys.stdout leaves file descriptor 1 open
                stream = self._streams[name] = streams.reopen(name)
            setattr(sys, name, stream)

    def run(self, code: str, filename: str, fresh: bool, cell: bool = False) -> dict:
        try:
            return self._run(code, filename, fresh, cell)
        finally:
            self.restore()

    def _reply_error(self, error: dict, started: float) -> dict:
        """A reply for a run that never got to building its graph."""
        return {"engine": self.engine.name, "error": error, "graph": None,
                "traces": traces_to_json([]), "figures": [], "notes": self.notes,
                "elapsed": time.perf_counter() - started}

    def reply_interrupted(self, started: float) -> dict:
        """The reply for a run the app's Stop ended."""
        return self._reply_error({
            "kind": "interrupted", "message": "The run was interrupted.",
            "exception_type": "KeyboardInterrupt", "traceback": "", "line": None,
            "exit_code": None}, started)

    def _run(self, code: str, filename: str, fresh: bool, cell: bool = False) -> dict:
        if fresh:
            self.namespace = self._fresh_main(filename)
            np.seterr(**self._numpy_errors)
            streams.retire_threads()
        code, skipped = notebook_lines.without_shell_lines(code)
        # IPython's %magics and !commands: a note, never a SyntaxError
        self.notes = ["skipped IPython lines that are not Python: " + ", ".join(
            f"{text} (line {number})" for number, text in skipped)] if skipped else []
        if cell:
            self.executions += 1
        # Tracebacks quote the source lines even when the code comes from the editor.
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        started = time.perf_counter()
        _Stop.begin(self.watchdog)
        try:
            run = run_code(code, self.engine, filename, self.namespace, display_last=cell)
        except KeyboardInterrupt as interrupt:
            if not _Stop.requested:  # raised by the script itself: an ordinary exception
                return self._reply_error(describe_exception(interrupt, filename), started)
            return self.reply_interrupted(started)
        finally:
            _Stop.end(self.watchdog)
            self.restore()
            streams.flush_all()
        if isinstance(run.error, SyntaxError):
            _quote_the_code(run.error, code)
        if run.error is not None and (clearer := self.engine.explain(run.error)):
            run.error.args = (clearer,)
        error = None if run.error is None else describe_exception(run.error, filename)
        if run.error is None and run.shown is not None:
            sys.stdout.write(notebook_lines.out_text(self.executions, run.shown))
            streams.flush_all()
        if isinstance(run.error, SystemExit):
            code = run.error.code
            error = {"kind": "exit", "message": f"The script called sys.exit({code!r}).",
                     "exception_type": "SystemExit", "traceback": "", "line": None,
                     "exit_code": code if isinstance(code, int) else (0 if code is None else 1)}
        return {"engine": self.engine.name, "error": error,
                "graph": run.graph.to_json(raw=True),
                "traces": traces_to_json(run.traces, raw=True),
                "figures": [figure.to_json(raw=True) for figure in run.figures],
                "elapsed": time.perf_counter() - started, "dropped_calls": run.dropped_calls,
                "notes": self.notes, "timings": run.timings}


class _Stop:
    """Stop and the memory watchdog, turned into an exception in the main thread.

    A request (from the request thread or the watchdog) leaves a reason and simulates SIGINT
    in the main thread (``_thread.interrupt_main``: the same call on every OS); the handler
    raises what the reason asks for, but only while user code runs.
    """

    armed = False      # user code is running: a request may interrupt it
    reason = ""        # what the next SIGINT raises: "interrupt" or "memory"
    requested = False  # this run's KeyboardInterrupt came from the app's Stop
    platform = sys.platform

    @classmethod
    def begin(cls, watchdog: MemoryWatchdog | None) -> None:
        cls.requested, cls.reason, cls.armed = False, "", True
        if watchdog is not None:
            watchdog.arm()

    @classmethod
    def end(cls, watchdog: MemoryWatchdog | None) -> None:
        cls.armed = False
        if watchdog is not None:
            watchdog.disarm()

    @classmethod
    def request(cls, reason: str) -> None:
        if not cls.armed:
            return  # between runs: nothing to stop
        cls.reason = reason
        _thread.interrupt_main()
        processes.wake_main_thread(cls.platform)

    @classmethod
    def on_signal(cls, number, frame) -> None:
        reason, cls.reason = cls.reason, ""
        if not cls.armed:
            return
        if reason == "memory":
            raise MemoryError  # described as the kernel's limit
        # a script may send itself SIGINT: then it is an ordinary exception
        cls.requested = reason == "interrupt"
        raise KeyboardInterrupt


def _run_safely(session: Session, request: dict) -> dict:
    """The run's reply; if the kernel's own work after user code fails, a reply saying so
    (the namespace is kept): the kernel must outlive anything a script leaves behind."""
    started = time.perf_counter()
    try:
        return session.run(request["code"], request["filename"], request["fresh"],
                           request.get("cell", False))
    except Exception as failure:  # noqa: BLE001
        streams.flush_all()
        return _unshowable(session, failure, started)


def _unshowable(session: Session, failure: Exception, started: float) -> dict:
    return session._reply_error({
        "kind": "exception", "exception_type": type(failure).__name__,
        "message": f"The run finished, but its tensors could not be shown: "
                   f"{type(failure).__name__}: {str(failure)[:MESSAGE_LIMIT]}.",
        "traceback": "", "line": None, "exit_code": None}, started)


def _result_frame(session: Session, reply: dict, run_id) -> bytes:
    """The reply as a frame naming its run; one that cannot cross the wire is replaced by
    one saying so."""
    try:
        return wire.encode({"op": "result", "id": run_id, "result": reply})
    except Exception as failure:  # noqa: BLE001
        return wire.encode({"op": "result", "id": run_id,
                            "result": _unshowable(session, failure, time.perf_counter())})


def serve(channel: KernelChannel, session: Session) -> None:
    while True:
        request = channel.requests.get()
        if request.get("op") == "shutdown":
            return
        if request.get("op") == "run":
            _prepare_run(channel)
            channel.run_id = str(request.get("id"))
            try:
                reply = _run_safely(session, request)
            except KeyboardInterrupt:  # a Stop that landed as user code ended
                reply = session.reply_interrupted(time.perf_counter())
            channel.restore_stdio()  # a script that closed descriptor 2 still gets its end
            channel.end_output(str(request.get("marker", "")))
            channel.send_frame(_result_frame(session, reply, request.get("id")))
            channel.run_id = None
        elif request.get("op") == "complete":
            found = completions(request["code"], request["line"], request["column"],
                                session.namespace, session.engine.torch_module())
            channel.send({"op": "completions", "id": request.get("id"), "items": found})


def _prepare_run(channel: KernelChannel) -> None:
    """What an earlier script may have changed that the kernel relies on: descriptors 0-2
    and the handlers that turn Stop into KeyboardInterrupt."""
    channel.restore_stdio()
    signal.signal(signal.SIGINT, _Stop.on_signal)
    processes.install_wake_handler(_Stop.platform)


def _end_kernel(channel: KernelChannel, reason: str = "") -> None:
    """End now, with the processes user code started; ``reason`` tells the app why."""
    if reason:
        with contextlib.suppress(OSError):
            channel.send({"op": "ending", "reason": reason})
    processes.end_children()
    _exit_now(0)


def main(argv: list[str]) -> int:
    engine_name, device, memory_limit, *options = argv
    processes.unblock_app_signals()  # before any thread starts: they inherit the mask
    platform = _Stop.platform = processes.current_platform()
    channel = KernelChannel(platform)
    channel.start(on_interrupt=lambda: _Stop.request("interrupt"),
                  on_app_gone=lambda: _end_kernel(channel))
    try:
        engine = make_engine(engine_name, device)
    except EngineError as error:
        channel.send({"op": "failed", "message": str(error)})
        return 2
    global _memory_limit
    _memory_limit = int(memory_limit)
    processes.cap_memory(_memory_limit, platform)
    streams.install(channel.send_output)
    _prepare_run(channel)
    watchdog = MemoryWatchdog(_memory_limit, on_over=lambda: _Stop.request("memory"),
                              on_stuck=lambda: _end_kernel(channel, "memory"))
    watchdog.start()
    session = Session(engine, watchdog)
    channel.send({"op": "ready", "engine": engine.name, "description": engine.describe(),
                  "pid": os.getpid(), "cuda": bool(getattr(engine, "cuda_available", False))})
    if options != ["no-complete"]:
        # jedi's first completion takes seconds: warm it up while the user reads the window,
        # once the window's first run is over (at once, it slowed that run by a tenth)
        warm_up = threading.Timer(JEDI_WARM_UP_S, completions,
                                  args=("x", 1, 1, {}, engine.torch_module()))
        warm_up.name, warm_up.daemon = "playground-jedi", True
        warm_up.start()
    serve(channel, session)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
