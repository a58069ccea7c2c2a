"""What recording costs the training loop, in instructions counted by callgrind: a figure the
machine's noise does not move (timed ratios of the same runs swing 0.8-1.4x on a shared VM).

The loop of ``training_loop.py`` runs in fresh processes under ``valgrind --tool=callgrind``,
bare and through ``run_code``, at two step counts; the difference between them is the
loop's own cost per step, start-up and the final graph left out. Three runs of each:
- bare: the engine alone, as ``python`` runs the file;
- quiet: ``run_code`` with no backward call recorded past the first three (the marks, the
  module calls and the backward wrapper: what every step pays);
- recorded: ``run_code`` as the app runs it (the first calls recorded whole, then a grid).
It prints the per-step instructions and the 30,000-step loop's estimated ratio (target of
issue 39: recording <= 1.1x the bare engine). Instructions are not seconds (memory and
caches are left out), but a change that saves none saves no time either.

    python benchmarks/recording_instructions.py [--engine torch] [--steps 2000,6000]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

LOOP_STEPS = 30_000  # the training-loop benchmark's
MODES = ("bare", "quiet", "recorded")


def child(mode: str, steps: int, engine_name: str) -> None:
    """One run of the loop (after a two-step one that does the lazy imports)."""
    import training_loop

    from playground.engines import trace_recorder

    if mode == "quiet":  # nothing recorded past the first calls: what every step pays
        trace_recorder.ALL_CALLS = 0
        trace_recorder.TraceRecorder._on_grid = lambda _self, call: call <= 3
    engine = training_loop.engines()[engine_name]
    run = training_loop.bare if mode == "bare" else training_loop.recorded
    for count in (2, steps):
        run(engine, training_loop.LOOP.replace("STEPS", str(count))
            .replace("if step % 2000 == 1999:", "if False:"))


def instructions(mode: str, steps: int, engine: str) -> int:
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--child", mode, str(steps), "--engine", engine]
    # one BLAS and one OpenMP thread: an idle pool thread's spinning is counted too, and
    # changed a run's count by 10,000 instructions a step at random (the loop's tensors are
    # below torch's grain for threads: its work is the same)
    quiet = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=True,
                          env=quiet)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count for {mode} {steps}:\n{done.stderr}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("numpy", "torch"), default="torch")
    parser.add_argument("--steps", default="2000,6000",
                        help="two step counts, both past the first 500 calls")
    parser.add_argument("--child", nargs=2, metavar=("MODE", "STEPS"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(options.child[0], int(options.child[1]), options.engine)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt install valgrind)")
    low, high = (int(part) for part in options.steps.split(","))
    runs = [(mode, steps) for mode in MODES for steps in (low, high)]
    with ThreadPoolExecutor(max_workers=2) as pool:  # callgrind is single-threaded
        counts = dict(zip(runs, pool.map(lambda run: instructions(*run, options.engine), runs),
                          strict=True))
    per_step = {mode: (counts[mode, high] - counts[mode, low]) / (high - low) for mode in MODES}
    # the recorded calls past the first three, up to ``low``: the first 500 recorded whole
    first_calls = counts["recorded", low] - counts["quiet", low]
    bare = per_step["bare"] * LOOP_STEPS
    recorded = per_step["recorded"] * LOOP_STEPS + first_calls
    print(f"{options.engine}: instructions a step: bare {per_step['bare']:,.0f}, quiet "
          f"{per_step['quiet']:,.0f} ({per_step['quiet'] / per_step['bare']:.3f}x), recorded "
          f"{per_step['recorded']:,.0f} (steps {low:,}-{high:,}); the first calls recorded "
          f"whole {first_calls:,.0f} in all")
    print(f"{options.engine}: {LOOP_STEPS:,}-step loop, estimated: recorded / bare "
          f"{recorded / bare:.3f}x (target <= 1.1)")


if __name__ == "__main__":
    if "--child" not in sys.argv:
        from machine import describe

        print(describe(), flush=True)  # the machine a figure came from, first
    main()
