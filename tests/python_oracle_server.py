"""The python oracle's server (tests/python_oracle.py): imports torch once, then runs each
script it is sent in a forked child that behaves as ``python NAME`` would.

Requests are JSON lines on stdin ({"script": absolute path, "timeout": seconds}); each answer
is a JSON line on the descriptor that was stdout at start: the files holding the child's
stdout and stderr, and its exit status. The server itself never writes to sys.stdout, so the
children inherit it untouched.
"""

import atexit
import builtins
import contextlib
import importlib.machinery
import io
import json
import os
import sys
import tempfile
import threading
import time
import types

import numpy

with contextlib.suppress(ImportError):  # the point of the server: 1.5 s saved per script
    import torch  # noqa: F401


def exit_status(code) -> int:
    """What python exits with for ``sys.exit(code)``, printing a message as it does."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def run_as_main(script: str) -> int:
    """Run ``script`` as python runs its main script, and return the exit status."""
    module = types.ModuleType("__main__")
    module.__file__ = script
    module.__cached__ = None
    module.__builtins__ = builtins
    module.__loader__ = importlib.machinery.SourceFileLoader("__main__", script)
    sys.modules["__main__"] = module
    with open(script, "rb") as source:
        code = compile(source.read(), script, "exec", dont_inherit=True)
    try:
        exec(code, module.__dict__)
    except SystemExit as ending:
        return exit_status(ending.code)
    except BaseException as error:  # noqa: BLE001 - python reports every one the same way
        error.with_traceback(error.__traceback__.tb_next)  # from the script's first frame
        sys.excepthook(type(error), error, error.__traceback__)
        return 1
    return 0


def finish(status: int) -> None:
    """Python's own ending: wait for threads, run atexit, flush the streams, exit."""
    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - python reports it and exits 120
            status = 120
    os._exit(status)


def become_the_script(script: str, stdout: str, stderr: str) -> None:
    """In the child: the script's folder, argv, path and descriptors, then run it."""
    folder = os.path.dirname(script)
    os.chdir(folder)
    for fd, (name, flags) in enumerate(((os.devnull, os.O_RDONLY), (stdout, os.O_WRONLY),
                                        (stderr, os.O_WRONLY))):
        opened = os.open(name, flags)
        os.dup2(opened, fd)
        os.close(opened)
    # the server's stdin object may hold buffered requests: a script reads /dev/null
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "r", closefd=False)), encoding=sys.stdin.encoding,
        errors=sys.stdin.errors)
    sys.argv = [os.path.basename(script)]
    sys.path[0] = folder
    reseed()
    finish(run_as_main(script))


def reseed() -> None:
    """Fresh seeds where a new process draws them at import (torch's default generator,
    NumPy's global one, the random module): a child must not repeat its siblings' numbers."""
    import random

    random.seed()
    numpy.random.seed()
    if "torch" in sys.modules:
        sys.modules["torch"].seed()


def run_one(script: str, timeout: float) -> dict:
    names = []
    for _ in range(2):
        descriptor, name = tempfile.mkstemp(prefix="oracle-")
        os.close(descriptor)
        names.append(name)
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        try:
            become_the_script(script, *names)
        finally:
            os._exit(70)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            _, status = os.waitpid(pid, 0)
            break
        time.sleep(0.002)
    return {"stdout": names[0], "stderr": names[1],
            "status": os.waitstatus_to_exitcode(status)}


def serve() -> None:
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    for line in sys.stdin:
        request = json.loads(line)
        answers.write(json.dumps(run_one(request["script"], request["timeout"])) + "\n")
        answers.flush()


if __name__ == "__main__":
    serve()
