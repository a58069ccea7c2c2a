"""The profiler's events summed by name (``key_averages``) and printed in torch's table."""

from __future__ import annotations

import sys

from ._torch_homes import give_torch_homes

NAME_WIDTH_LIMIT = 55
SHAPES_WIDTH_LIMIT = 80
NUMBER_WIDTH = 12
_COLUMNS = ("Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls")


class _Timed:
    """What a table row has: a key, a call count and times in µs."""

    def __init__(self, key: str, input_shapes: list, user: bool) -> None:
        self.key, self.input_shapes, self.is_user_annotation = key, input_shapes, user
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.device_time_total = self.self_device_time_total = 0.0
        self.cpu_memory_usage = self.self_cpu_memory_usage = 0

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def cpu_time_str(self) -> str:
        return format_time(self.cpu_time)

    @property
    def cpu_time_total_str(self) -> str:
        return format_time(self.cpu_time_total)

    @property
    def self_cpu_time_total_str(self) -> str:
        return format_time(self.self_cpu_time_total)


class FunctionEventAvg(_Timed):
    """One name's events (and input shapes, when grouped by them), summed."""

    def __repr__(self) -> str:
        return (f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total_str} "
                f"cpu_time={self.cpu_time_str} input_shapes={self.input_shapes}>")


class FunctionEvent(_Timed):
    """One timed range as it happened: its id (in order of start), the ranges directly
    inside it and the one around it."""

    def __init__(self, event_id: int, event, self_time: float) -> None:
        super().__init__(event.name, event.shapes, event.user)
        self.id, self.name, self.count = event_id, event.name, 1
        self.cpu_time_total = event.end - event.start
        self.self_cpu_time_total = self_time
        self.cpu_children: list[FunctionEvent] = []
        self.cpu_parent: FunctionEvent | None = None

    def __repr__(self) -> str:
        return (f"<FunctionEvent id={self.id} name={self.name} cpu_time={self.cpu_time_str} "
                f"cpu_children={[child.id for child in self.cpu_children]} "
                f"input_shapes={self.input_shapes}>")


class EventList(list):
    """Table rows (the averages, or the events themselves), with torch's ``table``."""

    def __init__(self, averages: list, grouped_by_shape: bool) -> None:
        super().__init__(averages)
        self._by_shape = grouped_by_shape

    def table(self, sort_by: str | None = None, row_limit: int = 100,
              max_src_column_width: int = 75, max_name_column_width: int = NAME_WIDTH_LIMIT,
              max_shapes_column_width: int = SHAPES_WIDTH_LIMIT, header: str | None = None,
              top_level_events_only: bool = False) -> str:
        rows = list(self)
        if sort_by is not None:
            rows.sort(key=lambda row: getattr(row, sort_by, 0.0), reverse=True)
        whole = sum(row.self_cpu_time_total for row in self)
        # (the columns fit every event, as torch's do, not only the rows shown)
        name_width = min(max((len(row.key) for row in self), default=0) + 4,
                         max_name_column_width)
        widths = [name_width] + [NUMBER_WIDTH] * len(_COLUMNS)
        titles = ["Name", *_COLUMNS]
        if self._by_shape:
            widths.append(min(max((len(str(r.input_shapes)) for r in self), default=0) + 4,
                              max_shapes_column_width))
            titles.append("Input Shapes")
        rows = rows[:row_limit] if row_limit is not None and row_limit >= 0 else rows
        rule = "".join("-" * width + "  " for width in widths)
        lines = [rule, _line(titles, widths), rule]
        lines += [_line(_cells(row, whole, name_width, self._by_shape), widths) for row in rows]
        lines += [rule, f"Self CPU time total: {format_time(whole)}"]
        text = "\n".join(lines) + "\n"
        return text if header is None else f"{'=' * len(rule)}\n{header}\n{text}"

    def total_average(self) -> FunctionEventAvg:
        total = FunctionEventAvg("Total", [], False)
        for row in self:
            total.count += row.count
            total.cpu_time_total += row.cpu_time_total
            total.self_cpu_time_total += row.self_cpu_time_total
        return total

    def __str__(self) -> str:
        return self.table()


def _line(cells: list[str], widths: list[int]) -> str:
    return "".join(cell.rjust(width) + "  " for cell, width in zip(cells, widths, strict=True))


def _cells(row: FunctionEventAvg, whole: float, name_width: int, by_shape: bool) -> list[str]:
    name = row.key if len(row.key) <= name_width else row.key[:name_width - 3] + "..."
    share = (lambda part: f"{100 * part / whole:.2f}%") if whole else (lambda part: "0.00%")
    cells = [name, share(row.self_cpu_time_total), format_time(row.self_cpu_time_total),
             share(row.cpu_time_total), format_time(row.cpu_time_total),
             format_time(row.cpu_time), str(row.count)]
    if by_shape:
        cells.append(str(row.input_shapes))
    return cells


def format_time(microseconds: float) -> str:
    """Microseconds as torch's profiler writes them: s, ms or us with three decimals."""
    if microseconds >= 1e6:
        return f"{microseconds / 1e6:.3f}s"
    if microseconds >= 1e3:
        return f"{microseconds / 1e3:.3f}ms"
    return f"{microseconds:.3f}us"


def averages(events: list, by_shape: bool) -> EventList:
    """The events by name (and shapes), in order of first appearance; an event's self time
    is its own less that of the events directly inside it."""
    inside = _time_inside(events)
    found: dict = {}
    for event in events:
        key = (event.name, str(event.shapes)) if by_shape else event.name
        row = found.get(key)
        if row is None:
            row = found[key] = FunctionEventAvg(event.name, event.shapes if by_shape else [],
                                                event.user)
        duration = event.end - event.start
        row.count += 1
        row.cpu_time_total += duration
        row.self_cpu_time_total += max(duration - inside.get(id(event), 0.0), 0.0)
    return EventList(list(found.values()), by_shape)


def each_event(events: list, by_shape: bool) -> EventList:
    """The events themselves, in order of start, each with its children and parent."""
    ordered = sorted(events, key=_start_order)
    made = {id(event): FunctionEvent(number, event, event.end - event.start)
            for number, event in enumerate(ordered, start=1)}
    for child, parent in _parents(ordered):  # (one walk: the links and the self times)
        made[id(child)].cpu_parent = made[id(parent)]
        made[id(parent)].cpu_children.append(made[id(child)])
        made[id(parent)].self_cpu_time_total -= child.end - child.start
    for event in made.values():
        event.self_cpu_time_total = max(event.self_cpu_time_total, 0.0)
    return EventList([made[id(event)] for event in ordered], by_shape)


def _start_order(event) -> tuple[float, float]:
    return event.start, -event.end


def _parents(ordered: list):
    """Each event directly nested in another, with that other (``ordered`` by start)."""
    open_events: list = []
    for event in ordered:
        while open_events and open_events[-1].end <= event.start:
            open_events.pop()
        if open_events and open_events[-1].end >= event.end:
            yield event, open_events[-1]
        open_events.append(event)


def _time_inside(events: list) -> dict[int, float]:
    """For each event, the time of the events directly nested in it."""
    inside: dict[int, float] = {}
    for child, parent in _parents(sorted(events, key=_start_order)):
        inside[id(parent)] = inside.get(id(parent), 0.0) + (child.end - child.start)
    return inside


give_torch_homes(sys.modules[__name__])  # (its classes print as torch's)
