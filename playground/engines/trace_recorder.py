"""Record each backward()/autograd.grad() of user code as steps on live nodes (both engines).

Engines feed a TraceRecorder while user code runs; after the run, ``to_model`` turns the live
nodes into the ids of the run's Graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from playground.engines.graph_builder import Snapshot
from playground.model import ArrayData, BackwardStep, BackwardTrace
from playground.model.arrays import FULL_VALUES_LIMIT

# A training loop calls backward() thousands of times; recording a call costs two to three
# times the call (torch: some 0.5 ms more for a 14-node graph, most of it in the hooks).
# Which calls are recorded is decided by their count alone, so a script keeps the same calls
# on both engines and on any machine: the first ALL_CALLS calls are all recorded (so a loop
# of up to that many keeps its last call), later ones only on a grid (call - FIRST_CALLS a
# multiple of a stride). Of the recorded calls the player keeps the first FIRST_CALLS, those
# on the grid, whose stride doubles whenever more than SAMPLED_CALLS lie on it, and the
# newest. A loop of N > ALL_CALLS calls records about ALL_CALLS + SAMPLED_CALLS *
# log2(N / ALL_CALLS) / 2 of them: some 530 of 10,000. (With 100 first calls, 174 of 30,000
# were recorded, but a 200-step loop, as tutorials write them, lost its last call.)
ALL_CALLS = 500
FIRST_CALLS = 3
SAMPLED_CALLS = 16
KEPT_STEPS = 30_000  # and never more steps than this in all
# Elements of step values the kept calls hold whole at once; past them a step's values are a
# summary taken at once (shape, statistics, first values): backprop through 3,000 steps of an
# RNN held 2.5 GB and made a reply larger than the wire's 512 MB limit.
TRACE_VALUES = 1_000_000
# The newest call holds up to this many elements whole before it is known to be kept (its
# values then count against TRACE_VALUES); past them, summaries at once.
CALL_VALUES = 1_000_000
# Of those, the elements the calls finally kept send whole (the first calls' first); the rest
# go as summaries, made then, for the kept calls alone (most recorded calls are let go
# unread): 20 steps of a small transformer sent 29 MB when all million went (now under 5 MB).
SENT_VALUES = 50_000
# A step value this small is always sent whole (its summary would be no smaller) ...
ALWAYS_WHOLE = 16
# ... and a summary keeps this many first elements (the replay's tags show three), its
# numbers to this many significant digits (the replay shows four).
TRACE_PREVIEW = 4
SUMMARY_DIGITS = 6
# A call keeps its raw log unread (most are let go unread: a loop's calls leave the grid as its
# stride doubles) only while the values of the raw logs kept are this small in all
DEFERRED_VALUES = 1_000_000


@dataclass(slots=True)
class LiveStep:
    """A step still holding its node object (so its id stays valid until the graph exists)."""

    node: Any
    # values as EngineView.snapshot took them: summarised only for the calls kept
    incoming: list[ArrayData | Snapshot | None]
    outgoing: list[ArrayData | Snapshot | None] = field(default_factory=list)
    grad_before: ArrayData | Snapshot | None = None
    grad_after: ArrayData | Snapshot | None = None


@dataclass(slots=True)
class LiveTrace:
    """One call's steps. ``follows``: a later call that ran the same nodes' kinds in the same
    order (the next iteration of a loop); this call is drawn on that one's nodes, so the graph
    holds one copy of a loop's graph, not one per iteration, and no old graph is kept alive."""

    kind: str
    roots: list[Any]
    steps: list[LiveStep] = field(default_factory=list)
    follows: LiveTrace | None = None
    call: int = 0       # which backward call of the run it was (1: the first)
    failed: str = ""    # the error the call raised ("ValueError: ..."), if it did
    held: int = 0       # elements of its steps' values held whole (TRACE_VALUES)
    counted: int = 0    # its steps, as counted against KEPT_STEPS once a newer call began
    pending: int = 0    # ... held whole while it is the newest call, not yet counted there
    # _signature's, once read (its nodes do not change; kept when a fold lets them go)
    signature: tuple | None = None
    # the engine's raw log of its steps, read into ``steps`` by ``read`` only if the call is
    # kept to the end of the run (reading each call on the grid took a 200-step loop 3 ms,
    # and most of them leave the grid later); ``raw``: the elements its arrays hold
    log: list | None = None
    read: Callable[[TraceRecorder, tuple], LiveStep] | None = None
    raw: int = 0

    def nodes(self) -> list:
        """Its steps' nodes, in order (read from the raw log while it is one)."""
        if self.log is not None:
            return [entry[0] for entry in self.log]
        return [step.node for step in self.steps]


