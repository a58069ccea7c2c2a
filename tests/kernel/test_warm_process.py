"""A fresh run goes to a new process only when a run changed the current one
(kernel/fingerprint.py): the engine's own threads, started by a large op, are no change."""

from __future__ import annotations

import time

from playground.kernel.client import Kernel

LARGE_OPS = """import torch
x = torch.linspace(0, 1, 1 << 18, requires_grad=True)
(x.tanh() * x.exp()).sum().backward()
import threading
print(sorted(t.name for t in threading.enumerate() if "split" in t.name))
"""


def test_a_fresh_run_after_large_ops_stays_in_the_warm_process():
    """The split workers of a large tanh (npgrad/_parallel.py) outlive the run: named as a
    script's thread, they sent every fresh run after it to a new process, which the user
    waited a second for when running again at once."""
    with Kernel("numpy", completions=False, spare=True) as kernel:  # (the window's way)
        first = kernel.run(LARGE_OPS)
        assert first.error is None, first.error
        assert "split" in first.output  # (the workers did start)
        deadline = time.monotonic() + 10
        while not kernel.state_known and time.monotonic() < deadline:
            time.sleep(0.01)
        process = kernel.process.pid
        again = kernel.run("y = 1\n")
        assert again.error is None
        assert kernel.process.pid == process
