"""Import cost of the engine next to NumPy's, each in a fresh interpreter, median of N runs.

    python benchmarks/import_time.py [--rounds 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

PROBE = "import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"


def import_seconds(module: str) -> float:
    # Bytecode caching on, as for an installed package (some shells turn it off).
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    output = subprocess.run([sys.executable, "-c", PROBE.format(module=module)],
                            capture_output=True, text=True, check=True, env=environment).stdout
    return float(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    rounds = parser.parse_args().rounds
    numpy_times, engine_times = [], []
    import_seconds("playground.npgrad")  # writes the bytecode caches
    for _ in range(rounds):
        numpy_times.append(import_seconds("numpy"))
        engine_times.append(import_seconds("playground.npgrad"))
    numpy_ms = statistics.median(numpy_times) * 1e3
    engine_ms = statistics.median(engine_times) * 1e3
    print(f"import numpy:             {numpy_ms:6.1f} ms")
    print(f"import playground.npgrad: {engine_ms:6.1f} ms (numpy included; engine's own part "
          f"{engine_ms - numpy_ms:.1f} ms)")


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
