"""A fresh run goes to a new process only when a run changed the current one
(kernel/fingerprint.py): the engine's own threads, started by a large op, are no change."""

from __future__ import annotations

import time

import pytest

from playground.engines.numpy_engine import NumpyEngine
from playground.kernel import fingerprint
from playground.kernel.client import Kernel
from playground.kernel.yielding import profile_put_aside, yielding_to_runs

LARGE_OPS = """import torch
x = torch.linspace(0, 1, 1 << 18, requires_grad=True)
(x.tanh() * x.exp()).sum().backward()
import threading
print(sorted(t.name for t in threading.enumerate() if "split" in t.name))
"""


def _stays(kernel: Kernel, code: str) -> bool:
    """Whether a fresh run after ``code`` runs in the same process."""
    result = kernel.run(code)
    assert result.error is None, result.error
    deadline = time.monotonic() + 10
    while not kernel.state_known and time.monotonic() < deadline:
        time.sleep(0.01)
    process = kernel.process.pid
    assert kernel.run("y = 1\n").error is None
    return kernel.process.pid == process


def test_a_fresh_run_after_large_ops_stays_in_the_warm_process():
    """The split workers of a large tanh (npgrad/_parallel.py) outlive the run: named as a
    script's thread, they sent every fresh run after it to a new process, which the user
    waited a second for when running again at once."""
    with Kernel("numpy", completions=False, spare=True) as kernel:  # (the window's way)
        assert "split" in kernel.run(LARGE_OPS).output  # (the workers do start)
        assert _stays(kernel, LARGE_OPS)


def test_the_warm_up_reads_the_process_as_a_scripts_thread_finds_it():
    """The warm-up reads the process's state again when no run came first, in its own
    thread, under yielding.py's profile function, which a script's thread does not have:
    read with it, every first run looked like one that had set a profiler."""
    engine = NumpyEngine()
    on_the_main_thread = fingerprint.capture(engine)

    def read():
        with profile_put_aside():
            return fingerprint.capture(engine)

    read_in_the_warm_up = yielding_to_runs(("jedi",), read)
    assert fingerprint.unchanged(read_in_the_warm_up, on_the_main_thread)
    assert not fingerprint.unchanged(yielding_to_runs(("jedi",), fingerprint.capture, engine),
                                     on_the_main_thread)  # (what it was read as before)


OPTIMIZER = """import torch
model = torch.nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(3, 2)).sum().backward()
optimizer.step()
"""


def test_a_script_with_an_optimizer_keeps_a_torch_kernel_warm():
    """torch imports torch._dynamo at a script's first optimizer, which wraps
    torch.manual_seed and sets an environment variable: the torch engine's warm-up imports it
    before the kernel's state is read, and a fresh run after such a script stays in its
    process (before: a new process every time, 2.4 s a run). (The first kernel may be left
    once, where its first run beat its warm-up; the spare it leaves for is warmed first.)"""
    pytest.importorskip("torch")
    with Kernel("torch", spare=True) as kernel:
        assert kernel.run(OPTIMIZER).error is None
        _stays(kernel, OPTIMIZER)
        assert _stays(kernel, OPTIMIZER)
