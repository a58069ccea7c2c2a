"""How soon a thread waiting for the GIL gets it, in the window and in the kernel.

A result read on one thread and taken on another (the kernel's reader, the runner, the UI
thread) waits for the interpreter's switch interval whenever a third thread runs Python
meanwhile: 5 ms by default, a third of a run's 16 ms budget, and several such waits a run
(measured: seeds at 25-30 ms run → graph drawn with 5 ms, 16-19 ms with 0.5 ms). The user's
script runs with python's own interval, so that its threads behave as under plain python."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

QUICK_SWITCH_S = 0.0005  # a hand-over well under a millisecond; still 500 µs of work a turn
PYTHONS_OWN_S = sys.getswitchinterval()


def quick_hand_overs() -> None:
    sys.setswitchinterval(QUICK_SWITCH_S)


@contextmanager
def pythons_own_switching() -> Iterator[None]:
    """Python's own interval inside (the user's script), the quick one again after."""
    sys.setswitchinterval(PYTHONS_OWN_S)
    try:
        yield
    finally:
        sys.setswitchinterval(QUICK_SWITCH_S)
