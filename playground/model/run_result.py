"""RunResult: what one run of user code produced, as the views and the CLI receive it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from playground.model.arrays import ArrayData, json_keys
from playground.model.figure import MAX_FIGURES, Figure
from playground.model.graph import Graph, GraphEdge, GraphNode
from playground.model.trace import BackwardStep, BackwardTrace, traces_from_json, traces_to_json

SCHEMA = "autograd-playground/run-result"  # named in the JSON: a reply is checked by it
VERSION = 1

# Why a run did not finish normally.
ERROR_KINDS = ("exception", "syntax", "exit", "interrupted", "timeout", "crash", "memory")


@dataclass
class RunError:
    """One sentence for the user, plus the traceback of user code where there is one."""

    kind: str
    message: str
    exception_type: str | None = None
    traceback: str = ""
    line: int | None = None
    exit_code: int | None = None
    # what the engine lacks that torch has ("torch.linalg.lstsq", "Tensor.cummax"), when that
    # is why the run stopped: the window offers the torch engine, ``run --engine auto`` takes it
    missing: str = ""

    def to_json(self) -> dict:
        return dict(self.__dict__)

    @classmethod
    def from_json(cls, data: dict) -> RunError:
        return cls(**data)


@dataclass
class RunResult:
    """Output (capped), error, graph, backward traces and timing of one run."""

    engine: str
    output: str = ""
    output_truncated: bool = False
    error: RunError | None = None
    graph: Graph | None = None
    traces: list[BackwardTrace] = field(default_factory=list)
    # the kernel sends the backward calls after the result (a Traces message), to be put in
    # ``traces`` when they come
    traces_due: bool = False
    figures: list[Figure] = field(default_factory=list)  # matplotlib's, as the kernel rendered them
    # figures the run showed that the kernel draws after sending the result (they come as
    # a Pictures message, then are in ``figures``)
    figures_due: int = 0
    run: str = ""  # the id of the run (set by the kernel's client; not saved)
    elapsed: float = 0.0
    dropped_calls: int = 0  # earlier backward calls the kernel did not keep (a long loop)
    notes: list[str] = field(default_factory=list)  # the kernel's remarks (lines it skipped)
    # seconds each stage took (exec, build, wire, decode), for benchmarks/live_latency.py
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self, raw: bool = False) -> dict:
        return {
            "schema": SCHEMA, "version": VERSION,
            "engine": self.engine, "output": self.output,
            "output_truncated": self.output_truncated,
            "error": None if self.error is None else self.error.to_json(),
            "graph": None if self.graph is None else self.graph.to_json(raw),
            "traces": traces_to_json(self.traces, raw), "traces_due": self.traces_due,
            "figures": [figure.to_json(raw) for figure in self.figures],
            "figures_due": self.figures_due,
            "elapsed": self.elapsed, "dropped_calls": self.dropped_calls,
            "notes": list(self.notes), "timings": dict(self.timings),
        }

    @classmethod
    def from_json(cls, data: dict) -> RunResult:
        if data.get("schema") != SCHEMA or data.get("version") != VERSION:
            raise ValueError(f"not a version-{VERSION} Autograd Playground run result")
        return cls(
            engine=data["engine"], output=data.get("output", ""),
            output_truncated=data.get("output_truncated", False),
            error=None if data["error"] is None else RunError.from_json(data["error"]),
            graph=None if data["graph"] is None else Graph.from_json(data["graph"]),
            traces=traces_from_json(data["traces"]),
            traces_due=bool(data.get("traces_due", False)),
            figures=[Figure.from_json(f) for f in data.get("figures", [])],
            figures_due=min(max(int(data.get("figures_due", 0)), 0), MAX_FIGURES),
            elapsed=data["elapsed"], dropped_calls=int(data.get("dropped_calls", 0)),
            notes=[str(note) for note in data.get("notes", [])],
            timings=_timings(data.get("timings")),
        )


def _timings(data) -> dict[str, float]:
    """Stage timings from the kernel; anything that is not name → seconds is dropped."""
    if not isinstance(data, dict):
        return {}
    return {str(name): float(seconds) for name, seconds in list(data.items())[:16]
            if isinstance(seconds, int | float) and not isinstance(seconds, bool)}


# What reply_hook turns into model objects, recognised by their JSON keys (arrays.json_keys):
# by the number of keys first, then the keys exactly.
_HOOKED = (ArrayData, GraphNode, GraphEdge, BackwardStep)
_BY_SIZE: dict[int, list[tuple[frozenset, Callable[[dict], object]]]] = {}
for _record in _HOOKED:
    _BY_SIZE.setdefault(len(json_keys(_record)), []).append(
        (frozenset(json_keys(_record)), _record.from_json))


_BY_TAG: dict[str, Callable[[list], object]] = {
    record.WIRE_TAG: record.from_wire for record in _HOOKED}


def reply_hook(value: dict):
    """json's ``object_hook`` for a kernel's reply: array summaries, graph nodes and edges
    and backward steps become model objects as soon as they are read, and their dicts go
    (decoding a large result to dicts first took several times the frame's size). On the
    wire they come in their compact form (arrays.json_keys); in a file, as dicts."""
    if len(value) == 1:
        for tag, items in value.items():
            make = _BY_TAG.get(tag)
            if make is not None:
                return make(items)
    for keys, make in _BY_SIZE.get(len(value), ()):
        if value.keys() == keys:
            return make(value)
    return value
