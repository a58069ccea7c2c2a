"""npgrad's time over torch's CPU time, measured interleaved in one process.

(a) a 10,000-op chain of elementwise ops on a 2x2 tensor, forward + backward, per op;
(b) a 20-op chain on a 1,000,000-element float32 tensor, forward + backward.
Targets (issue 2): (a) <= 0.6x torch, (b) <= 1.25x torch with torch on its default threads.

    python benchmarks/engine_vs_torch.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

import playground.npgrad as npgrad  # noqa: E402


def small_chain(module, length: int) -> None:
    """Elementwise ops cycling through the common kinds: scalar mul/add, unary, binary."""
    x = module.tensor([[0.5, -0.25], [0.75, 0.1]], requires_grad=True)
    w = module.tensor([[1.0, 0.5], [-0.5, 1.0]], requires_grad=True)
    y = x
    for step in range(length // 4):
        y = y * 0.999
        y = y + w
        y = y.tanh()
        y = y - 0.01 if step % 2 else y * w
    y.sum().backward()


def large_chain(module, data: np.ndarray, length: int = 20) -> None:
    x = module.tensor(data, requires_grad=True)
    y = x
    for step in range(length // 4):
        y = y * 1.001
        y = y + 0.5
        y = y.sin()
        y = y * y if step % 2 else y.exp()
    y.sum().backward()


def _time(function, *args) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def measure(rounds: int) -> dict[str, float]:
    import torch

    data = np.random.default_rng(0).normal(size=1_000_000).astype(np.float32)
    ops = 10_000
    ratios = {"small": [], "large": []}
    small_chain(npgrad, 400)  # warm both up
    small_chain(torch, 400)
    for _ in range(rounds):
        engine_small = _time(small_chain, npgrad, ops)
        torch_small = _time(small_chain, torch, ops)
        engine_large = _time(large_chain, npgrad, data)
        torch_large = _time(large_chain, torch, data)
        ratios["small"].append(engine_small / torch_small)
        ratios["large"].append(engine_large / torch_large)
        print(f"round: small npgrad {engine_small / ops * 1e6:6.2f} us/op, torch "
              f"{torch_small / ops * 1e6:6.2f} us/op | large npgrad {engine_large * 1e3:7.1f} ms, "
              f"torch {torch_large * 1e3:7.1f} ms")
    return {name: statistics.median(values) for name, values in ratios.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    import torch

    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, numpy {np.__version__}")
    medians = measure(args.rounds)
    print(f"(a) 10,000-op chain on 2x2, forward+backward: npgrad/torch = {medians['small']:.2f} "
          "(target <= 0.60)")
    print(f"(b) 20-op chain on 1,000,000 float32, forward+backward: npgrad/torch = "
          f"{medians['large']:.2f} (target <= 1.25)")


if __name__ == "__main__":
    main()
