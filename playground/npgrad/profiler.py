"""``torch.profiler``: ``profile`` times the engine's operators (``aten::<name>``), the
backward's nodes and the user's ``record_function`` ranges while its block runs, and
``key_averages().table()`` prints them in torch's layout (the times are the engine's own).

While a profile is active every public function of ``torch``, ``torch.nn.functional`` and
every public method (and operator) of Tensor is wrapped with a timer; they are put back when
it ends, so nothing is timed, or slower, outside it."""

from __future__ import annotations

import enum
import functools
import gzip
import importlib
import json
import sys
import time
from collections.abc import Callable

from ._profiler_table import EventList, FunctionEventAvg, averages, each_event
from ._torch_homes import give_torch_homes

__all__ = ["ProfilerAction", "ProfilerActivity", "profile", "record_function", "schedule",
           "tensorboard_trace_handler", "EventList", "FunctionEventAvg"]


class ProfilerActivity(enum.Enum):
    """What a profile records (the engine runs on the CPU alone)."""

    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


class _Event:
    """One timed range: its name, start and end (µs) and input shapes."""

    __slots__ = ("name", "start", "end", "shapes", "user")

    def __init__(self, name: str, shapes: list, user: bool = False) -> None:
        self.name, self.shapes, self.user = name, shapes, user
        self.start = time.perf_counter() * 1e6
        self.end = self.start


class _Session:
    """The events of the active profile (their nesting is read from their times)."""

    active: _Session | None = None

    def __init__(self, record_shapes: bool) -> None:
        self.record_shapes = record_shapes
        self.events: list[_Event] = []

    def begin(self, name: str, args: tuple = (), user: bool = False) -> _Event:
        shapes = _shapes(args) if self.record_shapes else []
        event = _Event(name, shapes, user)
        self.events.append(event)
        return event

    def end(self, event: _Event) -> None:
        event.end = time.perf_counter() * 1e6


def _shapes(args: tuple) -> list:
    from ._tensor import Tensor

    return [list(value.shape) if isinstance(value, Tensor) else [] for value in args]


class record_function:  # noqa: N801 - torch's name
    """A named range of the profile (a context manager, or a decorator); nothing without one."""

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name, self.args = name, args
        self._event: _Event | None = None

    def __enter__(self) -> record_function:
        session = _Session.active
        if session is not None:
            self._event = session.begin(self.name, user=True)
        return self

    def __exit__(self, *exc) -> None:
        if self._event is not None and _Session.active is not None:
            _Session.active.end(self._event)
        self._event = None

    def __call__(self, function: Callable) -> Callable:
        @functools.wraps(function)
        def ranged(*args, **kwargs):
            with record_function(self.name):
                return function(*args, **kwargs)
        return ranged


class ProfilerAction(enum.Enum):
    """What a scheduled profile does at a step."""

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0,
             skip_first: int = 0, skip_first_wait: int = 0) -> Callable[[int], ProfilerAction]:
    """Steps in cycles: ``wait`` steps not recorded, ``warmup`` not kept, ``active`` recorded
    (the cycle's last one hands the profile to ``on_trace_ready``); ``repeat`` cycles (0:
    for ever), after ``skip_first`` steps."""
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError(
            f"Invalid profiler schedule arguments. Got wait={wait} (need >= 0), "
            f"warmup={warmup} (need >= 0), active={active} (need > 0), repeat={repeat} (need "
            f">= 0), skip_first={skip_first} (need >= 0).")
    cycle = wait + warmup + active

    def action(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        place = step % cycle
        if place < wait:
            return ProfilerAction.NONE
        if place < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if place < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    return action


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None,
                              use_gzip: bool = False) -> Callable:
    """Writes each finished profile's Chrome trace into ``dir_name``."""
    import os

    def write(prof: profile) -> None:
        os.makedirs(dir_name, exist_ok=True)
        name = worker_name or f"{os.uname().nodename}_{os.getpid()}"
        path = os.path.join(dir_name, f"{name}.{time.time_ns()}.pt.trace.json")
        prof.export_chrome_trace(path + ".gz" if use_gzip else path)
    return write


