"""Time of one backward-player step on a 1,000-node graph, in the real window (offscreen).

A step is what the user waits for: the player's state computed, the graph's node looks,
gradient labels and rule callout updated, the plots moved to the step's gradients, the
inspector refilled, and then the event loop run once so that Qt repaints what changed
(nodes are cached as pixmaps, so only the changed ones are drawn again).
Target (issue 6): median under 16 ms, so that playing at 60 steps a second stays smooth.
Measured at two zooms: the whole graph fitted in view (text dropped by level of detail)
and 1:1 around the running node.

    python benchmarks/player_step.py [--layers 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CODE = """
import torch
x = torch.ones(4, requires_grad=True)
weights = [torch.full((4,), 0.5, requires_grad=True) for _ in range({layers})]
y = x
for w in weights:
    y = (y * w + 1.0).tanh()
loss = y.sum()
loss.backward()
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", type=int, default=200)
    arguments = parser.parse_args()
    from playground.ui.app import make_application
    from playground.ui.main_window import MainWindow
    from playground.ui.recovery import RecoveryStore

    application = make_application("light")
    window = MainWindow(recovery=RecoveryStore(Path("/tmp/player-bench-recovery.json")))
    window.resize(1400, 860)
    window.show()
    window.editor.setPlainText(CODE.format(layers=arguments.layers))
    finished = []
    window.runner.finished.connect(finished.append)
    window.runs.run_all()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and not (
            finished and window.plots is not None and window.graph_view.current is not None
            and not window.graph_view.busy and bool(window.view_state.calls)):
        application.processEvents()
        time.sleep(0.01)
    graph = window.graph_view.graph
    player = window.player
    player.go(0)  # the replay starts when asked
    print(f"graph: {len(graph.nodes)} nodes, {len(graph.edges)} edges; "
          f"backward: {player.playback.count} steps")
    view = window.graph_view

    def step_times(follow_node: bool) -> list[float]:
        times = []
        player.go(0)
        for position in range(1, player.playback.count + 1):
            started = time.perf_counter()
            player.go(position)
            if follow_node:
                item = view.node_item(player.playback.state(position).running)
                if item is not None:
                    view.centerOn(item)
            # Qt paints what changed when it gets the event loop: let it, inside the timing
            application.processEvents()
            times.append(time.perf_counter() - started)
        return times

    view.fit()
    fitted = step_times(follow_node=False)
    view.resetTransform()
    close = step_times(follow_node=True)
    for name, times in (("whole graph in view", fitted), ("1:1 on the running node", close)):
        times_ms = sorted(t * 1000 for t in times)
        print(f"{name:26} median {statistics.median(times_ms):6.2f} ms   "
              f"p90 {times_ms[int(len(times_ms) * 0.9)]:6.2f} ms   max {times_ms[-1]:6.2f} ms "
              f"(target: median < 16 ms)")
    window.editor.document().setModified(False)
    window.close()


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
