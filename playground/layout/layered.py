"""Layered (Sugiyama-style) layout of a DAG without Graphviz: layers, crossings, coordinates.

The four classic phases, each chosen for autograd-shaped graphs (long chains, shared weights,
reduction trees) and for graphs of 10,000 nodes in Python and NumPy:

1. layers: longest path from the outputs, then nodes without parents (named tensors above
   their grad_fn) pulled down next to what they feed, so they do not drag long edges; where
   edges still skip layers, the layering of least total edge length (ranking.py);
2. long edges are cut into one dummy node per layer they cross;
3. crossing reduction: median/barycenter sweeps down and up from a depth-first initial order,
   then adjacent swaps ("transpose") while they remove crossings; the best order seen wins.
   Small graphs left with many crossings try again from the bottom layer's order. Runs of
   layers between one-node layers are ordered apart: their crossings do not interact.
   On large graphs the swaps are made odd-even, every second pair of every second layer at
   once with NumPy: faster, and it left fewer crossings than the one-by-one swaps;
4. coordinates: each layer is placed as close as possible to the mean of its neighbours in
   the layer just placed, keeping the order and the minimum gaps (an isotonic regression,
   solved exactly by pooling adjacent violators), in sweeps down and up; wide layers gather
   their neighbours with NumPy, narrow ones (chains) stay in plain Python.

Phases 3 and 4 and the ranking run in C (_core.c) when setup.py could build it, 20-100
times faster (benchmarks/layout_vs_dot.py). Given the same layers, C and Python make the same
orders and places (tests/layout/test_layout_core.py); the ranking in C is dot's network simplex,
which reaches the same least total length but may pick another layering of that length. The
Python below is what runs without a C compiler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from playground.layout.crossings import (
    ODD_EVEN_FROM,
    crossing_runs,
    initial_order,
    reduce_crossings,
)
from playground.layout.layering import Layering
from playground.layout.parts import part_labels
from playground.layout.placement import layer_heights, place
from playground.layout.ranking import assign_layers
from playground.model import gc_policy

PART_GAP = 60.0      # space between disconnected parts of a graph
DEFAULT_SIZE = (60.0, 30.0)
SECOND_START_FROM = 10  # crossings left from which small graphs try a second start


@dataclass
class Layout:
    """Centres of the nodes, the route of every edge (source to target) and the layering."""

    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    routes: list[list[tuple[float, float]]] = field(default_factory=list)
    layers: dict[str, int] = field(default_factory=dict)
    crossings: int = 0
    width: float = 0.0
    height: float = 0.0


def layered_layout(node_ids: Sequence[str], edges: Sequence[tuple[str, str]],
                   sizes: dict[str, tuple[float, float]] | None = None,
                   previous: dict[str, tuple[float, float]] | None = None,
                   upward: bool = False) -> Layout:
    """Lay out a DAG top-down (sources at the top), or bottom-up with ``upward``.

    ``sizes`` gives each node's (width, height); ``previous`` the positions of an earlier
    layout, used as the starting order so that nodes surviving a re-run stay in place.
    Disconnected parts are laid out one by one and packed in rows, reading order kept (single
    unconnected nodes first).
    """
    with gc_policy.paused():  # many small lists: collections cost a fifth of the time
        return _layered_layout(node_ids, edges, sizes or {}, previous, upward)


def _layered_layout(node_ids: Sequence[str], edges: Sequence[tuple[str, str]],
                    sizes: dict[str, tuple[float, float]],
                    previous: dict[str, tuple[float, float]] | None, upward: bool) -> Layout:
    index = {node_id: i for i, node_id in enumerate(node_ids)}
    pairs = [(index[s], index[t]) for s, t in edges]
    boxes = [sizes.get(node_id, DEFAULT_SIZE) for node_id in node_ids]
    hints = [previous.get(node_id, (None,))[0] for node_id in node_ids] if previous else None
    parts = _loose_first(_components(len(node_ids), pairs))
    drawn = [_draw_part(members, [pairs[e] for e in edge_numbers], boxes, hints, upward)
             for members, edge_numbers in parts]
    result = Layout(routes=[[] for _ in edges])
    x = y = row_height = 0.0
    row_width = _row_width(drawn)
    for (members, edge_numbers), part in zip(parts, drawn, strict=True):
        if x > 0 and x + part.width > row_width:
            x, y, row_height = 0.0, y + row_height + PART_GAP, 0.0
        dx, dy = x - part.left, y - part.top
        xs = [px + dx for px in part.xs]
        ys = [py + dy for py in part.ys]
        names = [node_ids[v] for v in members]
        # xs and ys go on past the members with the dummies: the names end first
        result.positions.update(zip(names, zip(xs, ys, strict=True), strict=False))
        result.layers.update(zip(names, part.layers, strict=True))
        for number, chain in zip(edge_numbers, part.chains, strict=True):
            result.routes[number] = [(xs[v], ys[v]) for v in chain]
        result.crossings += part.crossings
        x += part.width + PART_GAP
        row_height = max(row_height, part.height)
        result.width = max(result.width, x - PART_GAP)
    result.height = y + row_height
    return result


@dataclass
class _Part:
    """One connected part, drawn in its own frame: centres of its members and dummies."""

    xs: list[float]    # members first, then the dummies of long edges
    ys: list[float]
    layers: list[int]  # of the members
    chains: list[list[int]]  # each edge's route: the nodes it passes, members and dummies
    crossings: int
    left: float
    top: float
    width: float
    height: float


def _components(count: int, pairs: list[tuple[int, int]]) -> list[tuple[list[int], list[int]]]:
    """(node numbers, edge numbers) of each connected part, in the order of first nodes."""
    label = part_labels(count, pairs)
    if count and not any(label):  # one part, the usual case
        return [(list(range(count)), list(range(len(pairs))))]
    parts: dict[int, tuple[list[int], list[int]]] = {}
    for v, part in enumerate(label):  # parts are numbered by their first node
        parts.setdefault(part, ([], []))[0].append(v)
    for number, (source, _) in enumerate(pairs):
        parts[label[source]][1].append(number)
    return list(parts.values())


def _loose_first(parts: list[tuple[list[int], list[int]]]) -> list[tuple[list[int], list[int]]]:
    """Single unconnected nodes (a model's inputs and targets, constants) first, in reading
    order, so that they pack in a row along the top instead of being strewn in the corners
    of the connected parts' rows (which made the whole, fitted to the view, much smaller)."""
    loose = [part for part in parts if len(part[0]) == 1 and not part[1]]
    return loose + [part for part in parts if len(part[0]) != 1 or part[1]]


def _row_width(drawn: list[_Part]) -> float:
    """Rows of parts, none much wider than the whole is tall."""
    area = sum(part.width * part.height for part in drawn)
    return max(max((part.width for part in drawn), default=0.0), (area ** 0.5) * 1.6)


def _draw_part(members: list[int], pairs: list[tuple[int, int]],
               boxes: list[tuple[float, float]], hints: list[float | None] | None,
               upward: bool) -> _Part:
    if len(members) != len(boxes):  # one part of several: number its nodes from 0
        local = {v: i for i, v in enumerate(members)}
        pairs = [(local[s], local[t]) for s, t in pairs]
    real = len(members)
    layer = assign_layers(real, [(s, t) for s, t in pairs if s != t])
    work = Layering(real, layer)
    chains = work.add_edges(pairs)
    member_hints = [hints[v] for v in members] if hints else [None] * real
    order = initial_order(work, member_hints)
    crossings = 0
    bottom_start: list[list[int]] | None = None
    for run in crossing_runs(order):
        best, fewest = reduce_crossings(work, order[run])
        if fewest >= SECOND_START_FROM and work.size < ODD_EVEN_FROM and hints is None:
            # dot's habit: a second start from the other end. On small random DAGs it brought
            # crossings from 1.03x to 1.00x dot's; lesson graphs (few crossings) skip the cost.
            bottom_start = bottom_start or initial_order(work, member_hints, True)
            other, fewer = reduce_crossings(work, bottom_start[run])
            if fewer < fewest:
                best, fewest = other, fewer
        order[run] = best
        crossings += fewest
    padding = [0.0] * (work.size - real)
    widths = [boxes[v][0] for v in members] + padding
    heights = [boxes[v][1] for v in members] + padding
    xs = place(work, order, widths)
    ys = layer_heights(order, heights, upward)
    y_of = [ys[level] for level in work.layer]
    half_widths = [w / 2 for w in widths]
    half_heights = [h / 2 for h in heights]
    left = min(map(float.__sub__, xs, half_widths))
    right = max(map(float.__add__, xs, half_widths))
    top = min(map(float.__sub__, y_of, half_heights))
    bottom = max(map(float.__add__, y_of, half_heights))
    return _Part(xs, y_of, work.layer[:real], chains, crossings,
                 left, top, right - left, bottom - top)


