"""The model corpus through ``playground run``: each model's --trace file size, and what writing
it costs against the same run without it, interleaved, medians of several rounds.

Targets (issue 39): the transformer's trace at most 5 MB, and ``--trace`` at most 1.3× the
run without it, on both engines.

    python benchmarks/model_trace.py [--rounds 3] [--only transformer] [--engines numpy,torch]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = sorted((ROOT / "benchmarks" / "models").glob("*.py"))
TARGET_BYTES = 5 << 20
TARGET_RATIO = 1.3


def timed_run(script: Path, engine: str, trace: Path | None) -> float:
    command = [sys.executable, "-m", "playground", "run", str(script), "--engine", engine]
    if engine == "torch":
        command += ["--device", "cpu"]
    if trace is not None:
        command += ["--trace", str(trace)]
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def measure(script: Path, engine: str, rounds: int) -> tuple[int, float, float, float]:
    """(trace bytes, median seconds without, with, median ratio of the pairs)."""
    trace = Path(tempfile.mkdtemp()) / "trace.json"
    bare, traced = [], []
    for _ in range(rounds):
        bare.append(timed_run(script, engine, None))
        traced.append(timed_run(script, engine, trace))
    ratios = [with_trace / without for with_trace, without in zip(traced, bare, strict=True)]
    return (trace.stat().st_size, statistics.median(bare), statistics.median(traced),
            statistics.median(ratios))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="models whose file name has this text")
    parser.add_argument("--engines", default="numpy,torch")
    options = parser.parse_args()
    for script in MODELS:
        if options.only not in script.stem:
            continue
        for engine in options.engines.split(","):
            size, bare, traced, ratio = measure(script, engine, options.rounds)
            mark = "" if size <= TARGET_BYTES and ratio <= TARGET_RATIO else "  (over target)"
            print(f"{script.stem:16s} {engine:6s} trace {size / 1e6:6.2f} MB (≤ 5.24); run "
                  f"{bare:5.2f} s, with --trace {traced:5.2f} s: {ratio:.2f}× (≤ "
                  f"{TARGET_RATIO}){mark}")


if __name__ == "__main__":
    from machine import describe

    print(describe())
    main()
