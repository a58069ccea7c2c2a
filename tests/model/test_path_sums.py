"""The chain rule over paths in the user's names and numbers, checked against the gradient the
engine computed, on both engines."""

from __future__ import annotations

import pytest

from playground.engines.base import run_code
from playground.engines.numpy_engine import NumpyEngine
from playground.engines.torch_engine import TorchEngine
from playground.model.display import paths_between
from playground.model.path_sums import path_sum


def _sum(code: str, engine: str, start: str, end: str, call: int = -1):
    run = run_code(code, NumpyEngine() if engine == "numpy" else TorchEngine("cpu"))
    assert run.error is None, run.error
    graph = run.graph
    paths = paths_between(graph, graph.by_name(start).id, graph.by_name(end).id)
    return path_sum(graph, run.traces[call], paths)


ENGINES = pytest.mark.parametrize("engine", ["numpy", "torch"])


@ENGINES
def test_two_paths_add_up_to_the_leafs_gradient(engine):
    code = ("import torch\nx = torch.tensor(3.0, requires_grad=True)\n"
            "u = x * x\nv = torch.sin(x)\ny = u + v\ny.backward()\n")
    found = _sum(code, engine, "y", "x")
    # x * x has two edges into x: du/dx is their sum, x + x
    assert found.lines[0] == "dy/dx = dy/du · du/dx + dy/dv · dv/dx"
    assert found.lines[1] == "= 1 · (x + x) + 1 · cos(x)"
    assert found.total == pytest.approx(found.engine, rel=1e-6)
    assert found.engine == pytest.approx(6.0 + __import__("math").cos(3.0), rel=1e-6)
    assert found.lines[-1].endswith("the paths add up to the engine's gradient ✓")


@ENGINES
def test_a_gradient_accumulated_over_two_calls_is_said_to_differ(engine):
    code = ("import torch\nw = torch.tensor(2.0, requires_grad=True)\n"
            "for _ in range(2):\n    y = w * 5\n    y.backward()\n")
    found = _sum(code, engine, "y", "w")
    assert found.total == 5 and found.engine == 10
    assert "w.grad = 10, the paths add up to 5: they differ by 5" in found.lines[-1]


@ENGINES
def test_tensors_of_many_values_are_written_in_names_only(engine):
    code = ("import torch\nw = torch.ones(3, requires_grad=True)\n"
            "loss = (w * 2).sum()\nloss.backward()\n")
    found = _sum(code, engine, "loss", "w")
    assert found.lines[:2] == ["dloss/dw = dloss/dw", "= 2"]
    assert found.total is None and found.engine is None
    assert "not a single number" in found.lines[-1]


def test_more_paths_than_are_written_out_are_not_summed():
    code = ("import torch\nx = torch.tensor(1.5, requires_grad=True)\ny = x\n"
            "for _ in range(4):\n    y = y * y + y\ny.backward()\n")  # 3^4 paths
    found = _sum(code, "numpy", "y", "x")
    assert "… and more paths (81 in all)" in found.lines
    assert found.total is None and found.engine is not None
    assert found.lines[-1].endswith("(the engine's)")
