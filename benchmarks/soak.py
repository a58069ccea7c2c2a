"""Soak: many consecutive runs of the seed tutorials in the real window, switching engines.

Each run opens a seed (as the user would: File → Open, never run by opening), runs it with
Run all and waits until the graph, plots and player have settled. Every ``--switch-every`` runs
the engine toggles NumPy ↔ Torch (the switch re-runs the script, which counts as a run). After
each run the parent process is sampled: resident memory, open file descriptors, threads, child
processes. Issue 8's target: after warm-up, no growth beyond a small bound and no leaks.

    python benchmarks/soak.py [--runs 1000] [--switch-every 50] [--csv soak.csv]

The test suite runs the same loop, shorter (tests/faults/test_soak.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.seeds import tutorial_files as tutorial_scripts  # noqa: E402 - after sys.path

RUN_TIMEOUT_S = 300


@dataclass
class Sample:
    run: int
    engine: str
    seconds: float
    rss_mb: float
    fds: int
    threads: int
    children: int
    error: str


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def child_processes() -> int:
    """Live (not zombie) processes whose parent is this one."""
    count, me = 0, os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == me and fields[0] != "Z":
            count += 1
    return count


class RunCounter:
    """Counts finished runs and keeps the last result only: keeping them all would be the
    soak's own leak (its first version grew 0.09 MB a run so)."""

    def __init__(self) -> None:
        self.count = 0
        self.last = None

    def __call__(self, result) -> None:
        self.count += 1
        self.last = result


def wait_settled(application, window, finished: RunCounter, count: int) -> None:
    """Until ``count`` runs have finished, the views have caught up with the last and the
    kernel has taken its State (which may start a spare: sampled in the middle of that, the
    process holds the new pipes' both ends for a moment)."""
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while time.monotonic() < deadline:
        application.processEvents()
        if (finished.count >= count and window.runs.run_action.isEnabled()
                and not window.graph_view.busy and window.runner.kernel.state_known):
            return
        time.sleep(0.005)
    raise TimeoutError(f"run {count} did not finish in {RUN_TIMEOUT_S} s")


def soak(application, window, scripts: list[Path], runs: int, switch_every: int,
         on_sample=None) -> list[Sample]:
    """``runs`` runs of ``scripts`` in turn, switching engine every ``switch_every`` runs."""
    finished = RunCounter()
    window.runner.finished.connect(finished)
    samples = []
    try:
        for run in range(runs):
            started = time.perf_counter()
            if switch_every and run and run % switch_every == 0:
                index = 1 - window.runs.engine_box.currentIndex()
                window.runs.engine_box.setCurrentIndex(index)  # restarts the kernel and re-runs
            else:
                window.document.open_file(str(scripts[run % len(scripts)]))
                window.runs.run_all()
            wait_settled(application, window, finished, run + 1)
            result = finished.last
            sample = Sample(run + 1, window.runner.kernel.engine,
                            time.perf_counter() - started, resident_mb(),
                            len(os.listdir("/proc/self/fd")), threading.active_count(),
                            child_processes(), "" if result.error is None else result.error.kind)
            samples.append(sample)
            if on_sample is not None:
                on_sample(sample)
    finally:
        window.runner.finished.disconnect(finished)
    return samples


def make_window(folder: Path):
    from playground.ui.main_window import MainWindow
    from playground.ui.recovery import RecoveryStore
    from playground.ui.settings import Settings

    window = MainWindow(settings=Settings(folder / "settings.json"),
                        recovery=RecoveryStore(folder / "recovery.json"))
    window.document.ask_unsaved = lambda: "discard"
    window.resize(1400, 860)
    window.show()
    return window


def summary(samples: list[Sample], warm_up: int) -> dict:
    """Growth from the end of warm-up to the end, and the most of each resource seen."""
    settled = samples[warm_up - 1] if len(samples) >= warm_up else samples[0]
    last = samples[-1]
    return {
        "runs": len(samples), "errors": sum(1 for s in samples if s.error),
        "rss_after_warm_up_mb": round(settled.rss_mb, 1), "rss_end_mb": round(last.rss_mb, 1),
        "rss_growth_mb": round(last.rss_mb - settled.rss_mb, 1),
        "rss_max_mb": round(max(s.rss_mb for s in samples), 1),
        "fds": (settled.fds, last.fds, max(s.fds for s in samples)),
        "threads": (settled.threads, last.threads, max(s.threads for s in samples)),
        "children": (min(s.children for s in samples), max(s.children for s in samples)),
        "median_run_s": round(sorted(s.seconds for s in samples)[len(samples) // 2], 3),
    }


def main() -> None:
    import tempfile

    from playground.ui.app import make_application

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--switch-every", type=int, default=50)
    parser.add_argument("--warm-up", type=int, default=100, help="runs before growth counts")
    parser.add_argument("--csv", help="write every sample to this CSV file")
    arguments = parser.parse_args()
    scripts = tutorial_scripts()
    application = make_application("light")
    window = make_window(Path(tempfile.mkdtemp(prefix="soak-")))
    rows = []

    def report(sample: Sample) -> None:
        rows.append(sample)
        if sample.run % 50 == 0 or sample.run == 1:
            print(f"run {sample.run:5d} {sample.engine:5s} rss {sample.rss_mb:7.1f} MB  "
                  f"fds {sample.fds:3d}  threads {sample.threads:2d}  children "
                  f"{sample.children}  {sample.seconds:.2f} s", flush=True)

    samples = soak(application, window, scripts, arguments.runs, arguments.switch_every, report)
    if arguments.csv:
        with open(arguments.csv, "w", encoding="utf-8") as out:
            out.write("run,engine,seconds,rss_mb,fds,threads,children,error\n")
            for s in samples:
                out.write(f"{s.run},{s.engine},{s.seconds:.4f},{s.rss_mb:.1f},{s.fds},"
                          f"{s.threads},{s.children},{s.error}\n")
    for key, value in summary(samples, arguments.warm_up).items():
        print(f"{key}: {value}")
    window.close()


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
