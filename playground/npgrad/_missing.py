"""What the engine says when tutorial code asks one of its torch modules for what it lacks."""

from __future__ import annotations

from collections.abc import Callable

MISSING_HINT = "in the built-in NumPy engine; if real torch has it, switch the engine to torch"


def missing_attribute(torch_name: str) -> Callable[[str], object]:
    """A module ``__getattr__`` that names the torch module (``torch.autograd``), not the
    engine's file, and says what to do."""

    def lacking(name: str):
        if name.startswith("__"):  # Python's own probes (__path__, __wrapped__): plain
            raise AttributeError(f"module {torch_name!r} has no attribute {name!r}")
        raise AttributeError(f"module {torch_name!r} has no attribute {name!r} {MISSING_HINT}")

    return lacking


def lacking_member(owner: object, name: str) -> AttributeError:
    """What an engine object raises for a name it lacks: torch's words, with the hint unless
    the name is private (Python's and libraries' own probes: copy, pickle, hasattr checks)."""
    text = f"'{type(owner).__name__}' object has no attribute {name!r}"
    return AttributeError(text if name.startswith("_") else f"{text} {MISSING_HINT}")


class SaysWhatItLacks:
    """A base for the engine's stand-ins of torch classes (distributions, schedulers,
    optimizers): a method of torch's they lack is named, with what to do."""

    def __getattr__(self, name: str):
        raise lacking_member(self, name)
