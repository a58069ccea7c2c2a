"""A training loop of thousands of small backward calls (2,000-element float32 tensors, a
graph that changes shape from step to step): what recording costs, and npgrad against torch.
It is the dynamic net of "Learning PyTorch with Examples", in our words, at its 30,000 steps.

(1) in this process, interleaved: the bare engines (npgrad, torch) and ``run_code`` (what the
    kernel does: recording the graph and the player's calls) on each;
(2) end to end, fresh processes: ``playground run`` against ``python`` running the same file on
    the bare engine (npgrad bound as torch, or torch).
Targets (issue 24): recording ≤ 1.1× the bare engine; npgrad ≤ 1.0× torch. (1) also gives
the ratio of CPU times: on a shared virtual machine the time another guest takes the CPU
counts in wall time, not in CPU time (torch's idle worker threads count in both runs alike).

    python benchmarks/training_loop.py [--steps 30000] [--rounds 5] [--engine torch]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playground.engines.base import run_code  # noqa: E402

# A cubic fitted to sin(x), with one more term that comes and goes at random each step.
LOOP = """
import random
import torch

random.seed(0)


class WobblyPolynomial(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c0 = torch.nn.Parameter(torch.randn(()))
        self.c1 = torch.nn.Parameter(torch.randn(()))
        self.c2 = torch.nn.Parameter(torch.randn(()))
        self.c3 = torch.nn.Parameter(torch.randn(()))
        self.extra = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        out = self.c0 + self.c1 * x + self.c2 * x ** 2 + self.c3 * x ** 3
        for power in range(4, random.randint(4, 6)):
            out = out + self.extra * x ** power
        return out


x = torch.linspace(-3.0, 3.0, 2000)
target = torch.sin(x)
model = WobblyPolynomial()
loss_fn = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
for step in range(STEPS):
    loss = loss_fn(model(x), target)
    if step % 2000 == 1999:
        print(step, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""

# Runs a file with npgrad bound as torch, as a user without the app would.
NPGRAD_SHIM = ("import runpy, sys, playground.npgrad as engine; sys.modules['torch'] = engine; "
               "runpy.run_path(sys.argv[1], run_name='__main__')")


def engines() -> dict:
    from playground.engines.numpy_engine import NumpyEngine

    found = {"numpy": NumpyEngine()}
    try:
        from playground.engines.torch_engine import TorchEngine

        found["torch"] = TorchEngine("cpu")
    except Exception as error:  # noqa: BLE001 - torch is optional
        print(f"torch not measured: {error}")
    return found


def bare(engine, code: str) -> tuple[float, float]:
    """The code on the engine's module with nothing recorded: (wall, CPU) seconds."""
    module = engine.torch_module()
    saved = sys.modules.get("torch")
    sys.modules["torch"] = module
    try:
        started, used = time.perf_counter(), time.process_time()
        # compiled as run_code compiles it: none of this file's ``from __future__`` flags
        exec(compile(code, "<loop>", "exec", dont_inherit=True), {"__name__": "__main__"})
        return time.perf_counter() - started, time.process_time() - used
    finally:
        if saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = saved


def recorded(engine, code: str) -> tuple[float, float]:
    started, used = time.perf_counter(), time.process_time()
    run = run_code(code, engine, "<loop>")
    assert run.error is None, run.error
    return time.perf_counter() - started, time.process_time() - used


def in_process(code: str, rounds: int, only: str | None = None) -> None:
    times: dict[str, list[tuple[float, float]]] = {}
    for round_number in range(rounds):
        for name, engine in engines().items():
            if only is not None and name != only:
                continue
            # bare first in one round, recorded first in the next: a process that speeds up
            # (or slows down) as it runs favours neither
            order = (bare, recorded) if round_number % 2 == 0 else (recorded, bare)
            for measure in order:
                kind = "bare" if measure is bare else "recorded"
                times.setdefault(f"{name} {kind}", []).append(measure(engine, code))
    wall = {key: statistics.median(t[0] for t in values) for key, values in times.items()}
    for name in ("numpy", "torch"):
        if f"{name} bare" in wall:
            plain, kept = times[f"{name} bare"], times[f"{name} recorded"]
            # each round's two runs ran side by side: the median of their ratios cancels what
            # the VM did between rounds (a ratio of medians mixed runs minutes apart)
            ratios = [r[0] / b[0] for r, b in zip(kept, plain, strict=True)]
            cpu = statistics.median(r[1] / b[1] for r, b in zip(kept, plain, strict=True))
            # the fastest run of each: what the VM's other guests add to a run can only add,
            # so the minimum is the least disturbed reading (timeit's advice)
            fastest = min(r[0] for r in kept) / min(b[0] for b in plain)
            print(f"(1) {name:5s}: bare {wall[f'{name} bare']:6.2f} s, recorded "
                  f"{wall[f'{name} recorded']:6.2f} s: {statistics.median(ratios):.2f}x "
                  f"(target <= 1.1; median of the rounds' "
                  f"{', '.join(f'{r:.2f}' for r in ratios)}); CPU time {cpu:.2f}x; "
                  f"fastest against fastest {fastest:.2f}x")
    if "torch bare" in wall and "numpy bare" in wall:
        print(f"    npgrad / torch, bare: {wall['numpy bare'] / wall['torch bare']:.2f}x "
              "(target <= 1.0)")


def end_to_end(code: str, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "loop.py"
        script.write_text(code)
        environment = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        commands = {
            "numpy bare": [sys.executable, "-c", NPGRAD_SHIM, str(script)],
            "numpy playground run": [sys.executable, "-m", "playground", "run", str(script)],
            "torch bare": [sys.executable, str(script)],
            "torch playground run": [sys.executable, "-m", "playground", "run", "--engine",
                                     "torch", str(script)],
        }
        times: dict[str, list[float]] = {}
        for _ in range(rounds):
            for name, command in commands.items():
                started = time.perf_counter()
                subprocess.run(command, check=True, capture_output=True, env=environment,
                               cwd=ROOT)
                times.setdefault(name, []).append(time.perf_counter() - started)
    medians = {key: statistics.median(values) for key, values in times.items()}
    for name in ("numpy", "torch"):
        plain, app = medians[f"{name} bare"], medians[f"{name} playground run"]
        print(f"(2) {name:5s}: python {plain:6.2f} s, playground run {app:6.2f} s: "
              f"{app / plain:.2f}x (target <= 1.1)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--skip-end-to-end", action="store_true")
    parser.add_argument("--engine", choices=("numpy", "torch"),
                        help="(1) on this engine only (more rounds in the same time)")
    options = parser.parse_args()
    code = LOOP.replace("STEPS", str(options.steps))
    in_process(code, options.rounds, options.engine)
    if not options.skip_end_to_end:
        end_to_end(code, options.rounds)


if __name__ == "__main__":
    from machine import describe

    print(describe(), flush=True)  # the machine a figure came from, first
    main()
