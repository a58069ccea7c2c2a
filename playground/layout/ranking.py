"""Layers of a DAG with the least total edge length (dot's ranking), exactly.

Minimise the sum of (layer[t] - layer[s]) over the edges, subject to layer[t] >= layer[s] + 1.
Written as a cost per node, layer[v] weighs (edges into v) - (edges out of v). After a cheap
proof that often settles it, the C core (_core.c, when it built) runs dot's network
simplex, or the descent below for a graph in several parts. Without it, two exact solvers in
Python share the work:

- a forest of tight edges that carries the LP's dual flow (network simplex's cut values)
  certifies the start optimal; autograd graphs usually have one;
- from the heuristic layering, steepest descent. A step moves a set of nodes down (or up)
  together; the set must take along every node at the far end of a tight edge (length 1),
  and the best such set is a minimum cut (a closure problem), found with Dinic's blocking
  flows. The gain is the same for each layer moved, so the set moves as far as its slack
  allows. The objective is L-natural convex: when no set improves, the layering is optimal.
  On autograd graphs the start is usually optimal already and the check costs two cuts.
- when the descent would take more steps than its budget (240 / nodes, at least one; a
  poor start on a random graph took dozens, each a cut of the whole graph) or the graph
  is large: the linear program
  with SciPy's HiGHS. Its constraint matrix is an incidence matrix, so the LP optimum is
  already integral.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from playground.layout import core
from playground.layout.parts import part_labels

DESCENT_UP_TO = 400  # nodes; above this the LP solver is faster than Python min cuts
DESCENT_WORK = 240   # steps x nodes tried before handing over to the LP: a bad start needs
                     # dozens of steps; a small lesson graph a few, cheaper than the LP


def optimal_layers(count: int, pairs: list[tuple[int, int]], start: list[int]) -> list[int]:
    """The layering of least total edge length; ``start`` must satisfy every edge."""
    if is_certified_optimal(count, pairs, start):  # most autograd graphs: no cut needed
        return _from_zero(start)
    if core.compiled is not None:  # in C: dot's network simplex, else the descent below
        sources, targets = [s for s, _ in pairs], [t for _, t in pairs]
        return core.compiled.simplex(count, sources, targets, start) or \
            core.compiled.descend(count, sources, targets, start)  # both copy what they read
    if count <= DESCENT_UP_TO:
        layer = _descend(count, pairs, list(start), max(1, DESCENT_WORK // max(count, 1)))
        if layer is not None:
            return layer
    return _linear_program(count, pairs) or _descend(count, pairs, list(start))


def is_certified_optimal(count: int, pairs: list[tuple[int, int]], layer: list[int]) -> bool:
    """Whether a forest of tight edges (length 1) proves ``layer`` optimal.

    By LP duality the layering is optimal when the edges can carry a flow, at least 0 and
    only on tight edges, that brings each node as much as it has edges in minus edges out
    (network simplex's cut values). On a forest that flow is unique: peeling leaves fixes
    it edge by edge. False means unproven: tight edges beyond the forest might still do.
    """
    need = [0] * count  # net inflow still to be brought to each node
    for source, target in pairs:
        need[target] += 1
        need[source] -= 1
    forest: list[list[tuple[int, int]]] = [[] for _ in range(count)]  # (neighbour, +1 in / -1)
    label = list(range(count))
    for source, target in pairs:
        if layer[target] - layer[source] == 1:
            a, b = _root(label, source), _root(label, target)
            if a != b:
                label[a] = b
                forest[target].append((source, 1))
                forest[source].append((target, -1))
    degree = [len(edges) for edges in forest]
    leaves = [v for v in range(count) if degree[v] <= 1]
    while leaves:
        v = leaves.pop()
        if degree[v] == 0:  # the last node of its tree: everything must be balanced
            if need[v]:
                return False
            continue
        w, inward = next((w, inward) for w, inward in forest[v] if degree[w] > 0)
        flow = need[v] * inward  # along the edge's direction, into v when inward
        if flow < 0:
            return False
        need[w] += need[v]  # what v takes from (or gives to) w, w must make up elsewhere
        need[v] = degree[v] = 0
        degree[w] -= 1
        if degree[w] <= 1:
            leaves.append(w)
    return True


def _root(label: list[int], v: int) -> int:
    while label[v] != v:
        label[v] = label[label[v]]
        v = label[v]
    return v


def _descend(count: int, pairs: list[tuple[int, int]], layer: list[int],
             steps: int | None = None) -> list[int] | None:
    """Steepest descent to the optimum; None if it takes more than ``steps`` steps."""
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
        if steps is not None:
            if steps == 0:
                return None
            steps -= 1
        moved, step = (down, 1) if down_gain <= up_gain else (up, -1)
        _move_apart(moved, step, pairs, layer)
    return _from_zero(layer)


def _from_zero(layer: list[int]) -> list[int]:
    """The same layering, shifted so that its top layer is 0."""
    low = min(layer, default=0)
    return [value - low for value in layer]


def _move_apart(moved: list[int], step: int, pairs: list[tuple[int, int]],
                layer: list[int]) -> None:
    """Move a minimum-cut set by ``step`` layers, as far as each of its parts can go.

    The parts (joined by no edge) are closed sets of their own, none with a positive gain,
    so each moves alone. A part's gain is the same for every layer it moves, so it goes as
    far as the slack of the edges it pulls on allows (at least one layer: none is tight).
    """
    local = {v: i for i, v in enumerate(moved)}
    inner = []   # edges within the set, between local numbers
    pulled = []  # (local member, slack) for edges that the move shortens
    for s, t in pairs:
        a, b = local.get(s), local.get(t)
        if a is not None and b is not None:
            inner.append((a, b))
        elif (a is not None) == (step == 1) and (a is not None or b is not None):
            pulled.append((a if step == 1 else b, layer[t] - layer[s] - 1))
    label = part_labels(len(moved), inner)
    room: dict[int, int] = {}
    for member, slack in pulled:
        room[label[member]] = min(room.get(label[member], slack), slack)
    for member, v in enumerate(moved):
        layer[v] += step * room.get(label[member], 1)


def cheapest_closed_set(count: int, weight: list[int],
                        arcs: list[tuple[int, int]]) -> tuple[list[int], int]:
    """The set X with the least weight sum (if negative) such that (a in X) implies (b in X).

    The classic reduction: a source feeds every negative node, every positive node feeds a
    sink, arcs have unbounded capacity; X is the source side of a minimum cut, found with
    Dinic's blocking flows. Returns ([], 0) when no set has a negative sum.
    """
    network = _Network(count + 2)
    source, sink = count, count + 1
    unbounded = sum(abs(w) for w in weight) + 1
    for v, w in enumerate(weight):
        if w < 0:
            network.link(source, v, -w)
        elif w > 0:
            network.link(v, sink, w)
    for a, b in arcs:
        network.link(a, b, unbounded)
    while True:
        level = network.levels(source, sink)
        if level[sink] < 0:
            break
        network.block(source, sink, level)
    # The last search did not reach the sink: what it reached is a minimum cut's source side.
    members = [v for v in range(count) if level[v] >= 0]
    total = sum(weight[v] for v in members)
    return (members, total) if total < 0 else ([], 0)


class _Network:
    """A flow network as arc arrays; arc i ^ 1 is the reverse of arc i."""

    def __init__(self, size: int) -> None:
        self.heads: list[int] = []
        self.capacity: list[int] = []
        self.leaving: list[list[int]] = [[] for _ in range(size)]

    def link(self, a: int, b: int, amount: int) -> None:
        self.leaving[a].append(len(self.heads))
        self.heads.append(b)
        self.capacity.append(amount)
        self.leaving[b].append(len(self.heads))
        self.heads.append(a)
        self.capacity.append(0)

    def levels(self, source: int, sink: int) -> list[int]:
        """Breadth-first distance from the source in the residual network (-1: unreached)."""
        heads, capacity, leaving = self.heads, self.capacity, self.leaving
        level = [-1] * len(leaving)
        level[source] = 0
        queue = deque([source])
        while queue:
            v = queue.popleft()
            if 0 <= level[sink] <= level[v]:  # nothing further is on a shortest path
                break
            for arc in leaving[v]:
                w = heads[arc]
                if level[w] < 0 and capacity[arc] > 0:
                    level[w] = level[v] + 1
                    queue.append(w)
        return level

    def block(self, source: int, sink: int, level: list[int]) -> None:
        """Saturate every shortest augmenting path (a blocking flow), depth first."""
        heads, capacity, leaving = self.heads, self.capacity, self.leaving
        cursor = [0] * len(leaving)  # arcs before the cursor are used up for this phase
        path: list[int] = []  # arcs from the source
        v = source
        while True:
            if v == sink:
                amount = min(capacity[arc] for arc in path)
                for arc in path:
                    capacity[arc] -= amount
                    capacity[arc ^ 1] += amount
                path.clear()  # restart from the source; saturated arcs fail the test below
                v = source
                continue
            arcs = leaving[v]
            while cursor[v] < len(arcs):
                arc = arcs[cursor[v]]
                w = heads[arc]
                if capacity[arc] > 0 and level[w] == level[v] + 1:
                    break
                cursor[v] += 1
            if cursor[v] < len(arcs):  # advance
                path.append(arcs[cursor[v]])
                v = heads[path[-1]]
            elif v == source:
                return
            else:  # retreat: v is a dead end in this phase
                level[v] = -1
                v = heads[path.pop() ^ 1]
                cursor[v] += 1


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


# ----- the heuristic layering that optimal_layers starts from -------------------------------
def assign_layers(count: int, pairs: list[tuple[int, int]]) -> list[int]:
    children: list[list[int]] = [[] for _ in range(count)]
    for s, t in pairs:
        children[s].append(t)
    order = _topological_order(count, children)
    position = [0] * count
    for i, v in enumerate(order):
        position[v] = i
    forward = [(s, t) for s, t in pairs if position[t] > position[s]]  # no cycle-closing edge
    parents: list[list[int]] = [[] for _ in range(count)]
    below: list[list[int]] = [[] for _ in range(count)]
    for s, t in forward:
        parents[t].append(s)
        below[s].append(t)
    layer = [0] * count
    for v in order:
        step = layer[v] + 1
        for w in below[v]:
            if layer[w] < step:
                layer[w] = step
    for v in reversed(order):  # parentless nodes sit just above their highest child
        if below[v] and not parents[v]:
            layer[v] = min(map(layer.__getitem__, below[v])) - 1
    _shorten_edges(order, parents, below, layer)
    if any(layer[t] - layer[s] > 1 for s, t in forward):
        layer = optimal_layers(count, forward, layer)
    return layer


def _shorten_edges(order: list[int], parents: list[list[int]], children: list[list[int]],
                   layer: list[int]) -> None:
    """Move nodes between their parents and children to shorten the edges in total.

    Moving a node one layer down lengthens each edge from a parent and shortens each edge to
    a child, so a node with more children than parents goes as low as it may, and the
    reverse; repeated until nothing moves (a cheap stand-in for dot's network simplex).
    """
    # Only nodes with parents and children, in different numbers, can gain by moving.
    movable = [v for v in order
               if parents[v] and children[v] and len(parents[v]) != len(children[v])]
    for sweep in range(8):
        moved = False
        for v in (movable if sweep % 2 else reversed(movable)):
            up, down = parents[v], children[v]
            if len(down) > len(up):
                best = min(map(layer.__getitem__, down)) - 1
            else:
                best = max(map(layer.__getitem__, up)) + 1
            if best != layer[v]:
                layer[v] = best
                moved = True
        if not moved:
            break


def _topological_order(count: int, children: list[list[int]]) -> list[int]:
    """Reverse post-order of an iterative DFS; edges closing a cycle are ignored later."""
    seen = [False] * count
    finished: list[int] = []
    for root in range(count):
        if seen[root]:
            continue
        seen[root] = True
        stack = [(root, iter(children[root]))]
        while stack:
            v, unvisited = stack[-1]
            for w in unvisited:
                if not seen[w]:
                    seen[w] = True
                    stack.append((w, iter(children[w])))
                    break
            else:
                stack.pop()
                finished.append(v)
    finished.reverse()
    return finished
