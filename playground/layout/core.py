"""Loads the layout's C core (_core.c) when setup.py could build it; None otherwise."""

from __future__ import annotations

CORE_API = 1  # what this package expects of _core.c


def _load():
    """The C core, when setup.py built a current one here."""
    try:
        from playground.layout import _core
    except ImportError:  # no C compiler at install time: the Python twin does the same
        return None
    # a build left over from older sources: rebuild with `pip install -e .`; Python meanwhile
    return _core if getattr(_core, "API", None) == CORE_API else None


# Read as ``core.compiled`` at each use, so that tests (and the benchmark) can set it to None
# and run the Python twin.
compiled = _load()
