"""The kernel process: runs user code on one engine, answers over its stdin and stdout.

Started by ``playground.kernel.client.Kernel`` as
``python -m playground.kernel.child ENGINE DEVICE MEMORY_LIMIT [complete|no-complete]``
(no-complete: no jedi warm-up, for the CLI). How the pipes are used is in channel.py.
"""

from __future__ import annotations

import builtins
import contextlib
import errno
import functools
import importlib
import linecache
import os
import re
import signal
import sys
import threading
import time
import types

import numpy as np

from playground.engines import inline_figures
from playground.engines.base import EngineError, EngineRun, run_code
from playground.engines.registry import ENGINES
from playground.kernel import fingerprint, notebook_lines, processes, protocol, streams, wire
from playground.kernel.channel import PIPES_CLOSED_STATUS, KernelChannel
from playground.kernel.errors import (
    describe_exception,
    exit_error,
    interrupted_error,
    quote_the_code,
    unshowable_error,
)
from playground.kernel.figure_frames import FigureVectors, pictures_frame
from playground.kernel.long_lived import LongLived, keep_out_of_collections
from playground.kernel.script_place import as_python_runs
from playground.kernel.stop import Stop
from playground.kernel.switching import quick_hand_overs
from playground.kernel.watchdog import MemoryReserve, MemoryWatchdog
from playground.kernel.yielding import profile_put_aside, run_in_progress, yielding_to_runs
from playground.model import RunError, RunResult
from playground.model.trace import traces_to_json

JEDI_WARM_UP_S = 1.0      # after the kernel is ready: its first run goes first


def make_engine(name: str, device: str):
    return ENGINES[name].load(device)


_memory_limit = 0  # bytes; 0: none
_exit_now = os._exit  # streams.install makes os._exit flush first; ending must not wait
_KERNEL_PID = os.getpid()


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
    # every name: after "torch." the popup narrows as the user types (200 stopped at "abs_...")
    return [[item.name, item.type] for item in found
            if not item.name.startswith("__")][:wire.COMPLETIONS_LIMIT]


