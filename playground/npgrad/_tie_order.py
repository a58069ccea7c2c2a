"""Where torch puts equal values: the order its selection and the C++ standard library's
algorithms leave them in (GCC's libstdc++, which torch's Linux wheels are built with), which
is not the order they came in. torch.sort (not stable) runs std::sort over (value, index)
pairs, torch.topk std::nth_element then std::sort of the first k - 1 (or std::partial_sort
when k is small beside the row), kthvalue its own quickselect, mode and nanmedian std::sort
and std::nth_element. These are those algorithms, written here from their description, step
for step; sort and topk run them on integer keys (each value's rank, NaN the largest, negated
for a descending order), so that only ``<`` between keys is ever asked.

Only rows holding equal values need this: without ties every algorithm gives the one order."""

from __future__ import annotations

import numpy as np


# ----- torch's and libstdc++'s selection and sorting, step for step -----------------------------
# Among equal values, the position torch returns is where its algorithm leaves one: kthvalue's
# quickselect is torch's own; mode takes the last of a run after std::sort; nanmedian of NaNs
# only, where std::nth_element leaves one.
def torch_quick_select(values: list, k: int) -> int:
    """The original position of the k-th smallest of ``values`` (NaN largest) after torch's
    quick_select_template (median of three pivots)."""
    positions = list(range(len(values)))

    def greater(x, y) -> bool:
        return (x != x and y == y) or x > y

    def swap(i, j) -> None:
        values[i], values[j] = values[j], values[i]
        positions[i], positions[j] = positions[j], positions[i]

    low, high = 0, len(values) - 1
    while high > low:
        if high == low + 1:
            if greater(values[low], values[high]):
                swap(low, high)
            break
        swap(low + (high - low) // 2, low + 1)
        for i, j in ((low + 1, high), (low, high), (low + 1, low)):
            if greater(values[i], values[j]):
                swap(i, j)
        i, j, pivot = low + 1, high, values[low]
        while True:
            i += 1
            while greater(pivot, values[i]):
                i += 1
            j -= 1
            while greater(values[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(low, j)
        if j <= k:
            low = i
        if j >= k:
            high = j - 1
    return positions[k]


def std_sort(items: list, less) -> None:
    """libstdc++'s std::sort, in place: introsort down to runs of 16, then insertion sort."""
    if len(items) > 1:
        _introsort(items, 0, len(items), 2 * (len(items).bit_length() - 1), less)
        if len(items) > 16:
            _insertion_sort(items, 0, 16, less)
            for i in range(16, len(items)):
                _linear_insert(items, i, less)
        else:
            _insertion_sort(items, 0, len(items), less)


def introselect_position(size: int) -> int:
    """Which of ``size`` equivalent elements std::nth_element leaves first."""
    items, first, last = list(range(size)), 0, size
    depth = 2 * (size.bit_length() - 1)
    while last - first > 3:
        if depth == 0:  # (its heap select moves nothing when nothing is less)
            return items[0]
        depth -= 1
        cut = _partition_pivot(items, first, last, lambda a, b: False)
        first, last = (cut, last) if cut <= 0 else (first, cut)
    return items[0]


def _introsort(items: list, first: int, last: int, depth: int, less) -> None:
    while last - first > 16:
        if depth == 0:
            _heap_sort(items, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(items, first, last, less)
        _introsort(items, cut, last, depth, less)
        last = cut


def _partition_pivot(items: list, first: int, last: int, less) -> int:
    """The median of three moved first, then the unguarded partition around it."""
    a, b, c = first + 1, first + (last - first) // 2, last - 1
    if less(items[a], items[b]):
        pick = b if less(items[b], items[c]) else c if less(items[a], items[c]) else a
    else:
        pick = a if less(items[a], items[c]) else c if less(items[b], items[c]) else b
    items[first], items[pick] = items[pick], items[first]
    low, high, pivot = first + 1, last, items[first]
    while True:
        while less(items[low], pivot):
            low += 1
        high -= 1
        while less(pivot, items[high]):
            high -= 1
        if low >= high:
            return low
        items[low], items[high] = items[high], items[low]
        low += 1


def _insertion_sort(items: list, first: int, last: int, less) -> None:
    for i in range(first + 1, last):
        value = items[i]
        if less(value, items[first]):
            items[first + 1:i + 1] = items[first:i]
            items[first] = value
        else:
            _linear_insert(items, i, less)


def _linear_insert(items: list, last: int, less) -> None:
    value = items[last]
    while last > 0 and less(value, items[last - 1]):
        items[last] = items[last - 1]
        last -= 1
    items[last] = value


def _heap_sort(items: list, first: int, last: int, less) -> None:
    """make_heap then sort_heap (introsort's way out of a deep recursion)."""
    for parent in range((last - first - 2) // 2, -1, -1):
        _adjust_heap(items, first, parent, last - first, items[first + parent], less)
    while last - first > 1:
        last -= 1
        value, items[last] = items[last], items[first]
        _adjust_heap(items, first, 0, last - first, value, less)


def _adjust_heap(items: list, first: int, hole: int, length: int, value, less) -> None:
    top = child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(items[first + child], items[first + child - 1]):
            child -= 1
        items[first + hole] = items[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        items[first + hole] = items[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(items[first + parent], value):
        items[first + hole] = items[first + parent]
        hole, parent = parent, (parent - 1) // 2
    items[first + hole] = value


# ----- std::nth_element and std::partial_sort, from the same pieces ---------------------------
def _make_heap(items: list, first: int, last: int, less) -> None:
    for parent in range((last - first - 2) // 2, -1, -1):
        _adjust_heap(items, first, parent, last - first, items[first + parent], less)


def _sort_heap(items: list, first: int, last: int, less) -> None:
    while last - first > 1:
        last -= 1
        value, items[last] = items[last], items[first]
        _adjust_heap(items, first, 0, last - first, value, less)


def _heap_select(items: list, first: int, middle: int, last: int, less) -> None:
    """The smallest middle - first of the range in a heap at its front (a later element
    less than the heap's top takes its place)."""
    _make_heap(items, first, middle, less)
    for index in range(middle, last):
        if less(items[index], items[first]):
            value, items[index] = items[index], items[first]
            _adjust_heap(items, first, 0, middle - first, value, less)


def partial_sort(items: list, middle: int, less) -> None:
    _heap_select(items, 0, middle, len(items), less)
    _sort_heap(items, 0, middle, less)


def nth_element(items: list, nth: int, less) -> None:
    first, last = 0, len(items)
    if first == last or nth == last:
        return
    depth = 2 * (last.bit_length() - 1)
    while last - first > 3:
        if depth == 0:
            _heap_select(items, first, nth + 1, last, less)
            items[first], items[nth] = items[nth], items[first]
            return
        depth -= 1
        cut = _partition_pivot(items, first, last, less)
        first, last = (cut, last) if cut <= nth else (first, cut)
    _insertion_sort(items, first, last, less)


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


def _by_key(a, b) -> bool:
    return a[0] < b[0]


def sort_order(row: np.ndarray, descending: bool) -> np.ndarray:
    """The indices torch.sort(stable=False) gives a 1-d row (std::sort)."""
    items = _keyed(row, descending)
    std_sort(items, _by_key)
    return np.array([index for _, index in items], np.int64)


def topk_order(row: np.ndarray, k: int, largest: bool, sorted: bool) -> np.ndarray:
    """The indices torch.topk gives a 1-d row: std::partial_sort when k * 64 <= n, else
    std::nth_element at k - 1 and, if sorted, std::sort of the first k - 1."""
    items = _keyed(row, largest)
    if k * 64 <= len(items):
        partial_sort(items, k, _by_key)
    else:
        nth_element(items, k - 1, _by_key)
        if sorted:
            front = items[:k - 1]
            std_sort(front, _by_key)
            items[:k - 1] = front
    return np.array([index for _, index in items[:k]], np.int64)


def by_rows(data: np.ndarray, dim: int, tied_row, untied) -> np.ndarray:
    """``untied()``'s order along ``dim``, with the rows that hold equal values ordered by
    ``tied_row`` (one 1-d row at a time) instead."""
    rows = np.moveaxis(data, dim, -1).reshape(-1, data.shape[dim])
    tied = rows_with_ties(rows)
    order = untied()
    if not tied.size:
        return order
    moved = np.moveaxis(order, dim, -1).copy()
    flat = moved.reshape(-1, moved.shape[-1])
    for index in tied:
        flat[index] = tied_row(rows[index])
    return np.moveaxis(flat.reshape(moved.shape), -1, dim)
