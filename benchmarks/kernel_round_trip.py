"""Kernel speed: (1) round trip of a seed tutorial (send code -> RunResult in the parent) on a
warm NumPy kernel; (2) `playground run` end to end on the NumPy engine vs `python` on real torch.

Targets (issue 3): (1) median under 100 ms; (2) at least 3x faster.

    python benchmarks/kernel_round_trip.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playground.kernel.client import Kernel  # noqa: E402
from tests.seeds import code_cells, tutorial_files, uses_matplotlib  # noqa: E402


def seed_scripts() -> dict[str, str]:
    return {path.stem: "\n".join(c for c in code_cells(path) if not uses_matplotlib(c))
            for path in tutorial_files()}


def round_trips(scripts: dict[str, str], rounds: int) -> dict[str, float]:
    medians = {}
    with Kernel("numpy") as kernel:
        for name, code in scripts.items():
            kernel.run(code, f"{name}.py")  # warm
            times = []
            for _ in range(rounds):
                started = time.perf_counter()
                result = kernel.run(code, f"{name}.py")
                times.append(time.perf_counter() - started)
                assert result.ok, result.error
            medians[name] = statistics.median(times)
    return medians


def end_to_end(code: str, rounds: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "tutorial.py"
        script.write_text(code)
        ours, theirs = [], []
        for _ in range(rounds):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "playground", "run", str(script)],
                           check=True, capture_output=True)
            ours.append(time.perf_counter() - started)
            started = time.perf_counter()
            subprocess.run([sys.executable, str(script)], check=True, capture_output=True)
            theirs.append(time.perf_counter() - started)
    return statistics.median(ours), statistics.median(theirs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    scripts = seed_scripts()
    for name, seconds in round_trips(scripts, rounds).items():
        print(f"(1) warm kernel round trip, tutorial {name}: {seconds * 1e3:6.1f} ms median "
              "(target < 100)")
    first = next(iter(scripts))
    ours, theirs = end_to_end(scripts[first], max(3, rounds // 3))
    print(f"(2) tutorial {first} end to end: playground run (numpy) {ours:.2f} s, python + torch "
          f"{theirs:.2f} s: {theirs / ours:.1f}x faster (target >= 3)")


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