@functools.cache  # patch parso once, not at every completion
def _jedi():
    """jedi, with parso's parse cache kept in this process's memory only. parso pickles
    every module it parses to the user's cache folder and unpickles it on the next start.
    Nothing from disk may be unpickled here, and a kernel killed while parso writes (Restart,
    an engine switch) left a truncated file that broke completion for good. Without the disk
    cache each kernel parses anew: the warm-up thread pays for it."""
    import jedi
    import jedi.api.helpers
    import parso.cache

    # parso's own switch (pickling=False) is not reachable through jedi's API.
    parso.cache._load_from_file_system = _no_disk_cache  # "not cached": parse the file
    parso.cache._save_to_file_system = _no_disk_cache   # the memory cache is filled first
    # Completing ``obj.`` must not run the user's properties: one that loops would hang
    # the kernel (IPython turns this off for the same reason).
    jedi.settings.allow_unsafe_interpreter_executions = False
    # jedi's threads raised the recursion limit meanwhile: a running script met another one
    # than python's, and a run read a changed process (a 2 s wait for a spare) after it
    jedi.api.helpers.higher_recursion_limit = contextlib.nullcontext
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
        # User code may close sys.stdout or replace it; the kernel needs it (run_code keeps
        # the builtins, the one place that does).
        self._streams = {"stdout": sys.stdout, "stderr": sys.stderr}
        self._numpy_errors = np.geterr()  # np.seterr in one run must not reach a fresh one
        self._pristine: dict = {}
        self._modules_at_start: set[str] = set()
        self.ran = False  # whether any run started in this process
        self.long_lived = LongLived()  # when jedi's objects are frozen (long_lived.py)
        self.later_traces = None  # what makes the last run's traces, sent after its result

    def remember_pristine(self) -> None:
        """The process as a new kernel has it, to tell later whether a run changed it."""
        self._pristine = fingerprint.capture(self.engine)
        self._modules_at_start = set(sys.modules)

    def changed_the_process(self) -> bool:
        """Whether the runs so far changed what a fresh run would find (True when it
        cannot be told)."""
        try:
            return (not fingerprint.unchanged(self._pristine, fingerprint.capture(self.engine))
                    or bool(fingerprint.user_modules(self._modules_at_start)))
        except Exception:  # noqa: BLE001 - unreadable: a new process, to be sure
            return True

    def libraries(self) -> list[str]:
        """The installed libraries the runs imported (fingerprint.libraries)."""
        try:
            return fingerprint.libraries(self._modules_at_start)
        except Exception:  # noqa: BLE001 - none known: the spare imports none
            return []

    def _fresh_main(self, filename: str) -> dict:
        """A new ``__main__`` module for a fresh run: pickle (multiprocessing's Pool) finds
        the script's functions in it by name, as it does when python runs the script."""
        module = types.ModuleType("__main__")
        module.__file__, module.__builtins__ = filename, builtins
        sys.modules["__main__"] = module
        return module.__dict__

    def restore_streams(self) -> None:
        """Put back the standard streams that user code replaced or closed."""
        for name in ("stdout", "stderr"):
            stream = self._streams[name]
            if stream.closed:  # closing sys.stdout leaves file descriptor 1 open
                stream = self._streams[name] = streams.reopen(name)
            setattr(sys, name, stream)

    def run(self, code: str, filename: str, fresh: bool, cell: bool = False,
            run_id: str = "", figure_scale: float = 1.0) -> RunResult:
        try:
            return self._run(code, filename, fresh, cell, run_id, figure_scale)
        finally:
            self.restore_streams()

    def ended_early(self, error: RunError, started: float) -> RunResult:
        """The result of a run that never got to building its graph."""
        return RunResult(self.engine.name, error=error, notes=self.notes,
                         elapsed=time.perf_counter() - started)

    def _run(self, code: str, filename: str, fresh: bool, cell: bool = False,
             run_id: str = "", figure_scale: float = 1.0) -> RunResult:
        self.ran, self.later_traces = True, None
        if fresh:
            self.namespace = self._fresh_main(filename)
            self.long_lived.at_fresh_run(figures_pending=bool(_VECTORS))
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
        if not Stop.begin(self.watchdog, run_id):  # stopped before it could start
            return self.ended_early(interrupted_error(), started)
        try:
            with as_python_runs(filename):
                run = run_code(code, self.engine, filename, self.namespace, display_last=cell,
                               figure_scale=figure_scale, traces_later=True)
        except KeyboardInterrupt as interrupt:
            if not Stop.requested:  # raised by the script itself: an ordinary exception
                return self.ended_early(self._described(interrupt, filename), started)
            return self.ended_early(interrupted_error(), started)
        finally:
            Stop.end(self.watchdog)
            self.restore_streams()
            streams.flush_all()
        if isinstance(run.error, KeyboardInterrupt) and Stop.requested:
            # the app's Stop: the graph of what ran so far is drawn, the line it reached marked
            return self._result(run, self._stopped_at(run.error, filename), started)
        if isinstance(run.error, SyntaxError):
            quote_the_code(run.error, code)
        if isinstance(run.error, SystemExit) and run.error.code is not None and \
                not isinstance(run.error.code, int):  # python prints it as it ends
            sys.stderr.write(f"{run.error.code}\n")
            streams.flush_all()
        if run.error is not None and (clearer := self.engine.explain(run.error)):
            run.error.args = (clearer,)
            if isinstance(run.error, ImportError):  # its text is its msg, not its args
                run.error.msg = clearer
        if run.error is None and run.shown is not None:
            sys.stdout.write(notebook_lines.out_text(self.executions, run.shown))
            streams.flush_all()
        error = self._described(run.error, filename)
        if error is not None and run.error is not None:
            error.missing = self.engine.lacking(run.error)
        return self._result(run, error, started)

    def _result(self, run: EngineRun, error: RunError | None, started: float) -> RunResult:
        self.later_traces = run.later_traces
        return RunResult(self.engine.name, error=error, graph=run.graph, traces=run.traces,
                         traces_due=run.later_traces is not None,
                         figures_due=run.figures_due, elapsed=time.perf_counter() - started,
                         dropped_calls=run.dropped_calls, notes=self.notes + run.notes,
                         timings=run.timings)

    def traces_frame(self, run_id: str) -> bytes:
        """The last run's backward calls as a Traces frame (none, if making them failed:
        the graph is on screen already and the player has no steps)."""
        make, self.later_traces = self.later_traces, None
        try:
            traces = make() if make is not None else []
            return wire.encode(protocol.Traces(run_id, traces_to_json(traces, raw=True))
                               .to_wire())
        except Exception:  # noqa: BLE001 - (a value the frame cannot carry, say)
            return wire.encode(protocol.Traces(run_id, traces_to_json([], raw=True)).to_wire())

    def render_pictures(self, run_id: str) -> tuple[list, list[str], list[str], bool]:
        """The last run's figures drawn (inline_figures.render_pictures), Stop armed for
        run ``run_id`` as while its code ran; and whether Stop ended the drawing."""
        if not Stop.begin(self.watchdog, run_id):
            inline_figures.forget_pictures()
            return [], [], [], True
        try:
            return (*inline_figures.render_pictures(), False)
        except (KeyboardInterrupt, MemoryError):  # Stop, or the watchdog: none is shown
            inline_figures.forget_pictures()
            return [], [], [], True
        finally:
            Stop.end(self.watchdog)
            self.restore_streams()

    @classmethod
    def _stopped_at(cls, interrupt: KeyboardInterrupt, filename: str) -> RunError:
        """Stop's error, with the line of user code the run had reached."""
        error = interrupted_error()
        reached = cls._described(interrupt, filename).line
        if reached is not None:
            error.line = reached
            error.message = f"The run was interrupted at line {reached}."
        return error

    @staticmethod
    def _described(error: BaseException | None, filename: str) -> RunError | None:
        if error is None:
            return None
        if isinstance(error, SystemExit):
            return exit_error(error.code)
        return describe_exception(error, filename, _memory_limit)


