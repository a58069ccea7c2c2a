"""Optimal layering: the min-cut descent reaches the linear program's optimum."""

import random

import pytest

from playground.layout.ranking import (
    _descend,
    _linear_program,
    cheapest_closed_set,
    is_certified_optimal,
    optimal_layers,
)
from tests.layout.graphs import longest_path_layers, total_length


def random_dag(count: int, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    pairs = {(a, b) for b in range(1, count) for a in rng.sample(range(b), min(b, 1 + b % 3))}
    return sorted(pairs)


@pytest.mark.parametrize("seed", range(12))
def test_descent_reaches_the_linear_programs_optimum(seed):
    count = 15 + 17 * seed
    pairs = random_dag(count, seed)
    start = longest_path_layers(count, pairs)
    layer = _descend(count, pairs, list(start))
    assert all(layer[t] - layer[s] >= 1 for s, t in pairs)
    assert min(layer) == 0
    optimum = _linear_program(count, pairs)
    assert total_length(layer, pairs) == total_length(optimum, pairs)
    assert total_length(layer, pairs) <= total_length(start, pairs)


def test_cheapest_closed_set_matches_every_subset():
    rng = random.Random(5)
    for _ in range(40):
        count = rng.randrange(1, 8)
        weight = [rng.randrange(-3, 4) for _ in range(count)]
        arcs = [(a, b) for a in range(count) for b in range(count)
                if a != b and rng.random() < 0.2]
        best = 0
        for mask in range(1 << count):
            inside = [(mask >> v) & 1 for v in range(count)]
            if all(inside[b] for a, b in arcs if inside[a]):
                best = min(best, sum(w for w, i in zip(weight, inside, strict=True) if i))
        members, total = cheapest_closed_set(count, weight, arcs)
        assert total == best
        assert total == sum(weight[v] for v in members)
        chosen = set(members)
        assert all(b in chosen for a, b in arcs if a in chosen)


def test_a_step_moves_each_part_of_the_set_as_far_as_its_slack_allows():
    # 5 and 6 hang from layer 0 into a chain 0 -> 4: one step takes each down to its child.
    pairs = [(0, 1), (1, 2), (2, 3), (3, 4), (5, 4), (6, 2)]
    layer = _descend(7, pairs, [0, 1, 2, 3, 4, 0, 0], steps=1)
    assert layer == [0, 1, 2, 3, 4, 3, 1]


def test_a_poor_start_is_handed_to_the_linear_program():
    count = 120
    pairs = random_dag(count, 3)
    start = longest_path_layers(count, pairs)
    assert _descend(count, pairs, list(start), steps=1) is None  # needs more than one step
    layer = optimal_layers(count, pairs, start)
    assert all(layer[t] - layer[s] >= 1 for s, t in pairs)
    assert total_length(layer, pairs) == total_length(_linear_program(count, pairs), pairs)


def test_the_tight_forest_certificate_is_never_wrong_and_rarely_silent():
    rng = random.Random(11)
    certified = optimal = 0
    for _ in range(400):
        count = rng.randrange(2, 16)
        pairs = sorted({tuple(sorted(rng.sample(range(count), 2)))
                        for _ in range(rng.randrange(1, 25))})
        layer = [0] * count
        for v in range(count):  # feasible, with random slack
            layer[v] = rng.choice((0, 0, 1, 2)) + max(
                [layer[s] + 1 for s, t in pairs if t == v], default=0)
        best = total_length(_descend(count, pairs, list(layer)), pairs)
        if is_certified_optimal(count, pairs, layer):
            certified += 1
            assert total_length(layer, pairs) == best
        optimal += total_length(layer, pairs) == best
    assert optimal > 40
    assert certified >= 0.9 * optimal  # silent only where tight edges close a cycle


def test_a_hanging_source_one_layer_too_high_is_not_certified():
    # 3 feeds 2 from layer 0: moving it down shortens its edge, so the layering is not optimal
    pairs = [(0, 1), (1, 2), (3, 2)]
    assert not is_certified_optimal(4, pairs, [0, 1, 2, 0])
    assert is_certified_optimal(4, pairs, [0, 1, 2, 1])
    assert optimal_layers(4, pairs, [0, 1, 2, 0]) == [0, 1, 2, 1]
