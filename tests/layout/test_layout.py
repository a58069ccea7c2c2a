"""The layered layout: edges point down, layers do not overlap, crossings are minimal."""

import itertools
import random
from itertools import pairwise

import pytest

from playground.layout import count_inversions, layered_layout
from tests.layout.graphs import layered_random

# every property below holds for the C core and for its Python twin
pytestmark = pytest.mark.usefixtures("layout_core")


def tree(depth: int) -> tuple[list[str], list[tuple[str, str]]]:
    nodes = [f"t{i}" for i in range(2 ** depth - 1)]
    edges = [(f"t{i}", f"t{2 * i + c}") for i in range(2 ** (depth - 1) - 1) for c in (1, 2)]
    return nodes, edges


def random_dag(count: int, seed: int) -> tuple[list[str], list[tuple[str, str]]]:
    rng = random.Random(seed)
    edges = {(f"v{a}", f"v{b}") for b in range(1, count)
             for a in rng.sample(range(b), min(b, rng.choice((1, 2))))}
    return [f"v{i}" for i in range(count)], sorted(edges)


def brute_crossings(layout, edges) -> int:
    """Crossings of straight segments between adjacent layers, by checking every pair."""
    segments = []
    for route in layout.routes:
        segments.extend(pairwise(route))
    count = 0
    for (a0, a1), (b0, b1) in itertools.combinations(segments, 2):
        if a0[1] != b0[1] or a1[1] != b1[1]:
            continue
        if (a0[0] - b0[0]) * (a1[0] - b1[0]) < 0:
            count += 1
    return count


def test_count_inversions_matches_brute_force():
    rng = random.Random(3)
    for _ in range(50):
        values = [rng.randrange(8) for _ in range(rng.randrange(20))]
        brute = sum(1 for i, j in itertools.combinations(range(len(values)), 2)
                    if values[i] > values[j])
        assert count_inversions(values, 8) == brute


def test_every_edge_points_down_and_routes_join_their_ends():
    nodes, edges = random_dag(60, 1)
    layout = layered_layout(nodes, edges)
    for (source, target), route in zip(edges, layout.routes, strict=True):
        assert layout.layers[source] < layout.layers[target]
        assert route[0] == layout.positions[source]
        assert route[-1] == layout.positions[target]
        assert len(route) == layout.layers[target] - layout.layers[source] + 1
        assert all(a[1] < b[1] for a, b in pairwise(route))


def test_nodes_of_a_layer_keep_their_gap():
    nodes, edges = random_dag(80, 2)
    sizes = {n: (40 + 5 * (i % 7), 30) for i, n in enumerate(nodes)}
    layout = layered_layout(nodes, edges, sizes)
    for layer in set(layout.layers.values()):
        row = sorted((layout.positions[n][0], n) for n in nodes if layout.layers[n] == layer)
        for (x0, a), (x1, b) in pairwise(row):
            # two real nodes: 28 px apart; with a long edge between them, 10 px each side
            assert x1 - x0 >= (sizes[a][0] + sizes[b][0]) / 2 + 19.9


def test_trees_and_chains_have_no_crossings():
    for nodes, edges in (tree(7), ([f"c{i}" for i in range(300)],
                                    [(f"c{i}", f"c{i + 1}") for i in range(299)])):
        layout = layered_layout(nodes, edges)
        assert layout.crossings == 0
        assert brute_crossings(layout, edges) == 0


def test_reported_crossings_are_the_drawn_ones():
    nodes, edges = random_dag(50, 5)
    layout = layered_layout(nodes, edges)
    assert layout.crossings == brute_crossings(layout, edges)


def test_a_shared_weight_does_not_stretch_named_tensors():
    # y3 -> f3 -> f2 -> f1 -> acc; every f also uses w; the named tensor sits on its function
    nodes = ["y", "f3", "f2", "f1", "acc_w", "w"]
    edges = [("y", "f3"), ("f3", "f2"), ("f2", "f1"), ("f3", "acc_w"), ("f2", "acc_w"),
             ("f1", "acc_w"), ("acc_w", "w")]
    layout = layered_layout(nodes, edges)
    assert layout.layers["f3"] == layout.layers["y"] + 1
    assert layout.layers["w"] == layout.layers["acc_w"] + 1


def test_upward_puts_the_sources_at_the_bottom():
    nodes, edges = tree(3)
    down = layered_layout(nodes, edges)
    up = layered_layout(nodes, edges, upward=True)
    assert down.positions["t0"][1] < down.positions["t1"][1]
    assert up.positions["t0"][1] > up.positions["t1"][1]


def test_previous_positions_keep_the_order_of_surviving_nodes():
    nodes = ["out", "a", "b", "c"]
    edges = [("out", "a"), ("out", "b"), ("out", "c")]
    previous = {"c": (0.0, 0.0), "a": (100.0, 0.0), "b": (200.0, 0.0)}
    layout = layered_layout(nodes, edges, previous=previous)
    xs = [layout.positions[n][0] for n in ("c", "a", "b")]
    assert xs == sorted(xs)


@pytest.mark.parametrize("nodes, edges", [([], []), (["alone"], []),
                                          (["a", "b"], [("a", "b"), ("b", "a")])])
def test_degenerate_graphs(nodes, edges):
    layout = layered_layout(nodes, edges)
    assert set(layout.positions) == set(nodes)


def test_a_large_graph_lays_out():
    nodes, edges = random_dag(3000, 7)
    layout = layered_layout(nodes, edges)
    assert len(layout.positions) == 3000
    assert len(layout.routes) == len(edges)


