"""Phase 4 of the layered layout: x coordinates near the neighbours' mean, y per layer.

Each layer is placed as close as possible to the mean of its neighbours in the layer just
placed, keeping the order and the minimum gaps (an isotonic regression, solved exactly by
pooling adjacent violators), in sweeps down and up. Runs in C when the core built.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from itertools import pairwise

import numpy as np

from playground.layout import core
from playground.layout.layering import Layering

NODE_GAP = 28.0      # horizontal space between two real nodes
DUMMY_GAP = 10.0     # ... around a long edge passing through a layer
LAYER_GAP = 44.0     # vertical space between layers, added to the tallest node of a layer
PLACE_SWEEPS = 6      # coordinate sweeps, alternately down and up
SETTLED_PX = 0.5      # ... until none moves a node further than this
NARROW_ROW = 6        # layers up to this many nodes are placed without NumPy


def place(work: Layering, order: list[list[int]], widths: list[float]) -> list[float]:
    if core.compiled is not None:  # the same sweeps in C
        return core.compiled.place(order, work.up, work.down, widths, work.real, NODE_GAP,
                                   DUMMY_GAP, SETTLED_PX, PLACE_SWEEPS)
    rows = [_Row(work, members, widths) if len(members) > 1 else None for members in order]
    xs = [0.0] * work.size
    for row in rows:
        if row is not None:
            for v, offset in zip(row.members, row.offsets, strict=True):
                xs[v] = offset
    down = _placement_steps(work, order, rows, range(1, len(order)), 0)
    up = _placement_steps(work, order, rows, range(len(order) - 2, -1, -1), 1)
    for sweep in range(PLACE_SWEEPS):
        before = list(xs)
        for step in (up if sweep % 2 else down):
            step(xs)
        if sweep and max(map(abs, map(float.__sub__, xs, before)), default=0.0) < SETTLED_PX:
            break  # chains and trees settle in two sweeps
    for step in _placement_steps(work, order, rows, range(len(order)), 2):
        step(xs)  # a last pass that listens to both sides
    return xs


def _placement_steps(work: Layering, order: list[list[int]], rows: list[_Row | None],
                     levels: range, side: int) -> list[Callable[[list[float]], None]]:
    """The aligning calls of one sweep, in order; runs of one-node layers share one call."""
    steps: list[Callable[[list[float]], None]] = []
    run: list[int] = []
    for level in levels:
        row = rows[level]
        if row is None:  # one node: most layers of a chain
            run.append(order[level][0])
            continue
        if run:
            steps.append(partial(_align_singles, run, work.near(run, side)))
            run = []
        steps.append(partial(row.align, side=side))
    if run:
        steps.append(partial(_align_singles, run, work.near(run, side)))
    return steps




def _align_singles(run: list[int], nears: list[list[int]], xs: list[float]) -> None:
    """One-node layers in a row: each goes to its neighbours' mean x."""
    for v, near in zip(run, nears, strict=True):
        if len(near) == 1:
            xs[v] = xs[near[0]]
        elif near:
            xs[v] = sum(map(xs.__getitem__, near)) / len(near)


