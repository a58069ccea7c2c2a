"""The soak, shortened for CI: seed tutorials run again and again in the window, switching
engines, without the parent growing or leaking processes, file handles or threads.

The full 1,000 runs are ``benchmarks/soak.py``; this is the same loop (loaded from that file).
"""

from __future__ import annotations

import gc
import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")  # the engine switches go to real torch and back

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"
RUNS = 45
SWITCH_EVERY = 15          # runs 15 and 30 switch: NumPy → Torch → NumPy
WARM_UP = 16               # both engines have run once, caches are filled
RSS_BOUND_MB = 12.0        # measured: about 0.1 MB a run once Python has freed what it can


def _soak_module():
    spec = importlib.util.spec_from_file_location("soak_benchmark", BENCHMARK)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_repeated_runs_with_engine_switches_leak_nothing(qapp, tmp_path):
    soak = _soak_module()
    scripts = soak.tutorial_scripts()
    window = soak.make_window(tmp_path)
    try:
        samples = soak.soak(qapp, window, scripts, RUNS, SWITCH_EVERY)
    finally:
        window.close()
        gc.collect()
    assert [s.error for s in samples] == [""] * RUNS
    assert [s.engine for s in samples][SWITCH_EVERY - 1:SWITCH_EVERY + 1] == ["numpy", "torch"]
    assert samples[-1].engine == "numpy"
    settled, last = samples[WARM_UP - 1], samples[-1]
    # the kernel, and at most one spare for the next fresh run (after a run that changed
    # its process, or imported a library the spare then imports too)
    assert {s.children for s in samples} <= {1, 2}, "a kernel process was left behind"
    assert max(s.fds for s in samples[WARM_UP - 1:]) == settled.fds, "file handles leaked"
    assert max(s.threads for s in samples[WARM_UP - 1:]) == settled.threads, "threads leaked"
    growth = last.rss_mb - settled.rss_mb
    assert growth < RSS_BOUND_MB, f"the parent grew {growth:.1f} MB in {RUNS - WARM_UP} runs"


def test_the_old_scene_is_freed_after_each_run(qapp, tmp_path):
    """What the soak found: each run's replaced animation kept its whole old scene alive."""
    soak = _soak_module()
    from playground.ui.graph_scene import Scene as _Scene

    scripts = soak.tutorial_scripts()
    window = soak.make_window(tmp_path)
    try:
        soak.soak(qapp, window, scripts, 3, 0)
        gc.collect()
        before = sum(type(o) is _Scene for o in gc.get_objects())
        soak.soak(qapp, window, scripts, 12, 0)
        gc.collect()
        after = sum(type(o) is _Scene for o in gc.get_objects())
    finally:
        window.close()
    assert after <= before + 1  # (one may wait in an animation Qt has yet to delete)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
def test_freed_memory_is_given_back_to_the_system():
    from playground.ui.memory import release_free_memory

    hoard = [bytearray(4096) for _ in range(20_000)]  # 80 MB, then freed but for a few pages
    kept = hoard[::1000]
    del hoard
    before = _resident_mb()
    assert release_free_memory()
    assert _resident_mb() < before - 40
    assert len(kept) == 20


def _resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0
