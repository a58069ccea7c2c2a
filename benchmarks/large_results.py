"""What a large result costs the window: its longest freeze, its memory, its decoding peak.

    QT_QPA_PLATFORM=offscreen python benchmarks/large_results.py [--nodes 100000]

Three cases, each in the real window:
- a chain of NODES functions that never repeat (nothing folds), as a run's result;
- an unrolled loop whose weight feeds every step (NODES/2 steps): long edges to one node;
- a notebook of NODES/1 cells (one line each), opened from disk.
For each: the longest time the event loop did not turn (a 20 ms timer), and the window's
resident memory grown. Then a reply frame of a 20,000-node result: the decoding's peak
(tracemalloc), against what the decoded result keeps and the frame's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _window(scratch: Path):
    from playground.ui.app import make_application
    from playground.ui.main_window import MainWindow
    from playground.ui.recovery import RecoveryStore
    from playground.ui.settings import Settings

    application = make_application("light")
    window = MainWindow(settings=Settings(scratch / "settings.json"),
                        recovery=RecoveryStore(scratch / "recovery.json"))
    window.document.ask_unsaved = lambda: "discard"
    window.resize(1400, 860)
    window.show()
    return application, window


def _wait(application, until, limit: float = 300.0) -> None:
    deadline = time.monotonic() + limit
    while not until() and time.monotonic() < deadline:
        application.processEvents()
        time.sleep(0.005)


def _measured(application, start, until) -> tuple[float, float, float]:
    """(longest gap s, seconds until done, MB of resident memory grown)."""
    import psutil
    from PySide6.QtCore import QTimer

    process = psutil.Process()
    before = process.memory_info().rss
    gaps, last = [0.0], [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps[0] = max(gaps[0], now - last[0])
        last[0] = now

    timer = QTimer(interval=20, timeout=tick)
    timer.start()
    began = time.perf_counter()
    start()
    tick()  # a start that blocks counts too
    _wait(application, until)
    took = time.perf_counter() - began
    _wait(application, lambda: time.perf_counter() - began > took + 0.5)
    timer.stop()
    return gaps[0], took, (process.memory_info().rss - before) / 1e6


def _graph_case(application, window, graph) -> tuple[float, float, float]:
    from playground.model import RunResult

    view = window.graph_view
    result = _measured(application,
                       lambda: window.runner.finished.emit(RunResult("numpy", graph=graph)),
                       lambda: view.current is not None and not view.busy and
                       len(view.current.nodes) == len(graph.nodes))
    window.runner.finished.emit(RunResult("numpy"))  # back to nothing between cases
    _wait(application, lambda: view.current is None)
    return result


def shared_weight_graph(steps: int):
    from playground.model import Graph, GraphEdge, GraphNode

    nodes = [GraphNode("out", "tensor", "total", names=["total"])]
    edges, above = [], "out"
    for step in range(steps):
        nodes += [GraphNode(f"add{step}", "function", "AddBackward0"),
                  GraphNode(f"mul{step}", "function", "MulBackward0")]
        edges += [GraphEdge(above, f"add{step}", "grad"),
                  GraphEdge(f"add{step}", f"mul{step}", "grad"),
                  GraphEdge(f"mul{step}", "acc", "grad")]
        above = f"add{step}"
    nodes += [GraphNode("acc", "accumulate", "AccumulateGrad"),
              GraphNode("w", "leaf", "w", names=["w"])]
    edges += [GraphEdge(above, "acc", "grad"), GraphEdge("acc", "w", "grad")]
    return Graph(nodes, edges)


def _notebook_case(application, window, cells: int, scratch: Path):
    path = scratch / "long.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
         "source": [f"x{n} = {n}"]} for n in range(cells)]}))
    editor = window.editor
    return _measured(application, lambda: window.document.open_file(str(path)),
                     lambda: not (window.document.opening or editor.loading or
                                  editor.highlighter.colouring))


def decoding_peak(nodes: int = 20_000) -> tuple[float, float, float]:
    """(frame, peak, kept) in MB for a reply holding a chain graph and its backward trace:
    its size, the decoding's peak, and what the decoded result holds after it."""
    import numpy as np

    from playground.kernel import wire
    from playground.model import ArrayData, BackwardStep, BackwardTrace, RunResult
    from playground.model.run_result import reply_hook
    from tests.ui.test_large_results import mixed_chain

    graph = mixed_chain(nodes)
    scalar = ArrayData.from_array(np.float32(0.5), "torch.float32")
    steps = [BackwardStep(n.id, n.label, [scalar], [scalar]) for n in graph.nodes
             if n.kind == "function"]
    result = RunResult("numpy", graph=graph, traces=[BackwardTrace("backward", ["f0"], steps)])
    frame = wire.encode({"op": "result", "id": "r", "result": result.to_json(raw=True)})
    tracemalloc.start()
    decoded = RunResult.from_json(wire.decode(frame, reply_hook)["result"])
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del decoded
    return len(frame) / 1e6, peak / 1e6, kept / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    arguments = parser.parse_args()
    from tests.ui.test_large_results import mixed_chain  # the tests' graphs, measured here

    scratch = Path(tempfile.mkdtemp(prefix="large-results-"))
    application, window = _window(scratch)
    _wait(application, lambda: not window.runner.is_starting, 60)
    cases = [("chain of functions", lambda: _graph_case(application, window,
                                                         mixed_chain(arguments.nodes))),
             ("weight in every step", lambda: _graph_case(
                 application, window, shared_weight_graph(arguments.nodes // 2))),
             (f"notebook of {arguments.nodes:,} cells",
              lambda: _notebook_case(application, window, arguments.nodes, scratch))]
    print(f"{'case':<28}{'longest freeze':>16}{'done after':>12}{'memory grown':>14}")
    for name, case in cases:
        gap, took, grown = case()
        print(f"{name:<28}{gap:>14.2f} s{took:>10.1f} s{grown:>11.0f} MB", flush=True)
    size, peak, kept = decoding_peak()
    print(f"decoding a {size:.1f} MB reply peaks at {peak:.0f} MB: what it keeps ({kept:.0f} "
          f"MB) and {(peak - kept) / size:.1f}x the reply (its text, what is being read)")
    window.editor.document().setModified(False)
    window.close()


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
