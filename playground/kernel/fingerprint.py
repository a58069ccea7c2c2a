"""What a script may change in its kernel's process that a new process would not have.

Read when the kernel is ready and after each run: a fresh run after a run that changed any of
it goes to a fresh process (client.py's spare), so that ``torch.set_default_dtype``, a
``warnings.simplefilter("error")`` or a monkeypatched ``torch.Tensor.__mul__`` of one Run all
never reach the next; a run that changed nothing lets the next fresh run use the same, warm
process. What is read is cheap (about a millisecond): the working folder, the recursion limit,
the interpreter's hooks, thread switch interval, collector and resource limits, warnings
filters, ``sys.path``, the environment, NumPy's error and print settings, signal handlers,
threads a script left running, modules it imported from outside the installed libraries,
matplotlib's settings, the engine's own settings and the attributes of its main modules and classes
(``Engine.process_state``), and the modules loaded (none gone). What a C library keeps where
Python cannot see it goes unseen.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import sysconfig
import threading
import warnings

import numpy as np

from playground.engines.base import Attributes

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1",
                                                    "SIGALRM", "SIGCHLD", "SIGPIPE")
                 if hasattr(signal, name))
# Where installed libraries live (and the app itself): importing one of them changes nothing
# a fresh run sees.
_LIBRARY_FOLDERS = tuple({os.path.realpath(path) for key in ("stdlib", "platstdlib",
                                                              "purelib", "platlib")
                          if (path := sysconfig.get_paths().get(key))}
                         | {os.path.dirname(os.path.dirname(os.path.realpath(__file__)))})


def capture(engine) -> dict:
    """The process's state as a fresh run would find it (compare two with ``unchanged``)."""
    return {
        "cwd": _safe(os.getcwd),
        "recursion": sys.getrecursionlimit(),
        "interpreter": (sys.getswitchinterval(), sys.gettrace(), sys.getprofile(),
                        sys.excepthook, sys.displayhook, threading.excepthook,
                        gc.isenabled(), gc.get_threshold(), _safe(_limits)),
        "warnings": tuple(map(repr, warnings.filters)),
        "path": tuple(sys.path),
        "environ": dict(os.environ),
        "numpy": (tuple(sorted(np.geterr().items())),
                  tuple(sorted(map(repr, np.get_printoptions().items())))),
        "numpy attributes": Attributes([np]),
        # handlers compared by equality: the kernel installs its own again before each run
        "signals": tuple(_safe(lambda number=number: signal.getsignal(number))
                         for number in _SIGNALS),
        "threads": sorted(thread.name for thread in threading.enumerate()
                          if not thread.name.startswith("playground-")
                          and thread is not threading.main_thread()),
        "engine": _safe(engine.process_state),
        "matplotlib": _safe(_matplotlib_settings_changed),
        "modules": LoadedModules(),
    }


class LoadedModules:
    """The modules loaded when read. A later read must still have each of them: a script that
    sets ``sys.modules["threading"] = None`` (or deletes one) broke every later import of it
    in this process. More modules, or one module put in another's place (the kernel's own
    ``__main__`` at each fresh run), change nothing a fresh run sees."""

    def __init__(self) -> None:
        self.names = frozenset(name for name, module in list(sys.modules.items())
                               if module is not None)

    def unchanged_in(self, after) -> bool:
        return isinstance(after, LoadedModules) and self.names <= after.names


def _matplotlib_settings_changed() -> bool:
    """Whether a script changed matplotlib's settings (``plt.style.use``, ``rcParams[...]``)
    from those it was imported with: a fresh run must not draw in the last one's style."""
    matplotlib = sys.modules.get("matplotlib")
    if matplotlib is None:
        return False
    current, original = matplotlib.rcParams, matplotlib.rcParamsOrig
    return any(key != "backend" and value != dict.get(original, key)
               for key, value in dict.items(current))


def unchanged(before, after) -> bool:
    """Whether a state read later (``after``) is the one read first: values equal, and
    attributes (``Attributes``) still there as they were."""
    if isinstance(before, Attributes | LoadedModules):
        return before.unchanged_in(after)
    if isinstance(before, dict):
        return isinstance(after, dict) and before.keys() == after.keys() and all(
            unchanged(value, after[key]) for key, value in before.items())
    if isinstance(before, tuple) and any(isinstance(part, Attributes) for part in before):
        return isinstance(after, tuple) and len(before) == len(after) and all(
            unchanged(a, b) for a, b in zip(before, after, strict=True))
    return before == after


def user_modules(since: set[str]) -> list[str]:
    """Modules imported after ``since`` from outside the installed libraries (the script's
    own helpers): a fresh run must import them anew, edited or not."""
    return [name for name, library in _imported(since) if not library]


def libraries(since: set[str]) -> list[str]:
    """The installed libraries imported after ``since``, by their top-level names: a spare
    process imports them before its state is read, so that what importing them changes
    (sympy's warnings filter) is the state it starts from, and a script that imports them
    does not find its process changed run after run."""
    return sorted({name.partition(".")[0] for name, library in _imported(since) if library})


# whether a module file is an installed library's, by its path as the module names it:
# resolving the links of the hundreds of files a run that imports scipy loads is too slow
# to repeat after every run
_IN_LIBRARIES: dict[str, bool] = {}


def _imported(since: set[str]) -> list[tuple[str, bool]]:
    """(name, whether it is an installed library's) of each module imported after ``since``
    that has a file."""
    found = []
    for name in set(sys.modules) - since:
        path = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(path, str):
            library = _IN_LIBRARIES.get(path)
            if library is None:
                library = _IN_LIBRARIES[path] = \
                    os.path.realpath(path).startswith(_LIBRARY_FOLDERS)
            found.append((name, library))
    return found


def _limits() -> tuple:
    """The resource limits a script may lower for its process (files open, stack)."""
    import resource

    return tuple(resource.getrlimit(getattr(resource, name))
                 for name in ("RLIMIT_NOFILE", "RLIMIT_STACK", "RLIMIT_CORE")
                 if hasattr(resource, name))


def _safe(read):
    try:
        return read()
    except Exception as error:  # noqa: BLE001 - what cannot be read is compared as its error
        return repr(error)
