"""The layout's C core against its Python twin: same layers, orders, crossings and places."""

import random

import pytest

from playground.layout import core as loader
from playground.layout import layered_layout, ranking
from tests.layout.graphs import layered_random, longest_path_layers, total_length

core = pytest.importorskip("playground.layout._core",
                           reason="the C layout core did not build (no C compiler)")


def random_pairs(count: int, seed: int) -> list[tuple[int, int]]:
    """A connected DAG: each node after the first hangs below an earlier one, plus extras."""
    rng = random.Random(seed)
    pairs = {(rng.randrange(b), b) for b in range(1, count)}
    for _ in range(rng.randrange(0, 2 * count)):
        a, b = sorted(rng.sample(range(count), 2))
        pairs.add((a, b))
    listed = sorted(pairs)
    return listed + listed[: seed % 3]  # some repeated edges, as `x * x` records


def split(pairs):
    return [s for s, _ in pairs], [t for _, t in pairs]


@pytest.mark.parametrize("seed", range(40))
def test_the_descent_moves_exactly_as_the_python_one(seed):
    count = 2 + 5 * seed
    pairs = random_pairs(count, seed)
    start = longest_path_layers(count, pairs)
    assert core.descend(count, *split(pairs), list(start)) == \
        ranking._descend(count, pairs, list(start))


@pytest.mark.parametrize("seed", range(60))
def test_network_simplex_reaches_the_optimum(seed):
    count = 2 + 7 * seed
    pairs = random_pairs(count, seed)
    start = longest_path_layers(count, pairs)
    layer = core.simplex(count, *split(pairs), list(start))
    assert all(layer[t] - layer[s] >= 1 for s, t in pairs)
    assert min(layer) == 0
    optimum = ranking._descend(count, pairs, list(start))
    assert total_length(layer, pairs) == total_length(optimum, pairs)


def test_network_simplex_leaves_disconnected_graphs_to_the_descent():
    pairs = [(0, 1), (2, 3)]
    assert core.simplex(4, *split(pairs), [0, 1, 0, 1]) is None
    layer = ranking.optimal_layers(4, pairs, [0, 2, 0, 1])  # the C descent instead
    assert [layer[t] - layer[s] for s, t in pairs] == [1, 1]


def any_graph(seed: int) -> tuple[list[str], list[tuple[str, str]]]:
    """Cycles, self-loops, repeated edges and several parts included."""
    rng = random.Random(seed)
    count = rng.randrange(1, 120)
    nodes = [f"n{i}" for i in range(count)]
    edges = [(rng.choice(nodes), rng.choice(nodes)) for _ in range(rng.randrange(0, 3 * count))]
    return nodes, edges


def both_ways(monkeypatch, nodes, edges, **options):
    """The layout with the C core and with the Python code, on the same layering."""
    # The simplex may pick another optimal layering than the Python descent; the descent in C
    # moves exactly as the Python one, so both phases after it get the same input.
    monkeypatch.setattr(core, "simplex", lambda *arguments: None, raising=False)
    monkeypatch.setattr(ranking, "DESCENT_UP_TO", 10**9)  # Python: the descent, not the LP
    monkeypatch.setattr(ranking, "DESCENT_WORK", 10**12)
    compiled = layered_layout(nodes, edges, **options)
    monkeypatch.setattr(loader, "compiled", None)
    python = layered_layout(nodes, edges, **options)
    monkeypatch.undo()
    return compiled, python


def assert_same(compiled, python):
    assert compiled.layers == python.layers
    assert compiled.crossings == python.crossings
    for name, (x, y) in python.positions.items():
        assert compiled.positions[name] == pytest.approx((x, y), abs=1e-6)
    for ours, theirs in zip(compiled.routes, python.routes, strict=True):
        assert [x for point in ours for x in point] == \
            pytest.approx([x for point in theirs for x in point], abs=1e-6)


@pytest.mark.parametrize("seed", range(30))
def test_any_graph_is_drawn_the_same(monkeypatch, seed):
    assert_same(*both_ways(monkeypatch, *any_graph(seed), upward=seed % 2 == 1))


@pytest.mark.parametrize(("count", "width", "seed"), [(60, 4, 1), (150, 8, 2), (500, 20, 3)])
def test_busy_graphs_are_drawn_the_same(monkeypatch, count, width, seed):
    # 500 nodes and their dummies take the odd-even transpose
    assert_same(*both_ways(monkeypatch, *layered_random(count, width, seed)))


def test_previous_positions_are_kept_the_same_way(monkeypatch):
    nodes, edges = layered_random(80, 5, 4)
    first = layered_layout(nodes, edges)
    survivors = {name: first.positions[name] for name in nodes[::2]}
    assert_same(*both_ways(monkeypatch, nodes, edges, previous=survivors))


def test_malformed_input_is_refused_not_read_past_its_end():
    with pytest.raises(ValueError):
        core.descend(2, [0], [5], [0, 1])
    with pytest.raises(ValueError):
        core.simplex(2, [1], [0], [0, 1])  # points up
    with pytest.raises(ValueError):
        core.reduce_crossings([[0, 1], [2, 3]], [[], [], [0], [7]], [[2], [3], [], []],
                              4, 2, 2, False)
    with pytest.raises(ValueError):  # a neighbour in the same layer
        core.reduce_crossings([[0, 1], [2, 3]], [[], [0], [0], [1]], [[1, 2], [3], [], []],
                              4, 2, 2, False)
    with pytest.raises(ValueError):  # one width short
        core.place([[0, 1]], [[], []], [[], []], [60.0], 2, 28.0, 10.0, 0.5, 6)
