"""Warnings that point at the user's line, as torch's C++ warnings do, not at the engine's."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

_ENGINE = str(Path(__file__).resolve().parent)
# (the kernel's wrapper of module calls is the engine's too, to the user)
_OWN = (_ENGINE, str(Path(__file__).resolve().parent.parent / "engines"))


def warn_at_user_code(message: str, category: type[Warning] = UserWarning) -> None:
    """A warning that names the first frame outside the engine (the user's call)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_OWN):
        frame = frame.f_back
    if frame is None:
        warnings.warn(message, category, stacklevel=2)
        return
    warnings.warn_explicit(message, category, frame.f_code.co_filename, frame.f_lineno,
                           module=frame.f_globals.get("__name__"),
                           registry=frame.f_globals.setdefault("__warningregistry__", {}))
