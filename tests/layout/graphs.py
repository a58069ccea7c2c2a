"""Graphs and measures shared by the layout and ranking tests."""

import random


def layered_random(count: int, width: int, seed: int) -> tuple[list[str], list[tuple[str, str]]]:
    """Each node feeds 1-3 nodes one to three layers further down (autograd-like)."""
    rng = random.Random(seed)
    layers = [list(range(i, min(i + width, count))) for i in range(0, count, width)]
    edges = set()
    for depth, members in enumerate(layers[:-1]):
        for v in members:
            for _ in range(rng.choice((1, 2, 3))):
                below = layers[min(depth + rng.choice((1, 1, 2, 3)), len(layers) - 1)]
                edges.add((f"v{v}", f"v{rng.choice(below)}"))
    return [f"v{i}" for i in range(count)], sorted(edges)


def longest_path_layers(count: int, pairs: list[tuple[int, int]]) -> list[int]:
    """A feasible layering of a DAG whose nodes are numbered sources first."""
    layer = [0] * count
    for source, target in sorted(pairs, key=lambda pair: pair[1]):
        layer[target] = max(layer[target], layer[source] + 1)
    return layer


def total_length(layer: list[int], pairs: list[tuple[int, int]]) -> int:
    return sum(layer[t] - layer[s] for s, t in pairs)
