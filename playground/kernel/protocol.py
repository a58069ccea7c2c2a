"""Every message between the window and its kernel, declared once as typed records.

A message travels as a wire frame (``wire.py``): a dict whose ``op`` names its kind and whose
other keys are the record's fields. The window sends requests (``REQUESTS``); the kernel sends
replies (``REPLIES``). ``read`` turns a frame back into its record and refuses one that is not
a message of this protocol: the kernel runs user code, which can write to its pipes, so the
window checks what arrives. A new message is one record here, listed in its table.
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, dataclass, field, fields
from typing import ClassVar
from typing import get_args as _get_args

VERSION = 5  # the kernel says it in Ready; a window speaking another version refuses it
# (5: a result's nodes, edges, arrays and steps in their compact form, arrays.json_keys)


class ProtocolError(ValueError):
    """A frame that is not a message of this protocol (or not of the expected side)."""


@dataclass(frozen=True)
class Message:
    OP: ClassVar[str] = ""

    def to_wire(self) -> dict:
        """The frame's dict: ``op`` and every field."""
        return {"op": self.OP, **{item.name: getattr(self, item.name) for item in fields(self)}}


# ----- the window's requests ----------------------------------------------------------------
@dataclass(frozen=True)
class Run(Message):
    """Run ``code``: a whole script (``fresh``: in a new namespace) or a notebook cell."""

    OP: ClassVar[str] = "run"
    code: str
    filename: str
    fresh: bool
    marker: str  # what ends this run's output on the output pipe
    cell: bool
    id: str      # the run's result names it; a Stop names it too
    figure_scale: float = 1.0  # the window's device pixel ratio: matplotlib figures' PNGs


@dataclass(frozen=True)
class Complete(Message):
    """Completions at a 1-based line and 0-based column of ``code``."""

    OP: ClassVar[str] = "complete"
    code: str
    line: int
    column: int
    id: str


@dataclass(frozen=True)
class Interrupt(Message):
    """Stop run ``id`` (read at once by the kernel's request thread, even mid-run)."""

    OP: ClassVar[str] = "interrupt"
    id: str


@dataclass(frozen=True)
class Shutdown(Message):
    OP: ClassVar[str] = "shutdown"


# ----- the kernel's replies -------------------------------------------------------------------
@dataclass(frozen=True)
class Ready(Message):
    """The kernel's first frame: its engine is made and it takes requests."""

    OP: ClassVar[str] = "ready"
    engine: str
    description: str
    pid: int
    cuda: bool
    stderr_markers: list | None  # streams.StreamMarkers, bracketing sys.stderr's lines
    version: int = VERSION


@dataclass(frozen=True)
class Failed(Message):
    """The kernel could not make its engine (instead of Ready)."""

    OP: ClassVar[str] = "failed"
    message: str


@dataclass(frozen=True)
class Result(Message):
    """Run ``id``'s RunResult; its State, its backward calls' Traces (when it says
    ``traces_due``), then its figures' Pictures and Vectors follow."""

    OP: ClassVar[str] = "result"
    id: str
    result: dict  # RunResult.to_json(raw=True)


@dataclass(frozen=True)
class State(Message):
    """Whether run ``id`` changed its process (fingerprint.py: the next fresh run then goes
    to a new one), and the libraries the runs imported (a spare imports them too)."""

    OP: ClassVar[str] = "state"
    id: str
    dirty: bool = True
    libraries: list = field(default_factory=list)


@dataclass(frozen=True)
class Traces(Message):
    """Run ``id``'s backward calls as the player steps through them
    (``model.trace.traces_to_json(raw=True)``), sent after its Result: the graph is drawn
    while they are read, and a large run's are half its reply."""

    OP: ClassVar[str] = "traces"
    id: str
    traces: dict


@dataclass(frozen=True)
class Pictures(Message):
    """Run ``id``'s figures as PNGs (``Figure.to_json(raw=True)`` each), drawn after its
    Result was sent; notes on them, a line for each that failed to draw, and whether Stop
    ended the drawing."""

    OP: ClassVar[str] = "pictures"
    id: str
    figures: list
    notes: list = field(default_factory=list)
    failures: list = field(default_factory=list)
    stopped: bool = False


@dataclass(frozen=True)
class Vectors(Message):
    """The SVGs of run ``id``'s figures, drawn after its Result was sent (for export):
    ``[number, svg bytes as a uint8 array or None, why none]`` each."""

    OP: ClassVar[str] = "vectors"
    id: str
    figures: list


@dataclass(frozen=True)
class Completions(Message):
    OP: ClassVar[str] = "completions"
    id: str
    items: list  # [name, kind] pairs


@dataclass(frozen=True)
class Ending(Message):
    """The kernel is ending itself (``reason``: "memory")."""

    OP: ClassVar[str] = "ending"
    reason: str


@dataclass(frozen=True)
class Broken(Message):
    """Not sent by anyone: the window's own note that the kernel's pipe went out of step."""

    OP: ClassVar[str] = "broken"
    detail: str


REQUESTS: dict[str, type[Message]] = {kind.OP: kind for kind in (Run, Complete, Interrupt,
                                                                 Shutdown)}
REPLIES: dict[str, type[Message]] = {kind.OP: kind for kind in (Ready, Failed, Result,
                                                                State, Traces, Pictures,
                                                                Vectors,
                                                                Completions,
                                                                Ending)}


def read(frame, kinds: dict[str, type[Message]]) -> Message:
    """The record ``frame`` holds, one of ``kinds`` (REQUESTS or REPLIES), its fields of their
    declared types; ProtocolError for anything else. Keys it does not declare are ignored."""
    if not isinstance(frame, dict):
        raise ProtocolError(f"a frame that is not a message ({type(frame).__name__})")
    kind = kinds.get(frame.get("op"))  # type: ignore[arg-type]
    if kind is None:
        raise ProtocolError(f"a frame of unknown kind {str(frame.get('op'))[:40]!r}")
    hints = _HINTS[kind]
    values = {}
    for item in fields(kind):
        if item.name not in frame:
            if item.default is MISSING and item.default_factory is MISSING:
                raise ProtocolError(f"a {kind.OP!r} frame without its {item.name!r}")
            continue
        value = frame[item.name]
        if not _is_a(value, hints[item.name]):
            raise ProtocolError(f"a {kind.OP!r} frame whose {item.name!r} is "
                                f"{type(value).__name__}")
        values[item.name] = value
    return kind(**values)


# read now: a script may replace typing's or dataclasses' functions while the kernel reads
_HINTS = {kind: typing.get_type_hints(kind) for kind in (*REQUESTS.values(), *REPLIES.values(),
                                                           Broken)}


def _is_a(value, hint) -> bool:
    """Whether ``value`` is of the declared type (a bool is no int here, as in JSON)."""
    if isinstance(hint, types.UnionType):
        return any(_is_a(value, part) for part in _get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)
