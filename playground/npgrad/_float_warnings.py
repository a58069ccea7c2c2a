"""NumPy's floating-point warnings (0/0, log(0), an overflow to inf) kept out of sight where
the engine's own arithmetic meets them, as torch says nothing there; a script's own NumPy
calls still warn as NumPy would. Robust to a script's ``warnings.simplefilter("always")``
or ``"error"``, which a filter on the engine's modules is not."""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from collections.abc import Iterator

import numpy as np

# the playground package's folder: the engine, and the kernel reading the tensors after a run
_OWN_FOLDER = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class _Relay:
    """NumPy's "log" handler: it hears each floating-point error with NumPy's own words
    and drops the engine's; a script's is warned at the script's line, as NumPy warns."""

    def __init__(self) -> None:
        self._engine_files: dict[str, bool] = {}

    def write(self, message: str) -> None:
        caller = sys._getframe(1)  # (the ufunc is C: the frame that called it)
        if self._is_engine(caller.f_code.co_filename):
            return
        warnings.warn(message.strip().removeprefix("Warning: "), RuntimeWarning, stacklevel=2)

    def _is_engine(self, filename: str) -> bool:
        known = self._engine_files.get(filename)
        if known is None:
            # the backward formulas are compiled as "<MulBackward0 formula>"
            known = self._engine_files[filename] = filename.startswith(_OWN_FOLDER) or (
                filename.startswith("<") and filename.endswith(" formula>"))
        return known


_RELAY = _Relay()


@contextlib.contextmanager
def engine_arithmetic_quiet() -> Iterator[None]:
    """While a script runs on the engine: NumPy's warnings pass through the relay (an
    underflow stays silent, as NumPy's default has it)."""
    with np.errstate(divide="log", over="log", invalid="log", call=_RELAY):
        yield