@pytest.mark.parametrize("layout_core", ["twin"], indirect=True)  # Python's own helpers
@pytest.mark.parametrize("transpose", ["_transpose_one_by_one", "_transpose_odd_even"])
def test_transpose_leaves_no_swap_that_removes_crossings(transpose):
    from playground.layout import crossings as module
    from playground.layout.layering import Layering
    from playground.layout.ranking import assign_layers

    nodes, edges = layered_random(300, 12, 4)
    index = {name: i for i, name in enumerate(nodes)}
    pairs = [(index[s], index[t]) for s, t in edges]
    work = Layering(len(nodes), assign_layers(len(nodes), pairs))
    for s, t in pairs:
        work.add_edge(s, t)
    order = module.initial_order(work, [None] * len(nodes))
    before = module.total_crossings(work, order)
    getattr(module, transpose)(work, order, passes=100, swap_ties=False)
    after = module.total_crossings(work, order)
    assert sorted(v for members in order for v in members) == list(range(work.size))
    assert after < before
    position = module._positions(work, order)
    for members in order:
        for u, v in pairwise(members):
            gain = sum(module._pair_gain(sorted(position[w] for w in side[u]),
                                         sorted(position[w] for w in side[v]))
                       for side in (work.up, work.down))
            assert gain <= 0, "a swap left undone would remove crossings"


def test_a_busy_small_graph_keeps_the_better_of_two_starts(monkeypatch):
    from playground.layout import layered as module

    starts = []
    initial = module.initial_order

    def spy(work, hints, from_bottom=False):
        starts.append(from_bottom)
        return initial(work, hints, from_bottom)

    monkeypatch.setattr(module, "initial_order", spy)
    nodes, edges = layered_random(120, 7, 4)
    both = layered_layout(nodes, edges)
    assert starts == [False, True]  # busy enough: the bottom start was tried too
    monkeypatch.setattr(module, "SECOND_START_FROM", 10**9)
    top_only = layered_layout(nodes, edges)
    assert both.crossings <= top_only.crossings
    assert both.crossings == brute_crossings(both, edges)
    starts.clear()
    layered_layout(*tree(4), previous=both.positions)  # few crossings: one start
    assert starts == [False]


def test_large_graphs_reach_their_crossings_with_the_odd_even_transpose():
    nodes, edges = layered_random(1200, 30, 7)
    layout = layered_layout(nodes, edges)
    assert layout.crossings == brute_crossings(layout, edges)


@pytest.mark.parametrize("layout_core", ["twin"], indirect=True)  # two Python placements
def test_wide_layers_are_placed_as_the_plain_python_placement_would(monkeypatch):
    from playground.layout import placement

    nodes, edges = layered_random(400, 20, 3)
    numpy_rows = layered_layout(nodes, edges)
    monkeypatch.setattr(placement, "NARROW_ROW", 10 ** 9)  # every layer the plain-Python way
    python_rows = layered_layout(nodes, edges)
    assert max(len(members) for members in _layers_of(numpy_rows).values()) > 6
    for name in nodes:
        assert numpy_rows.positions[name] == pytest.approx(python_rows.positions[name])


def _layers_of(layout) -> dict[int, list[str]]:
    layers: dict[int, list[str]] = {}
    for name, level in layout.layers.items():
        layers.setdefault(level, []).append(name)
    return layers


def test_connected_parts_match_a_plain_search():
    from playground.layout import layered as module

    rng = random.Random(8)
    count = 500
    pairs = [(a, b) for a, b in ((rng.randrange(count), rng.randrange(count))
                                 for _ in range(300)) if a != b]
    neighbours = {v: set() for v in range(count)}
    for a, b in pairs:
        neighbours[a].add(b)
        neighbours[b].add(a)
    expected, seen = [], set()
    for root in range(count):
        if root not in seen:
            part, frontier = {root}, [root]
            while frontier:
                for w in neighbours[frontier.pop()] - part:
                    part.add(w)
                    frontier.append(w)
            seen |= part
            expected.append(sorted(part))
    parts = module._components(count, pairs)
    assert len(parts) > 100
    assert [members for members, _ in parts] == expected  # reading order: by first node
    for members, edge_numbers in parts:
        assert all(pairs[e][0] in members for e in edge_numbers)
    assert sorted(e for _, numbers in parts for e in numbers) == list(range(len(pairs)))


@pytest.mark.parametrize("enabled", [True, False])
def test_the_layout_leaves_garbage_collection_as_it_found_it(enabled):
    import gc

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        layered_layout(*tree(5))
        assert gc.isenabled() == enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_one_node_layers_split_the_ordering_into_runs():
    from playground.layout.crossings import crossing_runs

    order = [[0, 1], [2], [3, 4], [5, 6, 7], [8, 9], [10], [11, 12], [13]]
    runs = crossing_runs(order)
    assert runs == [slice(2, 5)]  # [0, 1] and [11, 12] have no gap of two wide layers
    assert crossing_runs([[0, 1], [2, 3]]) == [slice(0, 2)]


def test_runs_ordered_apart_draw_the_crossings_they_report():
    # two busy random parts joined through a single node: two runs, counted apart
    upper, upper_edges = layered_random(60, 5, 2)
    lower, lower_edges = layered_random(60, 5, 3)
    lower = [name.replace("v", "w") for name in lower]
    lower_edges = [(s.replace("v", "w"), t.replace("v", "w")) for s, t in lower_edges]
    edges = upper_edges + lower_edges + [(name, "hub") for name in upper[-5:]] + \
        [("hub", name) for name in lower[:5]]
    layout = layered_layout(upper + ["hub"] + lower, edges)
    assert layout.crossings > 0
    assert layout.crossings == brute_crossings(layout, edges)
