"""Where torch's sort and topk put equal values: the order the C++ standard library's
algorithms leave them in (GCC's libstdc++, which torch's Linux wheels are built with), which
is not the order they came in. torch.sort (not stable) runs std::sort over (value, index)
pairs, torch.topk std::nth_element then std::sort of the first k - 1 (or std::partial_sort
when k is small beside the row). These are those algorithms, written here from their
description, step for step, on integer keys (each value's rank, NaN the largest, negated for
a descending order), so that only ``<`` between keys is ever asked.

Only rows holding equal values need this: without ties every algorithm gives the one order."""

from __future__ import annotations

import numpy as np

_INSERTION_UP_TO = 16  # libstdc++'s _S_threshold


def _less(a, b) -> bool:
    return a[0] < b[0]


# ----- heaps (std::make_heap, pop_heap, sort_heap: a max-heap under ``<``) --------------------
def _push_up(items: list, hole: int, top: int, value) -> None:
    parent = (hole - 1) // 2
    while hole > top and _less(items[parent], value):
        items[hole] = items[parent]
        hole = parent
        parent = (hole - 1) // 2
    items[hole] = value


def _sift_down(items: list, first: int, hole: int, length: int, value) -> None:
    """Move the hole at ``hole`` (relative to ``first``) to a leaf along the larger children,
    then push ``value`` up from there (libstdc++'s __adjust_heap)."""
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if _less(items[first + child], items[first + child - 1]):
            child -= 1
        items[first + hole] = items[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[first + hole] = items[first + child - 1]
        hole = child - 1
    view = _Offset(items, first)
    _push_up(view, hole, top, value)


class _Offset:
    """A list seen from ``first`` on (heap positions are relative to a range's start)."""

    __slots__ = ("items", "first")

    def __init__(self, items: list, first: int) -> None:
        self.items, self.first = items, first

    def __getitem__(self, index: int):
        return self.items[self.first + index]

    def __setitem__(self, index: int, value) -> None:
        self.items[self.first + index] = value


def _make_heap(items: list, first: int, last: int) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _sift_down(items, first, parent, length, items[first + parent])
        if parent == 0:
            return
        parent -= 1


def _pop_heap(items: list, first: int, last: int, result: int) -> None:
    value = items[result]
    items[result] = items[first]
    _sift_down(items, first, 0, last - first, value)


def _heap_select(items: list, first: int, middle: int, last: int) -> None:
    _make_heap(items, first, middle)
    for index in range(middle, last):
        if _less(items[index], items[first]):
            _pop_heap(items, first, middle, index)


def _sort_heap(items: list, first: int, last: int) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(items, first, last, last)


def partial_sort(items: list, first: int, middle: int, last: int) -> None:
    _heap_select(items, first, middle, last)
    _sort_heap(items, first, middle)


# ----- partitioning around a median of three -----------------------------------------------
def _median_to_first(items: list, result: int, a: int, b: int, c: int) -> None:
    if _less(items[a], items[b]):
        if _less(items[b], items[c]):
            chosen = b
        elif _less(items[a], items[c]):
            chosen = c
        else:
            chosen = a
    elif _less(items[a], items[c]):
        chosen = a
    elif _less(items[b], items[c]):
        chosen = c
    else:
        chosen = b
    items[result], items[chosen] = items[chosen], items[result]


def _partition(items: list, first: int, last: int, pivot: int) -> int:
    while True:
        while _less(items[first], items[pivot]):
            first += 1
        last -= 1
        while _less(items[pivot], items[last]):
            last -= 1
        if not first < last:
            return first
        items[first], items[last] = items[last], items[first]
        first += 1


def _partition_pivot(items: list, first: int, last: int) -> int:
    middle = first + (last - first) // 2
    _median_to_first(items, first, first + 1, middle, last - 1)
    return _partition(items, first + 1, last, first)


# ----- insertion sorts --------------------------------------------------------------------
def _linear_insert(items: list, last: int) -> None:
    value = items[last]
    before = last - 1
    while _less(value, items[before]):
        items[last] = items[before]
        last = before
        before -= 1
    items[last] = value


def _insertion_sort(items: list, first: int, last: int) -> None:
    if first == last:
        return
    for index in range(first + 1, last):
        if _less(items[index], items[first]):
            value = items[index]
            items[first + 1:index + 1] = items[first:index]
            items[first] = value
        else:
            _linear_insert(items, index)


def _log2(count: int) -> int:
    return count.bit_length() - 1


# ----- std::sort and std::nth_element -----------------------------------------------------
def introsort(items: list, first: int, last: int) -> None:
    if first == last:
        return
    _introsort_loop(items, first, last, 2 * _log2(last - first))
    if last - first > _INSERTION_UP_TO:
        _insertion_sort(items, first, first + _INSERTION_UP_TO)
        for index in range(first + _INSERTION_UP_TO, last):
            _linear_insert(items, index)
    else:
        _insertion_sort(items, first, last)


def _introsort_loop(items: list, first: int, last: int, depth: int) -> None:
    while last - first > _INSERTION_UP_TO:
        if depth == 0:
            partial_sort(items, first, last, last)
            return
        depth -= 1
        cut = _partition_pivot(items, first, last)
        _introsort_loop(items, cut, last, depth)
        last = cut


def nth_element(items: list, first: int, nth: int, last: int) -> None:
    if first == last or nth == last:
        return
    depth = 2 * _log2(last - first)
    while last - first > 3:
        if depth == 0:
            _heap_select(items, first, nth + 1, last)
            items[first], items[nth] = items[nth], items[first]
            return
        depth -= 1
        cut = _partition_pivot(items, first, last)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(items, first, last)


# ----- what torch asks of them --------------------------------------------------------------
def rows_with_ties(rows: np.ndarray) -> np.ndarray:
    """The indices of the rows (of a 2-d array) holding a value twice; two NaNs count, as
    torch's comparisons tie them."""
    if rows.shape[1] < 2:
        return np.zeros(0, np.int64)
    ordered = np.sort(rows, axis=1)
    tied = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
    if rows.dtype.kind in "fc":
        tied |= np.isnan(rows).sum(axis=1) > 1
    return np.flatnonzero(tied)


def _keyed(row: np.ndarray, descending: bool) -> list:
    """(key, index) pairs: each value's rank (NaN above all), negated when descending, so
    that ``<`` between keys is torch's comparison."""
    nans = np.isnan(row) if row.dtype.kind == "f" else np.zeros(row.shape, bool)
    ranks = np.empty(row.shape, np.int64)
    ranks[~nans] = np.unique(row[~nans], return_inverse=True)[1].reshape(-1)
    ranks[nans] = row.size  # (NaN: largest; a descending order puts it first)
    keys = (-ranks if descending else ranks).tolist()
    return list(zip(keys, range(row.size), strict=True))


def sort_order(row: np.ndarray, descending: bool) -> np.ndarray:
    """The indices torch.sort(stable=False) gives a 1-d row (std::sort)."""
    items = _keyed(row, descending)
    introsort(items, 0, len(items))
    return np.array([index for _, index in items], np.int64)


def topk_order(row: np.ndarray, k: int, largest: bool, sorted: bool) -> np.ndarray:
    """The indices torch.topk gives a 1-d row: std::partial_sort when k * 64 <= n, else
    std::nth_element at k - 1 and, if sorted, std::sort of the first k - 1."""
    items = _keyed(row, largest)
    count = len(items)
    if k * 64 <= count:
        partial_sort(items, 0, k, count)
    else:
        nth_element(items, 0, k - 1, count)
        if sorted:
            introsort(items, 0, k - 1)
    return np.array([index for _, index in items[:k]], np.int64)