class TraceRecorder:
    """Collects the traces of one run; ``array`` turns an engine tensor into ArrayData (or a
    Snapshot of it, summarised when the trace is kept: EngineView.snapshot)."""

    def __init__(self, array: Callable[[Any], ArrayData | Snapshot],
                 keep_steps: int = KEPT_STEPS) -> None:
        self.array = array
        self.keep_steps = keep_steps
        # the line of the user's code that made a live node (source_lines), where known: two
        # calls are one loop's iterations only when their nodes came from the same lines
        self.place: Callable[[Any], int | None] = lambda _node: None
        self.traces: list[LiveTrace] = []
        self.calls = 0    # backward calls of the run so far
        self.dropped = 0  # calls not recorded, or recorded and let go
        self.held = 0     # elements of step values held whole by the kept calls
        self._stride = 1  # the grid's: calls past the first are sampled one in this many
        self._older_steps = 0  # the ``counted`` steps of every call but the newest
        self._raw = 0  # elements held by the kept calls' raw logs
        self._reading: LiveTrace | None = None  # a call read as if newest (``settle``)

    def optional_array(self, tensor) -> ArrayData | Snapshot | None:
        """Called inside the user's backward (``array`` is EngineView's, which never raises:
        a tensor it cannot read keeps its shape and dtype); past the kept calls' budget of
        whole values, a summary."""
        if tensor is None:
            return None
        return self._budgeted(self.array(tensor))

    def kept_array(self, array: np.ndarray | None, dtype) -> ArrayData | Snapshot | None:
        """An array nobody changes any more (a step's own gradient, or a copy): held as it
        is, no copy; summarised at once when large (it would pin its memory) or past the
        budget."""
        if array is None:
            return None
        if array.size > FULL_VALUES_LIMIT:
            return summary(array, dtype)
        return self._budgeted(Snapshot(array, dtype))

    def _budgeted(self, value: ArrayData | Snapshot) -> ArrayData | Snapshot:
        """Held whole while the call is the newest (most are let go at the next call, unread:
        summarising each of their values cost a loop's recorded call a millisecond); past
        CALL_VALUES of one call, a summary at once."""
        if value.__class__ is Snapshot and self.traces:
            size = value.array.size
            newest = self._reading or self.traces[-1]
            if newest.pending + size > CALL_VALUES:
                return summary(value.array, value.dtype)
            newest.pending += size
        elif value.__class__ is ArrayData and len(value.preview) > TRACE_PREVIEW:
            value.preview = [_rounded(v) for v in value.preview[:TRACE_PREVIEW]]  # summarised
            value.minimum, value.maximum, value.mean = (  # by EngineView.snapshot
                _rounded(value.minimum), _rounded(value.maximum), _rounded(value.mean))
        return value

    def declines(self) -> bool:
        """A new backward call: True when it is not recorded (the engine then runs it as if
        nothing watched, without even gathering its roots); else ``start`` follows."""
        self.calls += 1
        if self.calls <= ALL_CALLS or self._on_grid(self.calls):
            return False
        self.dropped += 1
        return True

    def _on_grid(self, call: int) -> bool:
        return call <= FIRST_CALLS or (call - FIRST_CALLS) % self._stride == 0

    def start(self, kind: str, roots: list) -> LiveTrace:
        """The trace to fill for a call ``declines`` took; the call ends with ``finish``."""
        # (the newest call off the grid is let go by _thin below: folding into it would be
        # undone there, at the cost of its signature and of re-pointing the earlier call)
        if len(self.traces) >= 2 and self._on_grid(self.traces[-1].call):
            self._fold_into_next(self.traces[-2], self.traces[-1])
        trace = LiveTrace(kind, list(roots), call=self.calls)
        if self.traces:
            older = self.traces[-1]
            older.counted = len(older.steps) + len(older.log or ())
            self._older_steps += older.counted
        self.traces.append(trace)
        self._thin()
        # the last call, if kept: into the budget now (only the newest call holds values not
        # yet counted, so no other is looked at: this runs at every call of a loop)
        if len(self.traces) > 1 and self.traces[-2].pending:
            self._settle_values(self.traces[-2])
        return trace

    def _settle_values(self, trace: LiveTrace) -> None:
        """A kept call's values whole while the run's budget (TRACE_VALUES) lasts, then
        summaries."""
        for step in trace.steps:
            step.incoming = [self._held(value, trace) for value in step.incoming]
            step.outgoing = [self._held(value, trace) for value in step.outgoing]
            step.grad_before = self._held(step.grad_before, trace)
            step.grad_after = self._held(step.grad_after, trace)
        trace.pending = 0

    def _held(self, value, trace: LiveTrace):
        if value.__class__ is not Snapshot:
            return value
        size = value.array.size
        if self.held + size > TRACE_VALUES:
            return summary(value.array, value.dtype)
        self.held += size
        trace.held += size
        return value

    def logged(self, trace: LiveTrace, log: list, read: Callable[[TraceRecorder, tuple],
                                                                  LiveStep]) -> None:
        """The steps an engine's fast path logged for ``trace``'s call: kept raw, to be read
        if the call is kept to the end of the run; read now where the raw logs would hold
        too many values (their arrays whole: a large call's would pin memory)."""
        elements = _elements(log)
        if self._raw + elements > DEFERRED_VALUES:
            trace.steps.extend(read(self, entry) for entry in log)
        else:
            trace.log, trace.read, trace.raw = log, read, elements
            self._raw += elements

    def _read_log(self, trace: LiveTrace) -> None:
        """A raw log read into steps, their values counted as the newest call's would be."""
        if trace.log is not None:
            log, trace.log = trace.log, None
            self._raw -= trace.raw
            self._reading, trace.raw = trace, 0
            try:
                trace.steps.extend(trace.read(self, entry) for entry in log)
            finally:
                self._reading = None

    def finish(self, trace: LiveTrace, error: BaseException | None = None) -> None:
        """The call ended; ``error`` is what it raised, if anything (the player says so)."""
        if error is not None:
            trace.failed = f"{type(error).__name__}: {error}"

    def _thin(self) -> None:
        """Keep the first calls, the grid's sample and the newest call (and the step cap).

        Every call but the newest was on the grid after the last thinning, so only the call
        before the newest can be off it now, unless the stride doubles (which is rare):
        this runs at every backward call of a loop and must not walk the kept calls."""
        traces = self.traces
        if len(traces) > 1 and not self._on_grid(traces[-2].call):
            self._let_go(traces[-2])
            traces = self.traces
        first = sum(t.call <= FIRST_CALLS for t in traces[:FIRST_CALLS])
        if len(traces) - 1 - first > SAMPLED_CALLS:
            newest = traces[-1]
            while sum(t.call > FIRST_CALLS and self._on_grid(t.call)
                      for t in traces if t is not newest) > SAMPLED_CALLS:
                self._stride *= 2
            for trace in [t for t in traces if t is not newest and not self._on_grid(t.call)]:
                self._let_go(trace)
        newest = self.traces[-1]
        while len(self.traces) > 1 and self._older_steps + len(newest.steps) + \
                len(newest.log or ()) > self.keep_steps:
            self._let_go(self.traces[0])

    def _let_go(self, trace: LiveTrace) -> None:
        """Drop a recorded call; a call drawn on its nodes takes them over. (A call only ever
        follows the one after it, so only the call before ``trace`` can: this runs at most
        calls of a loop, for the call before the newest, and must not walk the kept calls.)"""
        traces = self.traces
        at = _position(traces, trace)
        del traces[at]
        self.dropped += 1
        self._raw -= trace.raw
        self.held -= trace.held
        self._older_steps -= trace.counted
        if at and traces[at - 1].follows is trace:
            other = traces[at - 1]
            if trace.follows is not None:
                other.follows = trace.follows
            else:  # same node names in the same order (that is what folding checked)
                other.follows, other.roots = None, trace.roots
                nodes = trace.nodes()
                if other.log is not None:
                    other.log = [(node, *entry[1:])
                                 for entry, node in zip(other.log, nodes, strict=True)]
                    return
                for step, node in zip(other.steps, nodes, strict=True):
                    step.node = node

    def _fold_into_next(self, earlier: LiveTrace, later: LiveTrace) -> None:
        """Let a loop's earlier call point at the next one's nodes instead of its own."""
        if earlier.follows is None and \
                _signature(earlier, self.place) == _signature(later, self.place):
            earlier.follows = later
            earlier.roots = []
            for step in earlier.steps:
                step.node = None
            if earlier.log is not None:  # (nor its raw log: no old graph is kept alive)
                earlier.log = [(None, *entry[1:]) for entry in earlier.log]

    def settle(self, final_roots: list) -> None:
        """At the end of the run, once, before ``nodes`` and ``to_model`` read the traces: the
        last calls of a loop fold too (``start`` folds a call only when the one after the next
        begins), and the latest recorded call is drawn on the graph the script ended with.
        The kept calls' raw logs are read later, by ``to_model`` (in the kernel, once the
        result is on its way: reading them was half the time of a training loop's build)."""
        for earlier, later in reversed(list(zip(self.traces, self.traces[1:], strict=False))):
            self._fold_into_next(earlier, later)
        self._draw_latest_on(final_roots)

    def _read_values(self) -> None:
        """The kept calls' logs read into steps and their values settled, once."""
        for trace in self.traces:  # in order: the first calls' values are held whole first
            self._read_log(trace)
            if trace.pending:
                self._settle_values(trace)

    def _draw_latest_on(self, final_roots: list) -> None:
        """When the loop's last calls went unrecorded, the latest recorded one is drawn on the
        final graph (its variables' grad_fns), if that graph has the same shape; else that
        call's own old graph would be drawn as a second copy."""
        latest = self.traces[-1] if self.traces else None
        if latest is None or latest.call == self.calls or latest.follows is not None:
            return
        for root in final_roots:
            pairs = _same_shape(latest.roots, [root])
            if pairs is not None and all(id(node) in pairs for node in latest.nodes()):
                latest.roots = [root]
                if latest.log is not None:  # (not read yet)
                    latest.log = [(pairs[id(entry[0])], *entry[1:]) for entry in latest.log]
                for step in latest.steps:
                    step.node = pairs[id(step.node)]
                return

    def nodes(self) -> list:
        """Every node a trace names itself: the graph builder includes them all."""
        seen: dict[int, Any] = {}
        for trace in self.traces:
            if trace.follows is None:
                for node in [*trace.roots, *trace.nodes()]:
                    seen.setdefault(id(node), node)
        return list(seen.values())

    def to_model(self, ids: dict[int, str]) -> list[BackwardTrace]:
        self._read_values()
        sent = _Sent(SENT_VALUES)
        return [self._model(trace, ids, sent.value) for trace in self.traces]

    @staticmethod
    def _model(trace: LiveTrace, ids: dict[int, str], settled) -> BackwardTrace:
        drawn_on = trace
        while drawn_on.follows is not None:
            drawn_on = drawn_on.follows
        names = [type(step.node).__name__ for step in drawn_on.steps]
        return BackwardTrace(trace.kind, [ids[id(root)] for root in drawn_on.roots], [
            BackwardStep(ids[id(on.node)], name, [settled(a) for a in step.incoming],
                         [settled(a) for a in step.outgoing], settled(step.grad_before),
                         settled(step.grad_after))
            for step, on, name in zip(trace.steps, drawn_on.steps, names, strict=True)],
            call=trace.call, failed=trace.failed)


