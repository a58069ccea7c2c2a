"""Phase 2 of the layered layout: real and dummy nodes by layer, long edges cut per layer."""

from __future__ import annotations

from itertools import pairwise

import numpy as np

DUMMY_BUDGET = 40_000  # dummy nodes of long edges in one part; longer ones are drawn straight


class Layering:
    """Real and dummy nodes by layer, with the edge segments between adjacent layers."""

    def __init__(self, real: int, layer: list[int]) -> None:
        self.real = real
        self.layer = list(layer)
        self.up: list[list[int]] = [[] for _ in range(real)]    # neighbours one layer above
        self.down: list[list[int]] = [[] for _ in range(real)]  # ... one layer below
        self._arrays: tuple | None = None
        self._gaps: dict | None = None

    @property
    def size(self) -> int:
        return len(self.layer)

    def neighbour_arrays(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """``up`` and ``down`` as (pointers, targets) arrays (CSR), once all edges are in."""
        if self._arrays is None:
            self._arrays = tuple(_compressed(lists) for lists in (self.up, self.down))
        return self._arrays

    def near(self, members: list[int], side: int) -> list[list[int]]:
        """Each member's neighbours above (side 0), below (1) or on both sides (2)."""
        if side == 2:
            return [self.up[v] + self.down[v] for v in members]
        return list(map((self.up, self.down)[side].__getitem__, members))

    def by_layer(self) -> list[list[int]]:
        """Each layer's nodes (real and dummy), in number order; new lists every call."""
        members: list[list[int]] = [[] for _ in range(max(self.layer, default=-1) + 1)]
        for v, level in enumerate(self.layer):
            members[level].append(v)
        return members

    def gap_segments(self) -> dict[int, tuple[list[int], list[int], int]]:
        """Upper layer -> (upper ends, lower ends, lower width) of the segments below it.

        Layers keep their members while their order changes, so this is made once. Gaps
        where either layer has a single node are left out: their segments cannot cross.
        """
        if self._gaps is None:
            self._gaps = {}
            for level, (upper, lower) in enumerate(pairwise(self.by_layer())):
                if len(upper) > 1 and len(lower) > 1:
                    tops = [v for v in upper for _ in self.down[v]]
                    bottoms = [w for v in upper for w in self.down[v]]
                    self._gaps[level] = (tops, bottoms, len(lower))
        return self._gaps

    def add_edges(self, pairs: list[tuple[int, int]]) -> list[list[int]]:
        """Each edge's chain of nodes, from source to target (a self-loop stays [v, v])."""
        layer, up, down = self.layer, self.up, self.down
        straight = _straight_edges(layer, pairs)
        chains = []
        for number, (source, target) in enumerate(pairs):
            if layer[target] - layer[source] == 1:  # most edges: no dummy
                down[source].append(target)
                up[target].append(source)
                chains.append([source, target])
            elif number in straight:
                chains.append([source, target])
            else:
                chains.append(self.add_edge(source, target) if source != target
                              else [source, source])
        self._arrays = None
        return chains

    def add_edge(self, source: int, target: int) -> list[int]:
        """The chain of nodes the edge passes through, from source to target."""
        layer = self.layer
        top, bottom = (source, target) if layer[source] < layer[target] else (target, source)
        self._arrays = None
        chain = [top]
        for level in range(layer[top] + 1, layer[bottom]):
            dummy = len(layer)
            layer.append(level)
            self.up.append([])
            self.down.append([])
            chain.append(dummy)
        chain.append(bottom)
        if layer[top] == layer[bottom]:  # only in a cycle: draw it straight
            return chain if top == source else chain[::-1]
        for upper, lower in pairwise(chain):
            self.down[upper].append(lower)
            self.up[lower].append(upper)
        return chain if top == source else chain[::-1]


def _straight_edges(layer: list[int], pairs: list[tuple[int, int]]) -> set[int]:
    """The longest edges, drawn straight over the layers they skip, that would otherwise take
    more than DUMMY_BUDGET dummy nodes in all. A weight used in every step of an unrolled loop
    of n steps has edges skipping 1, 2, ... n layers: n^2/2 dummies, 10^9 at n = 50,000."""
    spans = [abs(layer[t] - layer[s]) - 1 for s, t in pairs]
    total = sum(span for span in spans if span > 0)
    straight: set[int] = set()
    for number in sorted(range(len(pairs)), key=spans.__getitem__, reverse=True):
        if total <= DUMMY_BUDGET:
            break
        straight.add(number)
        total -= spans[number]
    return straight


def _compressed(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    pointers = np.zeros(len(lists) + 1, np.int64)
    np.cumsum([len(items) for items in lists], out=pointers[1:])
    targets = np.fromiter((w for items in lists for w in items), np.int64, int(pointers[-1]))
    return pointers, targets


