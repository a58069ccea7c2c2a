"""Our layered layout against Graphviz ``dot``, on the same autograd-shaped graphs, same run.

Graphs: long chains, a binary reduction tree, an MLP training step and a 400-op chain whose
weight feeds every 10th op (all recorded by running code on the NumPy engine), plus random
layered DAGs of 1,000 and 5,000 nodes. For each: layout time (ours in-process; ``dot -Tplain``
as a subprocess, its start included) and edge crossings, counted the same way on both
drawings: every edge is followed through each rank it passes, and two edges cross between
adjacent ranks when their order flips. Target (issue 5): crossings <= 1.1x dot's, time >= 10x
faster.

    python benchmarks/layout_vs_dot.py [--dot-timeout 300] [--only NAME] [--python]

Our layout runs its hot loops in C (playground/layout/_core.c) when that built at
install time; ``--python`` measures the Python code that stands in for it otherwise.

Needs ``dot``: installs Debian's ``graphviz`` with apt-get when it is missing.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import time
from bisect import bisect_left
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import playground.npgrad as torch  # noqa: E402
from playground.engines.graph_builder import build_graph  # noqa: E402
from playground.engines.numpy_engine import NumpyEngine  # noqa: E402
from playground.layout import core, count_inversions, layered_layout  # noqa: E402


# ----- graphs --------------------------------------------------------------------------------
def recorded(variables: dict) -> tuple[list[str], list[tuple[str, str]]]:
    graph, _ = build_graph(variables, NumpyEngine().view())
    return [n.id for n in graph.nodes], [(e.source, e.target) for e in graph.edges]


def chain(length: int):
    x = torch.ones(2, requires_grad=True)
    y = x
    for step in range(length):
        y = y * 1.01 if step % 2 else y + 0.5
    return recorded({"x": x, "y": y})


def reduction_tree(leaves: int):
    parts = [torch.ones(1, requires_grad=True) for _ in range(leaves)]
    level = parts
    while len(level) > 1:
        level = [level[i] + level[i + 1] for i in range(0, len(level) - 1, 2)] + \
            ([level[-1]] if len(level) % 2 else [])
    return recorded({"parts": parts, "total": level[0]})


def mlp_step():
    torch.manual_seed(0)
    x = torch.randn(16, 4)
    target = torch.randn(16, 1)
    w1 = torch.randn(4, 8, requires_grad=True)
    b1 = torch.zeros(8, requires_grad=True)
    w2 = torch.randn(8, 8, requires_grad=True)
    b2 = torch.zeros(8, requires_grad=True)
    w3 = torch.randn(8, 1, requires_grad=True)
    b3 = torch.zeros(1, requires_grad=True)
    h1 = (x @ w1 + b1).relu()
    h2 = (h1 @ w2 + b2).tanh()
    prediction = h2 @ w3 + b3
    loss = ((prediction - target) ** 2).mean() + 0.01 * (w1 ** 2).sum() + 0.01 * (w2 ** 2).sum()
    return recorded(locals())


def shared_weight_chain(length: int, every: int):
    w = torch.tensor([0.5, 1.5], requires_grad=True)
    y = torch.ones(2, requires_grad=True)
    for step in range(length):
        y = y * w if step % every == 0 else y * 0.99
    return recorded({"w": w, "y": y})


def random_layered_dag(count: int, width: int, seed: int):
    """Autograd-like: each node has 1-3 inputs from the next 1-3 layers below it."""
    rng = random.Random(seed)
    layers = [list(range(i, min(i + width, count))) for i in range(0, count, width)]
    edges = []
    for depth, members in enumerate(layers[:-1]):
        for v in members:
            for _ in range(rng.choice((1, 1, 2, 2, 3))):
                below = layers[min(depth + rng.choice((1, 1, 1, 2, 3)), len(layers) - 1)]
                edges.append((f"v{v}", f"v{rng.choice(below)}"))
    return [f"v{i}" for i in range(count)], sorted(set(edges))


def graphs():
    yield "chain of 1,000 ops", chain(1000)
    yield "binary reduction tree, 512 leaves", reduction_tree(512)
    yield "MLP training step", mlp_step()
    yield "400-op chain, weight every 10th op", shared_weight_chain(400, 10)
    yield "random layered DAG, 1,000 nodes", random_layered_dag(1000, 25, 1)
    yield "random layered DAG, 5,000 nodes", random_layered_dag(5000, 50, 2)


# ----- crossings, counted the same way on both drawings ------------------------------------------
def drawing_crossings(positions: dict[str, tuple[float, float]],
                      routes: list[list[tuple[float, float]]]) -> int:
    """Crossings between adjacent ranks of a layered drawing (ranks: the nodes' y values)."""
    levels = sorted({round(y, 1) for _, y in positions.values()})
    segments: dict[int, list[tuple[float, float]]] = {}
    for route in routes:
        (_, y0), (_, y1) = route[0], route[-1]
        top, bottom = sorted((bisect_left(levels, round(y0, 1)), bisect_left(levels, round(y1, 1))))
        xs = [x_at(route, levels[k]) for k in range(top, bottom + 1)]
        for k in range(top, bottom):
            segments.setdefault(k, []).append((xs[k - top], xs[k - top + 1]))
    total = 0
    for pairs in segments.values():
        pairs.sort()
        lowers = sorted({lower for _, lower in pairs})
        ranks = [bisect_left(lowers, lower) for _, lower in pairs]
        total += count_inversions(ranks, len(lowers))
    return total


def x_at(route: list[tuple[float, float]], y: float) -> float:
    """Where the polyline ``route`` passes height ``y`` (its end point when it only touches)."""
    best = min(route, key=lambda p: abs(p[1] - y))
    for (x0, y0), (x1, y1) in pairwise(route):
        low, high = min(y0, y1), max(y0, y1)
        if low <= y <= high and high > low:
            return x0 + (x1 - x0) * (y - y0) / (y1 - y0)
    return best[0]


def dot_layout(nodes: list[str], edges: list[tuple[str, str]], timeout: float):
    """Run dot; return (seconds, positions, routes) or (None, ...) when it ran out of time."""
    text = "digraph g {\n  node [shape=box];\n" + "".join(f"  {n};\n" for n in nodes) + \
        "".join(f"  {s} -> {t};\n" for s, t in edges) + "}\n"
    started = time.perf_counter()
    try:
        done = subprocess.run(["dot", "-Tplain"], input=text, capture_output=True, text=True,
                              timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None, {}, []
    seconds = time.perf_counter() - started
    positions, routes = {}, []
    for line in done.stdout.splitlines():
        parts = line.split()
        if parts[0] == "node":
            positions[parts[1]] = (float(parts[2]), -float(parts[3]))  # y grows downwards
        elif parts[0] == "edge":
            count = int(parts[3])
            points = [(float(parts[4 + 2 * i]), -float(parts[5 + 2 * i])) for i in range(count)]
            routes.append([positions[parts[1]]] + sample_spline(points) + [positions[parts[2]]])
    return seconds, positions, routes


def sample_spline(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """A piecewise cubic Bezier (dot's edge splines) as a dense polyline."""
    samples = []
    for i in range(0, len(points) - 3, 3):
        p0, p1, p2, p3 = points[i:i + 4]
        for step in range(17):
            t = step / 16
            a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
            samples.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                            a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return samples


def ensure_dot() -> None:
    if shutil.which("dot"):
        return
    print("installing Debian's graphviz for dot ...", flush=True)
    subprocess.run(["apt-get", "install", "-y", "graphviz"], check=False,
                   stdout=subprocess.DEVNULL)
    if not shutil.which("dot"):
        subprocess.run(["apt-get", "update"], check=False, stdout=subprocess.DEVNULL)
        subprocess.run(["apt-get", "install", "-y", "graphviz"], check=True,
                       stdout=subprocess.DEVNULL)


def use_core(compiled: bool) -> str:
    """Lay out with the C core (when it built) or with its Python twin; says which."""
    if not compiled:
        core.compiled = None
    if core.compiled is None:
        return "Python (" + ("--python" if not compiled else "the C core did not build") + ")"
    return "C core (playground/layout/_core.c)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dot-timeout", type=float, default=300.0)
    parser.add_argument("--only", help="run only graphs whose name contains this")
    parser.add_argument("--python", action="store_true",
                        help="lay out with the Python code, not the C core")
    arguments = parser.parse_args()
    ensure_dot()
    print(subprocess.run(["dot", "-V"], capture_output=True, text=True).stderr.strip())
    print(f"our layout: {use_core(not arguments.python)}")
    header = (f"{'graph':38} {'nodes':>6} {'edges':>6} | {'ours s':>8} {'dot s':>8} "
              f"{'speed-up':>9} | {'ours X':>7} {'dot X':>7} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    for name, (nodes, edges) in graphs():
        if arguments.only and arguments.only not in name:
            continue
        timings = []
        for _ in range(3):  # median of 3; the first LP also pays SciPy's import
            started = time.perf_counter()
            ours = layered_layout(nodes, edges)
            timings.append(time.perf_counter() - started)
        our_seconds = sorted(timings)[1]
        our_crossings = drawing_crossings(ours.positions, ours.routes)
        dot_seconds, positions, routes = dot_layout(nodes, edges, arguments.dot_timeout)
        if dot_seconds is None:
            dot_text, speed, dot_crossings, ratio = f">{arguments.dot_timeout:.0f}", \
                f">{arguments.dot_timeout / our_seconds:.0f}x", "n/a", "n/a"
        else:
            dot_count = drawing_crossings(positions, routes)
            dot_text, speed, dot_crossings = f"{dot_seconds:.3f}", \
                f"{dot_seconds / our_seconds:.0f}x", str(dot_count)
            ratio = f"{our_crossings / dot_count:.2f}" if dot_count else \
                ("1.00" if our_crossings == 0 else "inf")
        print(f"{name:38} {len(nodes):>6} {len(edges):>6} | {our_seconds:>8.3f} {dot_text:>8} "
              f"{speed:>9} | {our_crossings:>7} {dot_crossings:>7} {ratio:>6}", flush=True)


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