def _run_safely(session: Session, request: protocol.Run) -> RunResult:
    """The run's reply; if the kernel's own work after user code fails, a reply saying so
    (the namespace is kept): the kernel must outlive anything a script leaves behind."""
    started = time.perf_counter()
    try:
        result = session.run(request.code, request.filename, request.fresh, request.cell,
                             request.id, request.figure_scale)
    except Exception as failure:  # noqa: BLE001
        streams.flush_all()
        result = session.ended_early(unshowable_error(failure), started)
    _leave_if_forked()
    return result


def _leave_if_forked() -> None:
    """A script that forked (``os.fork()``) returns here in the child too: that copy printed
    what the script gave it to print, and ends as a forked python would, without answering
    on the kernel's pipe (its reply would be read as the parent's)."""
    if os.getpid() != _KERNEL_PID:
        streams.flush_all()
        _exit_now(0)


def _result_frame(session: Session, result: RunResult, run_id: str) -> bytes:
    """The result as a frame naming its run; one that cannot cross the wire is replaced by
    one saying so."""
    try:
        return wire.encode(protocol.Result(run_id, result.to_json(raw=True)).to_wire())
    except Exception as failure:  # noqa: BLE001
        unsent = session.ended_early(unshowable_error(failure), time.perf_counter())
        return wire.encode(protocol.Result(run_id, unsent.to_json(raw=True)).to_wire())


_VECTORS = FigureVectors()


def serve(channel: KernelChannel, session: Session) -> None:
    try:
        _serve(channel, session)
    except OSError as error:
        if error.errno == errno.EBADF:  # the script closed the kernel's own pipes
            _end_kernel(channel, status=PIPES_CLOSED_STATUS)
        raise