class profile:  # noqa: N801 - torch's name
    """``with profile(activities=[ProfilerActivity.CPU]) as prof:`` then
    ``prof.key_averages().table(sort_by="cpu_time_total", row_limit=10)``."""

    def __init__(self, activities=None, *, schedule=None, on_trace_ready=None,
                 record_shapes: bool = False, profile_memory: bool = False,
                 with_stack: bool = False, with_flops: bool = False,
                 with_modules: bool = False, enabled: bool = True, use_cuda=None,
                 **options) -> None:
        self.enabled = enabled
        self.on_trace_ready = on_trace_ready
        self.schedule = schedule
        self._record_shapes = record_shapes
        self._session = _Session(record_shapes)
        self._wrapped: list[tuple[object, str, object]] = []
        self._observing = None
        self.step_num = 0
        self.current_action = ProfilerAction.RECORD if schedule is None else schedule(0)

    def __enter__(self) -> profile:
        if self.enabled:
            self.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.enabled:
            self.stop()

    def start(self) -> None:
        if self._recording(self.current_action):
            self._begin_recording()

    def stop(self) -> None:
        if self._recording(self.current_action):
            self._end_recording()
            if self.on_trace_ready is not None:
                self.on_trace_ready(self)

    def step(self) -> None:
        """The next step of a scheduled profile: recording starts or stops as it says."""
        before = self.current_action
        self.step_num += 1
        self.current_action = ProfilerAction.RECORD if self.schedule is None else \
            self.schedule(self.step_num)
        if self.schedule is None:
            return
        if self._recording(before) and (before is ProfilerAction.RECORD_AND_SAVE or
                                        not self._recording(self.current_action)):
            self._end_recording()
            if before is ProfilerAction.RECORD_AND_SAVE and self.on_trace_ready is not None:
                self.on_trace_ready(self)
        if self._recording(self.current_action) and _Session.active is not self._session:
            self._session = _Session(self._record_shapes)  # a new cycle's events
            self._begin_recording()

    @staticmethod
    def _recording(action: ProfilerAction) -> bool:
        return action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)

    def _begin_recording(self) -> None:
        _Session.active = self._session
        self._wrap_operators()
        self._observe_backward()

    def _end_recording(self) -> None:
        if _Session.active is self._session:
            _Session.active = None
        for owner, name, original in reversed(self._wrapped):
            setattr(owner, name, original)
        self._wrapped.clear()
        if self._observing is not None:
            self._observing.__exit__(None, None, None)
            self._observing = None

    def key_averages(self, group_by_input_shape: bool = False,
                     group_by_stack_n: int = 0) -> EventList:
        return averages(self._session.events, group_by_input_shape)

    def events(self) -> EventList:
        return each_event(self._session.events, False)

    def export_chrome_trace(self, path: str) -> None:
        """The events as Chrome's trace format (chrome://tracing, Perfetto)."""
        trace = [{"name": e.name, "ph": "X", "ts": e.start, "dur": e.end - e.start, "pid": 0,
                  "tid": 0, "cat": "user_annotation" if e.user else "cpu_op"}
                 for e in self._session.events]
        opened = gzip.open if path.endswith(".gz") else open
        with opened(path, "wt", encoding="utf-8") as file:
            json.dump({"traceEvents": trace}, file)

    # ----- what is timed -------------------------------------------------------------------
    def _wrap_operators(self) -> None:
        import playground.npgrad as torch
        from playground.npgrad.nn import functional

        from ._tensor import Tensor
        from ._torch_names import TORCH_TENSOR_NAMES

        torch_names = set(vars(torch)) | TORCH_TENSOR_NAMES
        owners = [torch, functional] + [importlib.import_module(f"playground.npgrad.{name}")
                                        for name in _OP_FAMILIES]
        for owner in owners:  # (the families: where the engine's modules call ops, nn.ReLU)
            for name, value in list(vars(owner).items()):
                # an op of torch's, not a helper a module imported
                known = name in torch_names or getattr(value, "__module__", "") == \
                    functional.__name__
                if known and not name.startswith("_") and _is_operator(name, value):
                    self._wrap(owner, name, value)
        for name, value in list(vars(Tensor).items()):
            if (not name.startswith("_") or name in _OPERATOR_METHODS) and \
                    _is_operator(name, value):
                self._wrap(Tensor, name, value)

    def _wrap(self, owner, name: str, original) -> None:
        label = "aten::" + _OPERATOR_METHODS.get(name, name)
        session = self._session

        @functools.wraps(original)
        def timed(*args, **kwargs):
            event = session.begin(label, args)
            try:
                return original(*args, **kwargs)
            finally:
                session.end(event)

        self._wrapped.append((owner, name, original))
        setattr(owner, name, timed)

    def _observe_backward(self) -> None:
        """Each backward node as a range: from the end of the step before to its own end."""
        import playground.npgrad as torch

        session, last = self._session, [0.0]

        def started(_call) -> bool:
            last[0] = time.perf_counter() * 1e6
            return True

        def stepped(step) -> None:
            event = _Event(step.node.name(), [])
            event.start, event.end = last[0], time.perf_counter() * 1e6
            last[0] = event.end
            session.events.append(event)

        self._observing = torch.autograd.observe(stepped, started)
        self._observing.__enter__()


# Tensor's operators, under the names torch's profiler gives their operators
_OPERATOR_METHODS = {"__add__": "add", "__radd__": "add", "__iadd__": "add_",
                     "__sub__": "sub", "__rsub__": "rsub", "__isub__": "sub_",
                     "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_",
                     "__truediv__": "div", "__rtruediv__": "div", "__itruediv__": "div_",
                     "__matmul__": "matmul", "__rmatmul__": "matmul", "__pow__": "pow",
                     "__rpow__": "pow", "__neg__": "neg", "__getitem__": "index",
                     "__setitem__": "index_put_"}
# the engine's modules of operators, as its own modules call them
_OP_FAMILIES = ("_arithmetic", "_pointwise", "_reductions", "_products", "_shapes", "_slicing",
                "_selection", "_more_math", "_linalg", "_einsum", "_indexing")
# what is not an operator to time: classes, dtypes, modules and the like
_NOT_TIMED = {"is_grad_enabled", "is_tensor", "get_default_dtype", "manual_seed", "size",
              "dim", "numel", "item", "tolist", "backward", "register_hook", "requires_grad_",
              "retain_grad", "data_ptr", "is_contiguous", "element_size", "stride", "numpy"}


def _is_operator(name: str, value) -> bool:
    import types

    return isinstance(value, types.FunctionType | types.BuiltinFunctionType) and \
        name not in _NOT_TIMED


give_torch_homes(sys.modules[__name__])  # (its classes print as torch's)