class _Sent:
    """What the kept calls send: small values whole, larger ones whole while ``left``
    elements last, then summaries."""

    def __init__(self, left: int) -> None:
        self.left = left

    def value(self, value: ArrayData | Snapshot | None) -> ArrayData | None:
        if value.__class__ is not Snapshot:
            return value
        size = value.array.size
        if size <= ALWAYS_WHOLE or size <= self.left:
            if size > ALWAYS_WHOLE:
                self.left -= size
            return ArrayData.from_array(value.array, str(value.dtype), owned=True)
        return summary(value.array, value.dtype)


def summary(array: np.ndarray, dtype) -> ArrayData:
    """A step value too large to keep whole: shape, statistics and its first elements, to
    SUMMARY_DIGITS (a 17-digit float is most of a summary's JSON)."""
    data = ArrayData.from_array(array, str(dtype), limit=0, preview=TRACE_PREVIEW)
    data.minimum, data.maximum, data.mean = (
        _rounded(data.minimum), _rounded(data.maximum), _rounded(data.mean))
    data.preview = [_rounded(value) for value in data.preview]
    return data


def _position(traces: list[LiveTrace], trace: LiveTrace) -> int:
    """Where ``trace`` is, by identity (not __eq__): mostly just before the newest call, or
    the oldest (the step cap)."""
    if len(traces) > 1 and traces[-2] is trace:
        return len(traces) - 2
    return next(at for at, kept in enumerate(traces) if kept is trace)


