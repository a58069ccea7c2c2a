"""Connected parts of a graph given as numbered nodes and edges (union-find)."""

from __future__ import annotations


def part_labels(count: int, pairs: list[tuple[int, int]]) -> list[int]:
    """Each node's connected part, named by its first node (union-find, halving paths)."""
    root = list(range(count))
    for a, b in pairs:
        while root[a] != a:
            root[a] = a = root[root[a]]
        while root[b] != b:
            root[b] = b = root[root[b]]
        if a < b:  # the smaller number is the root: it names the part
            root[b] = a
        elif b < a:
            root[a] = b
    for v in range(count):  # roots precede their members, so one look-up each suffices
        root[v] = root[root[v]]
    return root
