"""The torch engine on a CUDA device (skipped where torch finds none, as on CI).

With CUDA the engine makes it torch's default device, so tutorial code lands on the GPU
unchanged: the oracle is python running the same script after
``torch.set_default_device("cuda")``, live on the same machine.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
if not torch.cuda.is_available():
    pytest.skip("torch finds no CUDA device here", allow_module_level=True)

from playground.engines.base import run_code  # noqa: E402
from playground.engines.torch_engine import TorchEngine  # noqa: E402
from playground.kernel.client import Kernel  # noqa: E402

SCRIPTS = {
    "leaf": """
        import torch
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = (x * x + 2 * x).sum()
        y.backward()
        print(x.grad, y, y.grad_fn.name())
    """,
    "training": """
        import torch
        from torch import nn
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
        data, target = torch.linspace(-1, 1, 32).reshape(8, 4), torch.ones(8, 1)
        optimiser = torch.optim.SGD(model.parameters(), lr=0.1)
        for step in range(5):
            optimiser.zero_grad()
            loss = nn.functional.mse_loss(model(data), target)
            loss.backward()
            optimiser.step()
            print(step, round(loss.item(), 4))
        print(next(model.parameters()).device)
    """,
    "higher_order": """
        import torch
        x = torch.tensor(2.0, requires_grad=True)
        y = x ** 3
        (first,) = torch.autograd.grad(y, x, create_graph=True)
        (second,) = torch.autograd.grad(first, x)
        print(first, second)
    """,
    "hooks_and_function": """
        import torch
        class Square(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x
            @staticmethod
            def backward(ctx, grad):
                (x,) = ctx.saved_tensors
                return 2 * x * grad
        x = torch.ones(3, requires_grad=True)
        x.register_hook(lambda grad: grad * 10)
        Square.apply(x).sum().backward()
        print(x.grad)
    """,
    "to_and_from_the_cpu": """
        import torch
        a = torch.arange(4.0, device="cpu", requires_grad=True)
        b = a.to("cuda") * 3
        b.sum().backward()
        print(a.grad, b.device, a.device)
    """,
}


def _script(tmp_path: Path, name: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(SCRIPTS[name]).lstrip())
    return path


def _python_on_cuda(script: Path) -> subprocess.CompletedProcess:
    """The oracle: the script as python runs it once CUDA is torch's default device."""
    runner = ("import runpy, sys, torch\ntorch.set_default_device('cuda')\n"
              "sys.argv = [sys.argv[1]]\nrunpy.run_path(sys.argv[0], run_name='__main__')\n")
    return subprocess.run([sys.executable, "-c", runner, script.name], cwd=script.parent,
                          capture_output=True, text=True, timeout=300)


def test_auto_takes_the_gpu_and_names_it():
    engine = TorchEngine("auto")
    assert engine.device == "cuda" and engine.cuda_available
    assert torch.cuda.get_device_name(0) in engine.describe()


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_playground_run_on_cuda_prints_what_python_prints(tmp_path, name):
    script = _script(tmp_path, name)
    expected = _python_on_cuda(script)
    done = subprocess.run([sys.executable, "-m", "playground", "run", script.name,
                           "--engine", "torch", "--device", "cuda"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (expected.returncode, expected.stdout), \
        done.stderr[-3000:]
    assert "cuda" in expected.stdout or name != "training"


def test_the_graph_and_trace_of_a_gpu_run_hold_its_values(tmp_path):
    run = run_code(textwrap.dedent(SCRIPTS["leaf"]), TorchEngine("cuda"))
    assert run.error is None
    leaf = run.graph.by_name("x")
    assert leaf.device == "cuda:0" and leaf.grad is not None
    assert leaf.grad.values.tolist() == [4.0, 6.0, 8.0]
    assert run.traces and run.traces[0].steps


def test_running_out_of_gpu_memory_is_the_runs_error_and_the_kernel_lives():
    with Kernel("torch", "cuda", completions=False) as kernel:
        result = kernel.run("import torch\nx = torch.empty(1 << 50, dtype=torch.uint8)\n")
        assert result.error is not None
        assert result.error.message.startswith("OutOfMemoryError: CUDA out of memory.")
        assert kernel.run("import torch\nprint(torch.ones(2).device)\n").output == "cuda:0\n"
