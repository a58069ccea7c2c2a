"""Size and time of the backward animation's GIF for each example and tutorial (and each
tutorial of a folder ``--seeds DIR`` names), as File → Export animation writes it.

Targets (issue 24): seed 003 ≤ 1.5 MB; the examples' 10-step GIF ≤ 400 KB.

    QT_QPA_PLATFORM=offscreen python benchmarks/animation_export.py [--seeds DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.live_latency import scripts  # noqa: E402
from playground.engines.base import run_code  # noqa: E402
from playground.engines.numpy_engine import NumpyEngine  # noqa: E402
from playground.ui.app import make_application  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, help="a folder of more tutorials (*.txt)")
    parser.add_argument("--max-steps", type=int, default=60,
                        help="skip scripts with more backward steps (their GIFs take minutes)")
    options = parser.parse_args()
    make_application()
    from PIL import Image

    from playground.ui.animation import render_animation_file

    with tempfile.TemporaryDirectory() as folder:
        for name, code in scripts(options.seeds).items():
            run = run_code(code.replace("plt.show()", "pass"), NumpyEngine())
            steps = sum(len(trace.steps) for trace in run.traces)
            if not steps or steps > options.max_steps:
                continue
            target = Path(folder) / "animation.gif"
            started = time.perf_counter()
            render_animation_file(run.graph, run.traces, target)
            seconds = time.perf_counter() - started
            with Image.open(target) as gif:
                frames, size = gif.n_frames, gif.size
            print(f"{name:24s} {steps:4d} steps, {frames:4d} frames of {size[0]}x{size[1]}: "
                  f"{target.stat().st_size / 1024:8.0f} KB in {seconds:5.1f} s")


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
