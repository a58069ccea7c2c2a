"""Does the window keep painting while the kernel starts, restarts or switches engine?

A 50 ms timer runs in the real window (offscreen) while NumPy → Torch, Restart kernel (torch)
and Torch → NumPy happen, each followed by the re-run it triggers. Reported per action: how
long it took, how many ticks fired, and the longest gap between two ticks (a frozen window
shows as a gap of the whole switch; one that keeps painting stays near 50 ms).

    python benchmarks/engine_switch.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CODE = "import torch\nx = torch.ones(3, requires_grad=True)\n(x * x).sum().backward()\n"


def measure(application, window, action) -> tuple[float, int, float]:
    """(seconds until the kernel is ready again, ticks, longest gap between ticks in s)."""
    from PySide6.QtCore import QTimer

    ticks: list[float] = []
    timer = QTimer(interval=50, timeout=lambda: ticks.append(time.monotonic()))
    timer.start()
    started = time.monotonic()
    action()
    application.processEvents()
    while window.runner.is_starting or window.runner.busy:
        application.processEvents()
        time.sleep(0.002)
    took = time.monotonic() - started
    timer.stop()
    gaps = [b - a for a, b in zip([started, *ticks], ticks, strict=False)]
    return took, len(ticks), max(gaps, default=took)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()
    from playground.ui.app import make_application
    from playground.ui.main_window import MainWindow
    from playground.ui.recovery import RecoveryStore
    from playground.ui.settings import Settings

    folder = Path(tempfile.mkdtemp())
    application = make_application("light")
    window = MainWindow(settings=Settings(folder / "s.json"),
                        recovery=RecoveryStore(folder / "r.json"))
    window.show()
    while window.runner.is_starting:
        application.processEvents()
    window.editor.setPlainText(CODE)
    box = window.runs.engine_box
    actions = {
        "NumPy -> Torch": lambda: box.setCurrentIndex(box.findData("torch")),
        "Restart kernel (torch)": window.runs.restart_kernel,
        "Torch -> NumPy": lambda: box.setCurrentIndex(box.findData("numpy")),
    }
    results: dict[str, list[tuple[float, int, float]]] = {name: [] for name in actions}
    for _ in range(arguments.rounds):
        for name, action in actions.items():
            results[name].append(measure(application, window, action))
    print(f"{'action':24} {'took s':>7} {'ticks':>6} {'longest gap ms':>15}  (medians of "
          f"{arguments.rounds})")
    for name, rows in results.items():
        took, ticks, gap = (statistics.median(column) for column in zip(*rows, strict=True))
        print(f"{name:24} {took:7.2f} {ticks:6.0f} {gap * 1000:15.0f}")
    window.close()


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
