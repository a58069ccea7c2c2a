"""Layers of a DAG with the least total edge length (dot's ranking), exactly.

Minimise the sum of (layer[t] - layer[s]) over the edges, subject to layer[t] >= layer[s] + 1.
Written as a cost per node, layer[v] weighs (edges into v) - (edges out of v). Two exact
solvers share the work:

- small graphs: steepest descent from a feasible layering. A step moves a set of nodes one
  layer down (or up) together; the set must take along every node at the far end of a tight
  edge (length 1), and the best such set is a minimum cut (a closure problem), found with
  augmenting paths. The objective is L-natural convex, so when no set improves, the layering
  is optimal; from a good start it takes a few steps, and often none.
- large graphs: the linear program with SciPy's HiGHS. Its constraint matrix is an
  incidence matrix, so the LP optimum is already integral.
"""

from __future__ import annotations

from collections import deque

import numpy as np

DESCENT_UP_TO = 400  # nodes; above this the LP solver is faster than Python min cuts


def optimal_layers(count: int, pairs: list[tuple[int, int]], start: list[int]) -> list[int]:
    """The layering of least total edge length; ``start`` must satisfy every edge."""
    if count <= DESCENT_UP_TO:
        return _descend(count, pairs, list(start))
    return _linear_program(count, pairs) or list(start)


def _descend(count: int, pairs: list[tuple[int, int]], layer: list[int]) -> list[int]:
    weight = [0] * count
    for source, target in pairs:
        weight[target] += 1
        weight[source] -= 1
    flipped = [-w for w in weight]
    while True:
        tight = [(s, t) for s, t in pairs if layer[t] - layer[s] == 1]
        down, down_gain = cheapest_closed_set(count, weight, tight)
        up, up_gain = cheapest_closed_set(count, flipped, [(t, s) for s, t in tight])
        if not down and not up:
            break
        moved, step = (down, 1) if down_gain <= up_gain else (up, -1)
        for v in moved:
            layer[v] += step
    low = min(layer, default=0)
    return [value - low for value in layer]


def cheapest_closed_set(count: int, weight: list[int],
                        arcs: list[tuple[int, int]]) -> tuple[list[int], int]:
    """The set X with the least weight sum (if negative) such that (a in X) implies (b in X).

    The classic reduction: a source feeds every negative node, every positive node feeds a
    sink, arcs have unbounded capacity; X is the source side of a minimum cut. Returns
    ([], 0) when no set has a negative sum.
    """
    source, sink = count, count + 1
    heads: list[int] = []
    capacity: list[int] = []
    leaving: list[list[int]] = [[] for _ in range(count + 2)]

    def link(a: int, b: int, amount: int) -> None:
        leaving[a].append(len(heads))
        heads.append(b)
        capacity.append(amount)
        leaving[b].append(len(heads))  # the reverse arc, at index ^ 1
        heads.append(a)
        capacity.append(0)

    unbounded = sum(abs(w) for w in weight) + 1
    for v, w in enumerate(weight):
        if w < 0:
            link(source, v, -w)
        elif w > 0:
            link(v, sink, w)
    for a, b in arcs:
        link(a, b, unbounded)
    while True:
        through = _residual_search(source, sink, heads, capacity, leaving)
        if sink not in through:
            break
        path, v = [], sink
        while v != source:
            arc = through[v]
            path.append(arc)
            v = heads[arc ^ 1]
        amount = min(capacity[arc] for arc in path)
        for arc in path:
            capacity[arc] -= amount
            capacity[arc ^ 1] += amount
    # The last search found no path: what it reached is the source side of a minimum cut.
    members = [v for v in through if v < count]
    total = sum(weight[v] for v in members)
    return (members, total) if total < 0 else ([], 0)


def _residual_search(source: int, sink: int, heads: list[int], capacity: list[int],
                     leaving: list[list[int]]) -> dict[int, int]:
    """Breadth-first search in the residual graph, up to the sink: the arc into each node."""
    through = {source: -1}
    queue = deque([source])
    while queue:
        v = queue.popleft()
        for arc in leaving[v]:
            w = heads[arc]
            if capacity[arc] > 0 and w not in through:
                through[w] = arc
                if w == sink:
                    return through
                queue.append(w)
    return through


def _linear_program(count: int, pairs: list[tuple[int, int]]) -> list[int] | None:
    """Solved with HiGHS; None when SciPy's solver is unavailable or fails."""
    try:
        from scipy.optimize import linprog
        from scipy.sparse import csr_matrix
    except ImportError:
        return None
    sources = np.array([s for s, _ in pairs])
    targets = np.array([t for _, t in pairs])
    rows = np.arange(len(pairs))
    constraints = csr_matrix(
        (np.r_[np.ones(len(pairs)), -np.ones(len(pairs))],
         (np.r_[rows, rows], np.r_[sources, targets])), shape=(len(pairs), count))
    cost = (np.bincount(targets, minlength=count) - np.bincount(sources, minlength=count))
    solved = linprog(cost.astype(float), A_ub=constraints, b_ub=-np.ones(len(pairs)),
                     bounds=(0, None), method="highs")
    if not solved.success:
        return None
    layer = np.round(solved.x).astype(int)
    return (layer - layer.min()).tolist()
