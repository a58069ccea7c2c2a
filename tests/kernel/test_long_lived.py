"""The kernel's long-lived objects (its own, jedi's after the completion warm-up) are kept out
of the cyclic collector's walks, never a script's; and what the engine loads on first use is
loaded in the warm-up, before a run needs it."""

from __future__ import annotations

import time

import pytest

from playground.kernel import long_lived
from playground.kernel.client import Kernel


class Collector:
    """Stands in for the gc module: what long_lived asked of it, in order."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def collect(self) -> int:
        self.calls.append("collect")
        return 0

    def freeze(self) -> None:
        self.calls.append("freeze")


@pytest.fixture
def collector(monkeypatch) -> Collector:
    fake = Collector()
    monkeypatch.setattr(long_lived, "gc", fake)
    return fake


def test_a_warm_up_before_any_run_freezes_at_once(collector):
    kept = long_lived.LongLived()
    kept.after_warm_up(scripts_ran=False)
    assert collector.calls == ["freeze"] and not kept.due
    kept.at_fresh_run(figures_pending=False)
    assert collector.calls == ["freeze"]  # nothing more is due


def test_after_a_run_the_freeze_waits_for_a_fresh_run_and_collects_first(collector):
    kept = long_lived.LongLived()
    kept.after_warm_up(scripts_ran=True)
    assert collector.calls == [] and kept.due  # the script's namespace is alive
    kept.at_fresh_run(figures_pending=True)
    assert collector.calls == [] and kept.due  # matplotlib's figures wait to be drawn
    kept.at_fresh_run(figures_pending=False)
    assert collector.calls == ["collect", "freeze"] and not kept.due
    kept.at_fresh_run(figures_pending=False)
    assert collector.calls == ["collect", "freeze"]  # once


PROBE = """
import gc, sys
vml = sys.modules.get("playground.npgrad._vml")
print(len(gc.get_objects(2)), bool(vml and vml._loaded_once.get("library")))
"""


def test_a_kernel_whose_first_run_came_before_its_warm_up_walks_few_objects_after():
    """The window runs its starter script before jedi's warm-up ends (1-3 s after start):
    jedi's 170,000 objects stayed in the oldest generation, and every full collection of a
    later run walked them (20-60 ms). Once the warm-up is over, the next fresh run finds them
    frozen, and torch's library (the engine's first-use load) loaded."""
    with Kernel("numpy", memory_limit=2 << 30) as kernel:
        first = kernel.run("x = [1, 2]\ndef f(): return x\n")
        assert first.error is None
        deadline = time.monotonic() + 30
        # a completion waits for the warm-up's (jedi's lock): then it is over
        while not kernel.complete("import os\nos.pa", 2, 5) and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)  # (the warm-up's thread marks the freeze due after its completion)
        probe = kernel.run(PROBE)
    assert probe.error is None, probe.error
    walked, loaded = probe.output.split()
    assert int(walked) < 30_000, walked  # (some 175,000 before)
    assert loaded == ("True" if _torch_library_here() else "False")


def _torch_library_here() -> bool:
    from playground.npgrad import _vml

    return _vml.torch_library_path() is not None and not _vml.switched_off()
