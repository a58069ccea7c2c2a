"""Background work in the kernel that stands aside while a run is in progress.

The kernel warms jedi up in a thread of its own a second after it starts (its first
completion takes about a second). A run made meanwhile shared the interpreter with it: the
script runs with python's own switch interval, so each of its blocking calls (a printed line's
write into the output pipe) waited up to 5 ms to get the GIL back from jedi (measured: a
tutorial of 11 printed lines, exec 2.6 -> 11 ms, in the benchmark's first seconds). Now the
background thread waits, at its next call into its own packages' code, until the run is over.
It never waits inside an import: the module's lock it holds could be the next one the script
needs. The profile function costs the warm-up itself twice its time (1 -> 2 s here), in the
background, where nobody waits for it yet.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

_RUNS_OVER = threading.Event()
_RUNS_OVER.set()


@contextmanager
def run_in_progress() -> Iterator[None]:
    """While inside, background work made with ``yielding_to_runs`` waits."""
    _RUNS_OVER.clear()
    try:
        yield
    finally:
        _RUNS_OVER.set()


def yielding_to_runs(packages: tuple[str, ...], work: Callable, *args):
    """``work(*args)`` on this thread, waiting while a run is in progress at each call it
    makes into the code of ``packages`` (folders named so, anywhere on the path)."""
    folders = tuple(f"{separator}{name}{separator}" for name in packages
                    for separator in {os.sep, "/"})

    def stand_aside(frame: FrameType, event: str, _argument) -> None:
        if event == "call" and not _RUNS_OVER.is_set() and safe_to_wait(frame, folders):
            _RUNS_OVER.wait()

    sys.setprofile(stand_aside)  # (this thread's alone)
    try:
        return work(*args)
    finally:
        sys.setprofile(None)


@contextmanager
def profile_put_aside() -> Iterator[None]:
    """Inside, this thread has no profile function: what reads the process's state here
    (``sys.getprofile()`` is the calling thread's) reads it as a script's thread has it."""
    kept = sys.getprofile()
    sys.setprofile(None)
    try:
        yield
    finally:
        sys.setprofile(kept)


def safe_to_wait(frame: FrameType, folders: tuple[str, ...]) -> bool:
    """Whether the frame's code is in one of ``folders`` and no import is under way below it."""
    if not any(folder in frame.f_code.co_filename for folder in folders):
        return False
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return False
        frame = frame.f_back
    return True