def _elements(log: list) -> int:
    """The elements of the arrays a fast path's log holds: (node, incoming, outgoing[,
    before, after]) each, incoming one array or a tuple of them."""
    total = 0
    for entry in log:
        incoming = entry[1]
        for array in (incoming if incoming.__class__ is tuple else (incoming,)):
            if array is not None:
                total += array.size
        for array in entry[2]:
            if array is not None:
                total += array.size
        for array in entry[3:5]:
            if array is not None:
                total += array.size
    return total


def _rounded(value):
    if value.__class__ is float and value == value and abs(value) != float("inf"):
        return float(f"{value:.{SUMMARY_DIGITS}g}")
    return value


def _signature(trace: LiveTrace, place: Callable[[Any], int | None]) -> tuple:
    """A call's node kinds in order, and the lines that made them."""
    if trace.signature is None:  # each call is compared with the one before and the one after,
        # and a folded call's (its nodes let go) was read as it was folded
        trace.signature = trace.kind, tuple((type(node).__name__, place(node))
                                            for node in trace.nodes())
    return trace.signature


SHAPE_LIMIT = 20_000  # nodes compared at most when matching a recorded call to the final graph


def _same_shape(old_roots: list, new_roots: list) -> dict[int, Any] | None:
    """id(old node) -> new node when the two graphs have the same node kinds linked the same
    way from their roots (walking ``next_functions``); None when they differ."""
    pairs: dict[int, Any] = {}
    taken: set[int] = set()
    waiting = list(zip(old_roots, new_roots, strict=False)) if \
        len(old_roots) == len(new_roots) else None
    while waiting:
        old, new = waiting.pop()
        if (old is None) != (new is None):
            return None
        if old is None:
            continue
        if id(old) in pairs:
            if pairs[id(old)] is not new:
                return None
            continue
        if type(old) is not type(new) or id(new) in taken or len(pairs) >= SHAPE_LIMIT:
            return None
        old_next, new_next = old.next_functions, new.next_functions
        if len(old_next) != len(new_next):
            return None
        pairs[id(old)] = new
        taken.add(id(new))
        waiting.extend((a[0], b[0]) for a, b in zip(old_next, new_next, strict=True))
    return None if waiting is None else pairs