def _serve(channel: KernelChannel, session: Session) -> None:
    while not isinstance(request := _next_request(channel), protocol.Shutdown):
        ANSWERS[type(request)](channel, session, request)


def _next_request(channel: KernelChannel) -> protocol.Message:
    """The next request; until one comes, the SVGs still due are drawn."""
    while _VECTORS and channel.requests.empty():
        _VECTORS.draw_one(channel)
    return channel.requests.get()


_RESERVE = MemoryReserve()


def _answer_run(channel: KernelChannel, session: Session, request: protocol.Run) -> None:
    picked = time.perf_counter()  # (the window reads these moments on its own clock: the
    _prepare_run(channel)         # machine's monotonic one, the same in both processes)
    channel.run_id = request.id
    with run_in_progress():  # (jedi's warm-up waits meanwhile: yielding.py)
        try:
            result = _run_safely(session, request)
        except KeyboardInterrupt:  # a Stop that landed as user code ended
            result = session.ended_early(interrupted_error(), time.perf_counter())
    _RESERVE.release()  # the room to answer in, whatever the script kept
    try:
        channel.restore_stdio()  # a script that closed descriptor 2 still gets its end
        channel.end_output(request.marker)
        result.timings.update({"@picked": picked, "@encoding": time.perf_counter()})
        channel.send_frame(_result_frame(session, result, request.id))
        # what the window needs later, after it has the result: the backward calls for the
        # player (as long as the graph again for a large run: the window draws its views
        # meanwhile and the player waits for them), the process's state for the next fresh
        # run (2-5 ms, so after the traces: no view waits for it), the figures as PNGs to
        # show and as SVGs for export (a tenth of a second and more each)
        try:
            if result.traces_due:
                channel.send_frame(session.traces_frame(request.id))
        finally:  # (a Stop pressed as the traces were made: the next run still learns it)
            channel.send(protocol.State(request.id, session.changed_the_process(),
                                        session.libraries()))
        if result.figures_due:
            channel.send_frame(pictures_frame(session.render_pictures, request.id))
            _VECTORS.add(channel, request.id)
    finally:
        channel.run_id = None
        _RESERVE.take()


def _answer_completion(channel: KernelChannel, session: Session,
                       request: protocol.Complete) -> None:
    found = completions(request.code, request.line, request.column, session.namespace,
                        session.engine.torch_module())
    channel.send(protocol.Completions(request.id, found))


# The requests the main thread answers (Interrupt is the channel's, read at once; Shutdown
# ends the loop): a request the protocol declares that is not here fails a test.
ANSWERS = {protocol.Run: _answer_run, protocol.Complete: _answer_completion}


def _prepare_run(channel: KernelChannel) -> None:
    """What an earlier script may have changed that the kernel relies on: descriptors 0-2
    and the handlers that turn Stop into KeyboardInterrupt."""
    channel.restore_stdio()
    signal.signal(signal.SIGINT, Stop.on_signal)
    processes.install_wake_handler(Stop.platform)


def _end_kernel(channel: KernelChannel, reason: str = "", status: int = 0) -> None:
    """End now, with the processes user code started; ``reason`` tells the app why."""
    if reason:
        with contextlib.suppress(OSError):
            channel.send(protocol.Ending(reason))
    processes.end_children()
    _exit_now(status)


