"""Our layered layout against Graphviz ``dot`` on many small graphs: what a lesson draws.

The issue's benchmark (layout_vs_dot.py) has one small graph, the MLP step; this one has a
corpus of 16: random layered DAGs of 20-160 nodes and MLPs of 2-5 layers recorded on the
NumPy engine. Per graph and in total: layout time (ours median of 5, in-process; ``dot``
as a subprocess, its start included) and edge crossings counted the same way on both
drawings. Small graphs are where crossings are easiest to see.

    python benchmarks/layout_small_graphs.py [--python]
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import layout_vs_dot as shared  # noqa: E402

import playground.npgrad as torch  # noqa: E402
from playground.layout import layered_layout  # noqa: E402


def mlp(depth: int, seed: int):
    torch.manual_seed(seed)
    hidden = torch.randn(8, 3)
    weights = {}
    for k in range(depth):
        w = torch.randn(hidden.shape[1], 5, requires_grad=True)
        b = torch.zeros(5, requires_grad=True)
        hidden = (hidden @ w + b).tanh() if k % 2 else (hidden @ w + b).relu()
        weights[f"w{k}"] = w
    loss = (hidden ** 2).mean() + sum(0.01 * (w ** 2).sum() for w in weights.values())
    return shared.recorded({"loss": loss, **weights})


def graphs():
    for seed in range(12):
        rng = random.Random(seed)
        count, width = rng.randrange(20, 160), rng.randrange(3, 9)
        yield f"random DAG {count} nodes, width {width}", \
            shared.random_layered_dag(count, width, seed)
    for depth in range(2, 6):
        yield f"MLP, {depth} layers", mlp(depth, depth)


def main() -> None:
    shared.ensure_dot()
    print(subprocess.run(["dot", "-V"], capture_output=True, text=True).stderr.strip())
    print(f"our layout: {shared.use_core('--python' not in sys.argv)}")
    header = (f"{'graph':32} {'nodes':>6} | {'ours ms':>8} {'dot ms':>8} | "
              f"{'ours X':>7} {'dot X':>7}")
    print(header)
    print("-" * len(header))
    totals = [0.0, 0.0, 0, 0]
    for name, (nodes, edges) in graphs():
        layered_layout(nodes, edges)  # warm: imports
        timings = []
        for _ in range(5):
            started = time.perf_counter()
            ours = layered_layout(nodes, edges)
            timings.append(time.perf_counter() - started)
        ours_s = statistics.median(timings)
        ours_x = shared.drawing_crossings(ours.positions, ours.routes)
        dot_s, positions, routes = shared.dot_layout(nodes, edges, 300.0)
        dot_x = shared.drawing_crossings(positions, routes)
        for i, value in enumerate((ours_s, dot_s, ours_x, dot_x)):
            totals[i] += value
        print(f"{name:32} {len(nodes):>6} | {ours_s * 1e3:>8.1f} {dot_s * 1e3:>8.1f} | "
              f"{ours_x:>7} {dot_x:>7}", flush=True)
    print("-" * len(header))
    print(f"{'total':32} {'':>6} | {totals[0] * 1e3:>8.1f} {totals[1] * 1e3:>8.1f} | "
          f"{totals[2]:>7} {totals[3]:>7}   crossings ratio {totals[2] / totals[3]:.2f}")


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
