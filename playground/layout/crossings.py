"""Phase 3 of the layered layout: orders within layers with few edge crossings.

Median/barycenter sweeps down and up from a depth-first initial order, then adjacent swaps
("transpose") while they remove crossings; the best order seen wins. On large graphs the swaps
are made odd-even with NumPy. Runs in C when the core built (the same orders).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

import numpy as np

from playground.layout import core
from playground.layout.layering import Layering

ORDER_SWEEPS = 24    # dot's default number of ordering iterations
TRANSPOSE_PASSES = 8
ODD_EVEN_FROM = 400   # nodes (dummies included) from which transpose runs odd-even in NumPy
STALE_SWEEPS = 6      # sweeps without progress before giving up
INSERTION_COUNT_UP_TO = 4000  # segments per layer gap counted by sorted insertion


def initial_order(work: Layering, hints: list[float | None],
                   from_bottom: bool = False) -> list[list[int]]:
    """Depth-first discovery order per layer (dot's start), or earlier positions if known.

    The search starts in the top layer and follows edges down, or ``from_bottom`` the
    reverse: the second start tried on busy drawings.
    """
    layers = work.by_layer()
    rank = [0.0] * work.size
    seen = [False] * work.size
    counter = 0
    # layer by layer from the starting end; within a layer, node numbers break ties
    roots = [v for members in (layers[::-1] if from_bottom else layers) for v in members]
    onward = work.up if from_bottom else work.down
    for root in roots:
        if seen[root]:
            continue
        stack = [root]
        seen[root] = True
        while stack:
            v = stack.pop()
            rank[v] = counter
            counter += 1
            for w in reversed(onward[v]):
                if not seen[w]:
                    seen[w] = True
                    stack.append(w)
    if any(h is not None for h in hints):
        rank = _hinted_rank(work, hints, rank)
    for members in layers:
        members.sort(key=rank.__getitem__)
    return layers


def _hinted_rank(work: Layering, hints: list[float | None], rank: list[float]) -> list:
    """Known nodes at their old x; new ones at the mean x of known neighbours, else after."""
    keyed: list = []
    for v in range(work.size):
        hint = hints[v] if v < work.real else None
        if hint is None:
            known = [hints[w] for w in work.up[v] + work.down[v]
                     if w < work.real and hints[w] is not None]
            hint = sum(known) / len(known) if known else None
        keyed.append((0, hint) if hint is not None else (1, rank[v]))
    return keyed


def crossing_runs(order: list[list[int]]) -> list[slice]:
    """Runs of consecutive layers of two or more nodes, each to be ordered on its own.

    A one-node layer fixes both gaps it touches (no two of their segments can cross), so
    the crossings in one run do not depend on the order in another. Ordering runs apart lets
    each stop when it stops improving: lesson graphs, narrowed to one node by every loss,
    mean and sum, have several short runs.
    """
    runs = []
    start = 0
    for level, members in enumerate([*order, []]):
        if len(members) < 2:
            if level - start > 1:  # a run of one layer has no gap of its own
                runs.append(slice(start, level))
            start = level + 1
    return runs


def reduce_crossings(work: Layering, order: list[list[int]]) -> tuple[list[list[int]], int]:
    """dot's loop: median sweep, transpose, keep the best; stop when it stops improving."""
    if core.compiled is not None:  # the same loop in C: same orders, much faster
        return _reduce_crossings_in_c(work, order)
    best = [list(members) for members in order]
    best_count = total_crossings(work, order)
    stale = 0
    for sweep in range(ORDER_SWEEPS):
        if best_count == 0 or stale >= STALE_SWEEPS:
            break
        _median_sweep(work, order, downward=sweep % 2 == 0)
        # Swapping equal pairs on alternate sweeps lets the order drift off plateaus.
        _transpose(work, order, passes=TRANSPOSE_PASSES, swap_ties=sweep % 4 >= 2)
        count = total_crossings(work, order)
        if count < best_count:
            best, best_count, stale = [list(members) for members in order], count, 0
        else:
            stale += 1
    if best_count == 0:
        return best, 0
    _transpose(work, best, passes=TRANSPOSE_PASSES, swap_ties=False)
    return best, total_crossings(work, best)


def _reduce_crossings_in_c(work: Layering, order: list[list[int]]) -> tuple[list[list[int]], int]:
    """The C loop on this run alone, so that a graph of many runs costs no more than one.

    The run's nodes are numbered from 0; every neighbour outside it sits in the one-node
    layer at either end (slot 0), so all of them become one more node, at slot 0 too.
    """
    members = [v for layer in order for v in layer]
    local = {v: i for i, v in enumerate(members)}
    outside = len(members)
    up = [[local.get(w, outside) for w in work.up[v]] for v in members]
    down = [[local.get(w, outside) for w in work.down[v]] for v in members]
    layers = [[local[v] for v in layer] for layer in order]
    best, crossings = core.compiled.reduce_crossings(
        layers, [*up, []], [*down, []], ORDER_SWEEPS, STALE_SWEEPS, TRANSPOSE_PASSES,
        work.size >= ODD_EVEN_FROM)
    return [[members[i] for i in layer] for layer in best], crossings


def _median_sweep(work: Layering, order: list[list[int]], downward: bool) -> None:
    position = _positions(work, order)
    neighbours = work.up if downward else work.down
    levels = range(1, len(order)) if downward else range(len(order) - 2, -1, -1)
    for level in levels:
        members = order[level]
        if len(members) < 2:
            continue
        keyed = []
        for slot, v in enumerate(members):
            near = neighbours[v]
            if len(near) == 1:  # chains and dummies: the common case
                keyed.append((position[near[0]], slot, v))
            elif near:
                keyed.append((_median(sorted(map(position.__getitem__, near))), slot, v))
        if not keyed:
            continue
        keyed.sort()  # ties keep their order: the slot breaks them
        if len(keyed) == len(members):
            members[:] = [v for _, _, v in keyed]
        else:  # nodes with no neighbour on that side keep their slot; the others are sorted
            moved = iter(keyed)
            members[:] = [next(moved)[2] if neighbours[v] else v for v in members]
        for i, v in enumerate(members):
            position[v] = i


def _median(places: list[int]) -> float:
    """The mean of the weighted median (Gansner et al.) and the barycenter.

    On autograd-shaped and random layered graphs the blend left 4-7% fewer crossings than
    either alone (measured with benchmarks/layout_vs_dot.py).
    """
    count = len(places)
    if count == 1:
        return float(places[0])
    middle = count // 2
    if count % 2:
        median = float(places[middle])
    elif count == 2:
        median = (places[0] + places[1]) / 2
    else:
        left = places[middle - 1] - places[0]
        right = places[-1] - places[middle]
        median = (places[middle - 1] + places[middle]) / 2 if left + right == 0 else \
            (places[middle - 1] * right + places[middle] * left) / (left + right)
    return (median + sum(places) / count) / 2


def _positions(work: Layering, order: list[list[int]]) -> list[int]:
    position = [0] * work.size
    for members in order:
        for i, v in enumerate(members):
            position[v] = i
    return position


def _transpose(work: Layering, order: list[list[int]], passes: int,
               swap_ties: bool) -> None:
    """Swap neighbours in a layer while that removes crossings with both adjacent layers."""
    if work.size >= ODD_EVEN_FROM:
        _transpose_odd_even(work, order, passes, swap_ties)
    else:
        _transpose_one_by_one(work, order, passes, swap_ties)


def _transpose_one_by_one(work: Layering, order: list[list[int]], passes: int,
                          swap_ties: bool) -> None:
    position = _positions(work, order)
    dirty = [True] * len(order)
    for _ in range(passes):
        improved = False
        for level, members in enumerate(order):
            if not dirty[level] or len(members) < 2:
                continue
            dirty[level] = False
            if _transpose_layer(work, members, position, swap_ties):
                improved = True
                for near in (level - 1, level, level + 1):
                    if 0 <= near < len(order):
                        dirty[near] = True
        if not improved:
            break


def _transpose_layer(work: Layering, members: list[int], position: list[int],
                     swap_ties: bool) -> bool:
    """One left-to-right pass of swaps over a layer; whether a swap removed crossings."""
    # The adjacent layers stay put while this one changes: sort neighbours once.
    ups = [sorted(map(position.__getitem__, work.up[v])) for v in members]
    downs = [sorted(map(position.__getitem__, work.down[v])) for v in members]
    improved = False
    for i in range(len(members) - 1):
        gain = _pair_gain(ups[i], ups[i + 1]) + _pair_gain(downs[i], downs[i + 1])
        if gain > 0 or (swap_ties and gain == 0 and (ups[i] or downs[i])):
            u, v = members[i], members[i + 1]
            members[i], members[i + 1] = v, u
            position[u], position[v] = i + 1, i
            ups[i], ups[i + 1] = ups[i + 1], ups[i]
            downs[i], downs[i + 1] = downs[i + 1], downs[i]
            improved = improved or gain > 0
    return improved


def _transpose_odd_even(work: Layering, order: list[list[int]], passes: int,
                        swap_ties: bool) -> None:
    """Transpose in rounds of disjoint pairs whose other ends stay put, each round at once.

    A round takes the pairs at even (then odd) slots of the even (then odd) layers: no two
    share a node and none has a neighbour that moves, so every gain is exact when it is used.
    """
    up, down = work.neighbour_arrays()
    sizes = [len(members) for members in order]
    total = sum(sizes)
    flat = np.fromiter((v for members in order for v in members), np.int64, total)
    level = np.repeat(np.arange(len(order)), sizes)
    starts = np.searchsorted(level, np.arange(len(order)))
    slot = np.arange(total) - starts[level]
    # nodes outside a run of layers sit in one-node layers: all at slot 0, as in the whole
    position = np.zeros(work.size, np.int64)
    position[flat] = slot
    paired = np.zeros(total, bool)
    paired[:-1] = level[:-1] == level[1:]
    rounds = [np.flatnonzero(paired & (level % 2 == odd_layer) & (slot % 2 == odd_slot))
              for odd_layer in (0, 1) for odd_slot in (0, 1)]
    connected = (np.diff(up[0]) + np.diff(down[0])) > 0
    for _ in range(passes * 4):  # a pair moves one slot a round: more rounds than passes
        improved = False
        for left in rounds:
            u, v = flat[left], flat[left + 1]
            gain = _pair_gains(u, v, up, position) + _pair_gains(u, v, down, position)
            swap = gain > 0
            improved = improved or bool(swap.any())
            if swap_ties:
                swap |= (gain == 0) & connected[u]
            left = left[swap]
            u, v = flat[left], flat[left + 1]
            flat[left], flat[left + 1] = v, u
            position[u] += 1
            position[v] -= 1
        if not improved:
            break
    for level_number, members in enumerate(order):
        members[:] = flat[starts[level_number]:starts[level_number] + len(members)].tolist()


def _pair_gains(u: np.ndarray, v: np.ndarray, neighbours: tuple[np.ndarray, np.ndarray],
                position: np.ndarray) -> np.ndarray:
    """For each pair (u left of v): crossings removed by swapping them, on one side.

    Every neighbour of u is compared with every neighbour of v, all pairs in one flat array.
    """
    pointers, targets = neighbours
    u_count = pointers[u + 1] - pointers[u]
    v_count = pointers[v + 1] - pointers[v]
    combinations = u_count * v_count
    total = int(combinations.sum())
    if total == 0:
        return np.zeros(len(u))
    pair = np.repeat(np.arange(len(u)), combinations)
    k = np.arange(total) - np.repeat(np.cumsum(combinations) - combinations, combinations)
    v_repeated = np.repeat(v_count, combinations)
    a = position[targets[np.repeat(pointers[u], combinations) + k // v_repeated]]
    b = position[targets[np.repeat(pointers[v], combinations) + k % v_repeated]]
    return np.bincount(pair, weights=(a > b).astype(float) - (a < b), minlength=len(u))


def _pair_gain(left: list[int], right: list[int]) -> int:
    """Crossings removed by swapping two neighbours whose other ends are ``left``/``right``."""
    if len(left) == 1 and len(right) == 1:  # the common case: dummies and chains
        return (left[0] > right[0]) - (left[0] < right[0])
    if not left or not right:
        return 0
    now = swapped = 0
    for y in right:
        below = bisect_left(left, y)
        swapped += below
        now += len(left) - bisect_right(left, y)
    return now - swapped


def total_crossings(work: Layering, order: list[list[int]]) -> int:
    """Crossings between the layers of ``order``: all layers, or a run of them."""
    position = _positions(work, order)
    gaps = work.gap_segments()
    first = work.layer[order[0][0]] if order and order[0] else 0
    total = 0
    for level in range(first, first + len(order) - 1):
        if level not in gaps:
            continue
        tops, bottoms, width = gaps[level]
        # edges taken in upper order (lower order among one node's), lower ends inverted
        ends = sorted(zip(map(position.__getitem__, tops), map(position.__getitem__, bottoms),
                          strict=True))
        total += count_inversions([low for _, low in ends], width)
    return total


def count_inversions(values: list[int], bound: int = 0) -> int:
    """Pairs i < j with values[i] > values[j].

    Insertion into a sorted list: its moves are memmoves, faster in Python than a Fenwick
    tree up to thousands of values; above that (``bound`` known) the tree's log n wins.
    """
    if bound and len(values) > INSERTION_COUNT_UP_TO:
        return _fenwick_inversions(values, bound)
    seen: list[int] = []
    inversions = 0
    for value in values:
        slot = bisect_right(seen, value)
        inversions += len(seen) - slot
        seen.insert(slot, value)
    return inversions


def _fenwick_inversions(values: list[int], bound: int) -> int:
    """The same count for integers in [0, bound), with a Fenwick tree."""
    tree = [0] * (bound + 1)
    inversions = 0
    for seen, value in enumerate(values):
        # how many earlier values are <= value
        i = value + 1
        not_greater = 0
        while i > 0:
            not_greater += tree[i]
            i -= i & -i
        inversions += seen - not_greater
        i = value + 1
        while i <= bound:
            tree[i] += 1
            i += i & -i
    return inversions


# ----- 4. coordinates --------------------------------------------------------------------------