def main(argv: list[str]) -> int:
    engine_name, device, memory_limit, *options = argv
    processes.unblock_app_signals()  # before any thread starts: they inherit the mask
    quick_hand_overs()
    inline_figures.use_inline_backend()  # before a spare imports matplotlib, or a script
    platform = Stop.platform = processes.current_platform()
    channel = KernelChannel(platform)
    channel.start(on_interrupt=lambda run_id: Stop.request("interrupt", run_id),
                  on_app_gone=lambda status: _end_kernel(channel, status=status))
    try:
        engine = make_engine(engine_name, device)
    except EngineError as error:
        channel.send(protocol.Failed(str(error)))
        return 2
    global _memory_limit
    _memory_limit = int(memory_limit)
    processes.cap_memory(_memory_limit, platform)
    processes.keep_freed_memory(platform)
    processes.forbid_signals_to(os.getppid(), platform)  # a script cannot stop the app
    streams.install(channel.send_output)
    _prepare_run(channel)
    watchdog = MemoryWatchdog(_memory_limit, on_over=lambda: Stop.request("memory"),
                              on_stuck=lambda: _end_kernel(channel, "memory"))
    watchdog.start()
    session = Session(engine, watchdog)
    channel.send(protocol.Ready(engine.name, engine.describe(), os.getpid(),
                                bool(getattr(engine, "cuda_available", False)),
                                channel.markers.to_json()))
    jedi, spare = "no-complete" not in options, "spare" in options
    if spare:  # nobody waits for it: everything warm before its state is read
        _warm_up(engine, jedi, _preloaded(options))
    session.remember_pristine()
    if jedi and not spare:
        # jedi's first completion takes a second: warm it up while the user reads the window,
        # standing aside for runs (yielding.py); its import's warnings filters are pristine state
        warm_up = threading.Timer(JEDI_WARM_UP_S, yielding_to_runs,
                                  args=(("jedi", "parso"), _warm_up_jedi, session))
        warm_up.name, warm_up.daemon = "playground-jedi", True
        warm_up.start()
    keep_out_of_collections()
    serve(channel, session)
    return 0


def _warm_up_jedi(session: Session) -> None:
    with contextlib.suppress(Exception):  # (what it loads is loaded on first use otherwise)
        session.engine.warm_up()  # the engine's first-use loads first, then jedi's
    completions("x", 1, 1, {}, session.engine.torch_module())
    ran = bool(session.executions or session.ran)
    if not ran:  # (read as the script's thread has it, not with the warm-up's profile function)
        with profile_put_aside():
            session.remember_pristine()
    session.long_lived.after_warm_up(ran)  # jedi's objects out of the collector's walks


# What a spare kernel runs while it waits: the code paths of a run (the engine's ops and
# backward, recording, building the graph, encoding a reply) imported and warm, so that the
# first run the user makes in it costs what later runs cost. It prints nothing, draws no
# random number and changes no setting.
WARM_UP = ("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\n"
           "y.backward()\n")


# ... and for a script that drew with matplotlib: pyplot imported (the spare's preload names
# only the library, ``matplotlib``: pyplot then took 0.2-0.6 s of the first run) and one figure
# made and closed, which the first figure of a process pays for (7 ms more than later ones).
FIGURE_WARM_UP = ("import matplotlib.pyplot as plt\nplt.figure()\nplt.subplot(121)\n"
                  "plt.plot([1, 2], [3, 4], 'o-', label='a')\nplt.title('t')\nplt.xlabel('x')\n"
                  "plt.legend()\nplt.close('all')\n")


def _preloaded(options: list[str]) -> list[str]:
    """The libraries a spare imports first: ``preload=sympy,matplotlib``."""
    given = [option[len("preload="):] for option in options if option.startswith("preload=")]
    return [name for name in given[0].split(",") if name] if given else []


def _warm_up(engine, jedi: bool, libraries: list[str]) -> None:
    with contextlib.suppress(Exception):
        engine.warm_up()
    for name in libraries:  # with the engine active: ``torch`` names the engine's module
        with contextlib.suppress(BaseException), engine.activate():
            importlib.import_module(name)
    with contextlib.suppress(Exception):  # a spare that could not warm up is only slower
        code = WARM_UP + (FIGURE_WARM_UP if "matplotlib" in libraries else "")
        run = run_code(code, engine, "<warm-up>", {"__name__": "__warm_up__"})
        wire.encode(protocol.Result("", RunResult(
            engine.name, graph=run.graph, traces=run.traces).to_json(raw=True)).to_wire())
        if jedi:
            completions("x", 1, 1, {}, engine.torch_module())


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
