"""What python gives a script it runs: its folder first on ``sys.path``, its path as ``sys.argv``.

A script that imports its neighbours (``from model import GPT`` beside nanoGPT's train.py)
finds them, and argparse names it, as under ``python train.py``. Both are put back after the
run: the kernel's own ``sys.path`` is part of what tells a fresh run's process unchanged.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

from playground.kernel.switching import pythons_own_switching


@contextlib.contextmanager
def as_python_runs(filename: str) -> Iterator[None]:
    """Inside: the script's folder first on sys.path (when ``filename`` is a file's absolute
    path: an untitled script has none), sys.argv its path alone, python's switch interval."""
    folder = os.path.dirname(filename) if os.path.isabs(filename) and \
        os.path.isfile(filename) else None
    kept_argv = sys.argv
    sys.argv = [filename]
    if folder is not None:
        sys.path.insert(0, folder)
    try:
        with pythons_own_switching():
            yield
    finally:
        sys.argv = kept_argv
        if folder is not None and folder in sys.path:  # (the script may have removed it)
            sys.path.remove(folder)
