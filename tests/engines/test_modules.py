"""Graph nodes name the nn.Module that made them, the same on both engines; traces stay small."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from playground.engines.base import run_code
from playground.engines.numpy_engine import NumpyEngine
from playground.engines.torch_engine import TorchEngine
from playground.model.playback import Playback
from playground.model.trace import dumps as traces_dumps

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "resources" / "examples").glob("*.py"))
MODELS = sorted((ROOT / "benchmarks" / "models").glob("*.py"))
TRACE_BYTES = 5 << 20  # the transformer's whole --trace file (issue 39)


def _runs(code: str):
    mine, theirs = run_code(code, NumpyEngine()), run_code(code, TorchEngine("cpu"))
    assert mine.error is None and theirs.error is None, (mine.error, theirs.error)
    return mine, theirs


def _node_lists(run) -> tuple:
    graph = run.graph
    modules = {path: (m.class_name, m.parameters, m.inputs, m.outputs,
                      [(w.name, w.shape) for w in m.weights])
               for path, m in graph.modules.items()}
    traces = [(t.kind, t.roots, [(s.node, s.name) for s in t.steps]) for t in run.traces]
    return ([(n.id, n.kind, n.label, n.module, n.line, n.expression) for n in graph.nodes],
            graph.edges, modules, traces, _step_words(run))


def _step_words(run) -> list[list[str]]:
    """Each replay step of each call as the player says it in the user's names, its decimal
    numbers left out (float32 matrix products differ in the last places across engines: the
    values themselves are compared, within tolerance, by test_graph_and_trace)."""
    said = []
    for trace in run.traces:
        playback = Playback(run.graph, trace)
        said.extend([re.sub(r"(?<![\w.])-?\d+\.?\d*(e-?\d+)?", "#", line)
                     for line in playback.state(position).explanation]
                    for position in range(1, playback.count + 1))
    return said


@pytest.mark.parametrize("path", EXAMPLES + MODELS, ids=lambda path: path.stem)
def test_graph_and_trace_node_lists_are_the_same_on_both_engines(path):
    mine, theirs = _runs(path.read_text())
    assert _node_lists(mine) == _node_lists(theirs)
    assert mine.graph.nodes


def test_every_operation_of_a_transformer_names_its_innermost_module():
    mine, theirs = _runs((ROOT / "benchmarks" / "models" / "transformer.py").read_text())
    for run in (mine, theirs):
        graph = run.graph
        made_in = {}
        for node in graph.nodes:
            made_in.setdefault(node.label, set()).add(node.module)
        assert made_in["ScaledDotProductFlashAttentionForCpuBackward0"] == {
            f"model.encoder.layers.{i}.self_attn" for i in range(4)}
        assert {"model.encoder.layers.3.norm1", "model.encoder.layers.3.norm2"} <= \
            made_in["NativeLayerNormBackward0"]
        assert made_in["MseLossBackward0"] == {None}  # the loss is outside the model
        assert made_in["MeanBackward1"] == {"model"}  # the model's own forward took the mean
        leaf = graph.by_name("model.encoder.layers.0.linear1.weight")
        assert leaf.module == "model.encoder.layers.0.linear1"
        accumulate = next(graph.node(e.source) for e in graph.edges if e.target == leaf.id)
        assert accumulate.module == leaf.module
        layer = graph.modules["model.encoder.layers.0"]
        assert layer.class_name == "TransformerEncoderLayer"
        assert layer.inputs == ((8, 10, 32),) and layer.outputs == ((8, 10, 32),)
        assert layer.parameters == 8544 and layer.weights[0].name == "self_attn.in_proj_weight"
        assert graph.modules["model.encoder.layers"].class_name == "ModuleList"  # a parent
        assert len(traces_dumps(run.traces)) <= TRACE_BYTES
    norms = [[w.grad_norm for w in run.graph.modules["model.head"].weights]
             for run in (mine, theirs)]
    assert norms[0] == pytest.approx(norms[1], rel=1e-4) and all(norms[0])


CAUGHT = """
import torch
import torch.nn as nn

class Fragile(nn.Module):
    def forward(self, x):
        y = x * 2
        raise ValueError("no")

class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fragile = Fragile()
        self.fc = nn.Linear(2, 2)
    def forward(self, x):
        try:
            self.fragile(x)
        except ValueError:
            pass
        return self.fc(x).sum()

model = Outer()
x = torch.ones(1, 2, requires_grad=True)
out = model(x) + nn.Linear(2, 1)(x).sum()
out.backward()
"""


def test_a_forward_that_raised_and_a_module_no_variable_holds():
    mine, theirs = _runs(CAUGHT)
    assert _node_lists(mine) == _node_lists(theirs)
    modules = {node.label: node.module for node in mine.graph.nodes if node.kind == "function"}
    assert modules["AddBackward0"] is None
    assert modules["SumBackward0"] in ("model", "Linear")
    addmm = [node.module for node in mine.graph.nodes if node.label == "AddmmBackward0"]
    assert sorted(addmm) == ["Linear", "model.fc"]  # the unnamed one goes by its class
    assert mine.graph.modules["Linear"].class_name == "Linear"


def test_a_script_without_modules_has_none():
    mine, _ = _runs("import torch\nx = torch.ones(2, requires_grad=True)\n(x * 3).sum()"
                    ".backward()\n")
    assert mine.graph.modules == {} and {n.module for n in mine.graph.nodes} == {None}


MADE_EACH_STEP = """
import gc
import weakref
import torch
import torch.nn as nn

x = torch.ones(3, 2)
made = []
for step in range(40):
    layer = nn.Linear(2, 1)
    made.append(weakref.ref(layer))
    loss = layer(x).sum()
del layer
gc.collect()
alive = sum(reference() is not None for reference in made)
loss.backward()
"""


def test_modules_made_in_a_loop_are_not_kept_alive_by_the_recording():
    mine, theirs = _runs(MADE_EACH_STEP)
    assert mine.namespace["alive"] == theirs.namespace["alive"] == 0
    for run in (mine, theirs):  # the last one, gone, is named by its class
        addmm = next(node for node in run.graph.nodes if node.label == "AddmmBackward0")
        assert addmm.module == "Linear" and run.graph.modules["Linear"].outputs == ((3, 1),)


USERS_GLOBAL_HOOK = """
import torch
import torch.nn as nn

heard = []
handle = nn.modules.module.register_module_forward_hook(
    lambda module, args, output: heard.append(type(module).__name__))
model = nn.Sequential(nn.Linear(2, 3), nn.Tanh())
model(torch.ones(1, 2)).sum().backward()
handle.remove()
raise RuntimeError("the script fails at its end")
"""


@pytest.mark.parametrize("engine", [NumpyEngine, lambda: TorchEngine("cpu")],
                         ids=["numpy", "torch"])
def test_the_run_hears_modules_beside_the_users_hooks_and_puts_call_back(engine):
    engine = engine()
    module_class, method = engine.torch_module().nn.Module, engine.module_hooks().method
    before = module_class.__dict__[method]
    run = run_code(USERS_GLOBAL_HOOK, engine)
    assert isinstance(run.error, RuntimeError)
    assert run.namespace["heard"] == ["Linear", "Tanh", "Sequential"]  # torch's order
    assert {node.module for node in run.graph.nodes if node.label == "AddmmBackward0"} \
        == {"model.0"}
    assert module_class.__dict__[method] is before  # nothing of the run is left behind
