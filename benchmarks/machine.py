"""One line that says which machine a figure came from: CPU model and cores, the SIMD code NumPy
dispatches to and the CPU capability torch chose (both decide the last bits of float results and
much of the speed), and the environment settings that narrow them.

    python benchmarks/machine.py          # what CI prints before the tests

Every benchmark prints this line first.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import time


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def numpy_simd() -> str:
    """The dispatch targets NumPy found and uses (not the ones disabled)."""
    import numpy as np

    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:  # NumPy 1.x
        from numpy.core import _multiarray_umath as umath
    found = [name for name in umath.__cpu_dispatch__ if umath.__cpu_features__.get(name)]
    return f"NumPy {np.__version__} SIMD {' '.join(umath.__cpu_baseline__)}" + (
        f" + {' '.join(found)}" if found else " only")


def torch_capability() -> str:
    """torch's version, CPU capability and threads; asked of another process unless torch is
    imported here already (a benchmark of the window must not carry torch's heap)."""
    if "torch" in sys.modules:
        return _torch_facts()
    try:
        answer = subprocess.run([sys.executable, __file__, "--torch"], capture_output=True,
                                text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return "torch not asked"
    return answer.stdout.strip() if answer.returncode == 0 else "torch not installed"


def _torch_facts() -> str:
    import torch

    return (f"torch {torch.__version__} CPU capability {torch.backends.cpu.get_cpu_capability()}"
            f", {torch.get_num_threads()} threads")


def describe(with_torch: bool = True) -> str:
    settings = [f"{name}={os.environ[name]}" for name in
                ("NPY_DISABLE_CPU_FEATURES", "ATEN_CPU_CAPABILITY", "OMP_NUM_THREADS")
                if os.environ.get(name)]
    parts = [f"{cpu_model()}, {os.cpu_count()} cores", numpy_simd()]
    if with_torch:
        parts.append(torch_capability())
    return "machine: " + "; ".join(parts + settings)


def idle_tax(gap_s: float = 0.1, rounds: int = 15) -> str:
    """How much slower a millisecond of work (NumPy ops, printing, JSON) runs right after the
    process slept ``gap_s`` than back to back. A person's runs come after such pauses. On a
    VM whose idle vCPUs halt, the first milliseconds after one ran 2.3-2.7x as long (caches
    refilled), which every stage of a run's way to the screen pays; a desktop pays little."""
    def timed(gap: float) -> float:
        times = []
        for _ in range(rounds):
            time.sleep(gap)
            started = time.perf_counter()
            _millisecond_of_work()
            times.append(time.perf_counter() - started)
        return statistics.median(times)

    timed(0.0)
    hot, cold = timed(0.0), timed(gap_s)
    return (f"idle tax: a millisecond of work takes {cold / hot:.1f}x as long after "
            f"{gap_s * 1e3:.0f} ms idle ({hot * 1e3:.2f} -> {cold * 1e3:.2f} ms)")


def _millisecond_of_work() -> list[str]:
    import numpy as np

    matrix = np.linspace(-1, 1, 64, dtype=np.float32).reshape(8, 8)
    texts = []
    for step in range(12):
        product = np.tanh(matrix @ matrix.T + step) * 0.5
        texts.append(np.array2string(product[:2, :3], precision=4))
        texts.append(json.dumps({"step": step, "sum": float(product.sum())}))
    return sorted(texts)


def dispatch_targets() -> str:
    """Every SIMD target NumPy can dispatch to, for NPY_DISABLE_CPU_FEATURES: with all of
    them disabled NumPy runs its baseline code only."""
    try:
        from numpy._core import _multiarray_umath as umath
    except ImportError:
        from numpy.core import _multiarray_umath as umath
    return " ".join(umath.__cpu_dispatch__)


if __name__ == "__main__":
    ANSWERS = {"--dispatch-targets": dispatch_targets, "--torch": _torch_facts}
    print(ANSWERS.get(" ".join(sys.argv[1:]), describe)())