class _Row:
    """One layer for placement: its order, minimum offsets and neighbours on each side.

    ``align(xs, side)`` moves the layer towards its neighbours' mean x, keeping the order and
    the gaps (a weighted isotonic fit); sides are 0 (above), 1 (below) and 2 (both). It is
    bound once to the way that suits the layer's width: narrow layers (chains) are done in
    plain Python, where NumPy's call overhead would dominate.
    """

    def __init__(self, work: Layering, members: list[int], widths: list[float]) -> None:
        self.members = members
        offsets = [0.0]
        for a, b in pairwise(members):
            gap = NODE_GAP if a < work.real and b < work.real else DUMMY_GAP
            offsets.append(offsets[-1] + (widths[a] + widths[b]) / 2 + gap)
        self.offsets = offsets
        # long edges (dummies) pull hardest: they should run straight
        pull = [4.0 if v >= work.real else 1.0 for v in members]
        if len(members) <= NARROW_ROW:
            self.pull = pull
            self.sides = tuple(work.near(members, side) for side in (0, 1, 2))
            self.align = self._align_narrow
            return
        self.pull = np.array(pull)
        up, down = work.neighbour_arrays()
        index = np.array(members, np.int64)
        above, below = _gather(up, index), _gather(down, index)
        self.sides = tuple((segment, neighbours.tolist(), counts)
                           for segment, neighbours, counts in (above, below, _merge(above, below)))
        self.align = self._align_wide

    def _align_wide(self, xs: list[float], side: int) -> None:
        segment, neighbours, counts = self.sides[side]
        size = len(self.members)
        near = counts > 0
        sums = np.bincount(segment, minlength=size,
                           weights=np.fromiter(map(xs.__getitem__, neighbours), float,
                                               len(neighbours)))
        current = np.fromiter(map(xs.__getitem__, self.members), float, size)
        desired = np.where(near, sums / np.maximum(counts, 1), current)
        weights = np.where(near, self.pull, 0.01)
        fitted = _isotonic((desired - self.offsets).tolist(), weights.tolist())
        for v, x in zip(self.members, np.add(fitted, self.offsets).tolist(), strict=True):
            xs[v] = x

    def _align_narrow(self, xs: list[float], side: int) -> None:
        sides = self.sides[side]
        values = [sum(map(xs.__getitem__, near)) / len(near) - offset if near else xs[v] - offset
                  for v, near, offset in zip(self.members, sides, self.offsets, strict=True)]
        if any(map(float.__gt__, values, values[1:])):  # the gaps would be broken: pool
            values = _isotonic(values, [pull if near else 0.01
                                        for near, pull in zip(sides, self.pull, strict=True)])
        for v, fitted, offset in zip(self.members, values, self.offsets, strict=True):
            xs[v] = fitted + offset


def _gather(neighbours: tuple[np.ndarray, np.ndarray], members: np.ndarray):
    """(member slot, neighbour, count per member) of the members' neighbours on one side."""
    pointers, targets = neighbours
    counts = pointers[members + 1] - pointers[members]
    total = int(counts.sum())
    starts = np.repeat(pointers[members] - np.cumsum(counts) + counts, counts)
    segment = np.repeat(np.arange(len(members)), counts)
    return segment, targets[starts + np.arange(total)], counts


def _merge(above, below):
    """Both sides at once; the sums per member do not depend on the order of the entries."""
    return (np.concatenate((above[0], below[0])), np.concatenate((above[1], below[1])),
            above[2] + below[2])


def _isotonic(values: list[float], weights: list[float]) -> list[float]:
    """Weighted least-squares non-decreasing fit (pool adjacent violators)."""
    means: list[float] = []
    totals: list[float] = []
    counts: list[int] = []
    for value, weight in zip(values, weights, strict=True):
        mean, total, count = value, weight, 1
        while means and means[-1] > mean:
            before = totals.pop()
            mean = (means.pop() * before + mean * total) / (before + total)
            total += before
            count += counts.pop()
        means.append(mean)
        totals.append(total)
        counts.append(count)
    fitted: list[float] = []
    for mean, count in zip(means, counts, strict=True):
        fitted.extend([mean] * count)
    return fitted


def layer_heights(order: list[list[int]], heights: list[float], upward: bool) -> list[float]:
    """The y of each layer's centre line, each layer as tall as its tallest node."""
    ys, y = [], 0.0
    for members in order:
        tallest = heights[members[0]] if len(members) == 1 else \
            max(map(heights.__getitem__, members), default=0.0)
        ys.append(y + tallest / 2)
        y += tallest + LAYER_GAP
    if upward:
        bottom = ys[-1] if ys else 0.0
        ys = [bottom - value for value in ys]
    return ys
