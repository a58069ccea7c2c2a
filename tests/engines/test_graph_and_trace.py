"""Both engines give the same Graph and the same BackwardTraces for the same code."""

from __future__ import annotations

import json

import pytest

from playground.engines import trace_recorder
from playground.engines.base import run_code
from playground.engines.numpy_engine import NumpyEngine
from playground.engines.torch_engine import TorchEngine
from playground.model import Graph
from playground.model.trace import traces_from_json, traces_to_json
from tests.engines.compare import assert_same_graph, assert_same_traces
from tests.seeds import code_cells, fixed_randn, tutorial_files, tutorial_id, uses_matplotlib

PROGRAMS = {
    "seed-style weights": """
import torch
a = torch.tensor([4.0])
weights = [torch.tensor([i], requires_grad=True) for i in (2.0, 5.0, 9.0, 7.0)]
w1, w2, w3, w4 = weights
b = w1 * a
c = w2 * a
d = w3 * b + w4 * c
L = (10 - d)
L.backward()
""",
    "branching and a shared leaf": """
import torch
x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
w = torch.tensor([1.5, 2.0, -0.5], requires_grad=True)
y = x * w
z = (y.exp() + y * x - w.sin()).sum()
z.backward()
""",
    "retain_graph and accumulation": """
import torch
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
out = (y * y * 3).mean()
out.backward(retain_graph=True)
out.backward()
""",
    "autograd.grad and double backward": """
import torch
x = torch.tensor([0.5, 1.5], requires_grad=True)
y = (x ** 3).sum()
(g,) = torch.autograd.grad(y, x, create_graph=True)
h = g.sum()
h.backward()
""",
    "non-scalar backward": """
import torch
x = torch.tensor([3., 2., 1.], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
v = torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float)
y.backward(v)
""",
    "matrix layer": """
import torch
import torch.nn.functional as F
inputs = torch.tensor([[1., 2.], [3., 4.], [5., 6.]])
W = torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]], requires_grad=True)
b = torch.zeros(3, requires_grad=True)
logits = (inputs @ W + b).relu()
loss = -F.log_softmax(logits, dim=1)[:, 0].mean()
loss.backward()
""",
    "an nn.Module and one SGD step": """
import torch
model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Tanh(), torch.nn.Linear(3, 1))
with torch.no_grad():
    for number, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.4 + number / 10, p.numel()).reshape(p.shape))
x = torch.tensor([[0.5, -1.0], [1.5, 0.25]])
loss = torch.nn.functional.mse_loss(model(x), torch.tensor([[1.0], [0.0]]))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss.backward()
optimizer.step()
""",
    "hooks, retain_grad, several outputs and a leaf hook": """
import torch
x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
w = torch.tensor([0.5, -1.0], requires_grad=True)
w.register_hook(lambda g: g * 2)
left, right = x.split(2)
y = left * w + right.sin()
y.retain_grad()
y.register_hook(lambda g: g + 1)
(y ** 2).sum().backward()
(x * 3).sum().backward()
""",
    "unnamed intermediates": """
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
((x * 3).sin() * x).sum().backward()
""",
}


def _both(code: str, torch_module, engine_module, monkeypatch=None):
    return (run_code(code, NumpyEngine()), run_code(code, TorchEngine("cpu")))


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_both_engines_give_the_same_graph_and_traces(name):
    mine, theirs = _both(PROGRAMS[name], None, None)
    assert mine.error is None and theirs.error is None, (mine.error, theirs.error)
    assert_same_graph(mine.graph, theirs.graph)
    assert_same_traces(mine.traces, theirs.traces)
    assert mine.traces, "every program calls backward or grad"


@pytest.mark.parametrize("code", [
    "v = torch.ones(3, requires_grad=True)\nv.backward(torch.ones(3))\n",
    "x = torch.ones(3, requires_grad=True)\ny = x * 2\ntry:\n    y.backward()\n"
    "except RuntimeError:\n    pass\n",
    "x = torch.ones(3, requires_grad=True)\ny = x * 2\ny.backward(torch.ones(3))\n"
    "y.backward(torch.ones(3))\n",
])
def test_edge_calls_draw_torchs_graph(code):
    """A leaf's own backward adds no AccumulateGrad node; a failed call keeps its root in the
    graph; a second backward through freed buffers shows the graph it failed on."""
    mine, theirs = _both("import torch\n" + code, None, None)
    assert (mine.error is None) == (theirs.error is None)
    assert_same_graph(mine.graph, theirs.graph)
    assert [[s.name for s in t.steps] for t in mine.traces if t.steps] == \
        [[s.name for s in t.steps] for t in theirs.traces if t.steps]


def test_a_failed_call_says_so_and_ends_at_the_node_that_raised():
    code = "\n".join(["import torch", "x = torch.ones(2, requires_grad=True)",
                      "y = (x * x).sum()", "y.backward()", "y.backward()"])
    mine, theirs = _both(code, None, None)
    for run in (mine, theirs):
        first, second = run.traces
        assert first.failed == ""
        assert second.failed.startswith("RuntimeError: Trying to backward through the graph")
        assert [step.name for step in second.steps] == ["SumBackward0", "MulBackward0"]
    restored = traces_from_json(json.loads(json.dumps(traces_to_json(mine.traces))))
    assert restored[1].failed == mine.traces[1].failed


def test_a_models_parameters_are_named_after_it():
    result = run_code(PROGRAMS["an nn.Module and one SGD step"], NumpyEngine())
    labels = {node.label for node in result.graph.nodes if node.is_tensor}
    assert {"model.0.weight", "model.0.bias", "model.2.weight", "model.2.bias"} <= labels
    kinds = {node.label: node.kind for node in result.graph.nodes}
    assert kinds["AddmmBackward0"] == "function" and kinds["model.0.weight"] == "leaf"


def test_graph_content_for_the_seed_weights_example():
    run = run_code(PROGRAMS["seed-style weights"], NumpyEngine())
    graph = run.graph
    assert graph.by_name("L").label == "L" and graph.by_name("L").kind == "tensor"
    assert graph.by_name("w1").kind == "leaf" and "weights[0]" in graph.by_name("w1").names
    assert graph.by_name("a").kind == "constant"
    assert graph.by_name("w3").grad.values.tolist() == [-8.0]
    labels = [node.label for node in graph.nodes if node.kind == "function"]
    assert labels.count("MulBackward0") == 4 and "RsubBackward1" in labels
    assert sum(node.kind == "accumulate" for node in graph.nodes) == 4
    (trace,) = run.traces
    assert trace.steps[0].name == "RsubBackward1" and trace.steps[-1].name == "AccumulateGrad"


def _seed_script(path) -> str:
    return "\n".join(cell for cell in code_cells(path) if not uses_matplotlib(cell))


@pytest.mark.parametrize("path", tutorial_files(), ids=tutorial_id)
def test_seed_tutorials_give_the_same_graph_and_traces(path, monkeypatch, torch, engine):
    monkeypatch.setattr(engine, "randn", fixed_randn(engine))
    mine = run_code(_seed_script(path), NumpyEngine())
    monkeypatch.setattr(torch, "randn", fixed_randn(torch))
    theirs = run_code(_seed_script(path), TorchEngine("cpu"))
    assert mine.error is None and theirs.error is None, (mine.error, theirs.error)
    assert_same_graph(mine.graph, theirs.graph)
    assert_same_traces(mine.traces, theirs.traces)


def test_graph_and_traces_round_trip_through_json():
    from playground.model import trace as trace_model

    run = run_code(PROGRAMS["branching and a shared leaf"], NumpyEngine())
    again = Graph.loads(run.graph.dumps())
    assert_same_graph(again, run.graph)
    traces = trace_model.traces_from_json(trace_model.traces_to_json(run.traces))
    assert_same_traces(traces, run.traces)


def test_dot_output_names_every_node_and_edge():
    graph = run_code(PROGRAMS["seed-style weights"], NumpyEngine()).graph
    dot = graph.to_dot()
    assert dot.startswith("digraph autograd {") and dot.rstrip().endswith("}")
    assert dot.count(" -> ") == len(graph.edges)
    assert 'label="MulBackward0"' in dot and 'label="w1\\n(1)"' in dot


def test_a_100000_node_graph_builds():
    """Whole up to the graph's bound (x, y, 99,990 MulBackward0, one AccumulateGrad); past
    it, drawn from its output up to the bound, and said so."""
    from playground.engines.graph_builder import GRAPH_NODES

    code = """
import torch
x = torch.tensor([1.0], requires_grad=True)
y = x
for _ in range(COUNT):
    y = y * 1.0
"""
    whole = run_code(code.replace("COUNT", "99_990"), NumpyEngine())
    assert len(whole.graph.nodes) == 99_993 and whole.notes == []
    cut = run_code(code.replace("COUNT", "100_000"), NumpyEngine())
    assert len(cut.graph.nodes) == GRAPH_NODES and cut.graph.by_name("y") is not None
    assert "more than 100,000 nodes" in cut.notes[0]


def test_large_values_are_summarised():
    graph = run_code("import torch\nbig = torch.arange(10000.)\n", NumpyEngine()).graph
    value = graph.by_name("big").value
    assert value.summarised and value.maximum == 9999.0 and value.preview[:3] == [0.0, 1.0, 2.0]


LOOP = """
import torch
w = torch.tensor([0.5, -0.3], requires_grad=True)
for step in range(STEPS):
    loss = ((w * 2 - 1) ** 2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
"""


def _output_function(graph: Graph, name: str) -> str:
    tensor = graph.by_name(name)
    return next(edge.target for edge in graph.edges
                if edge.source == tensor.id and edge.kind == "output")


@pytest.mark.parametrize("engine_name", ["numpy", "torch"])
def test_a_loops_unrecorded_last_calls_leave_one_graph(engine_name, monkeypatch):
    """Past the calls recorded whole, a long loop's calls are sampled on a grid (here: from
    the fourth, every fourth kept, at most two), so its last calls may go unrecorded: the
    latest recorded call is drawn on the graph the loop ended with, not on a second copy."""
    monkeypatch.setattr(trace_recorder, "ALL_CALLS", 3)
    monkeypatch.setattr(trace_recorder, "SAMPLED_CALLS", 2)
    engine = NumpyEngine() if engine_name == "numpy" else TorchEngine("cpu")
    run = run_code(LOOP.replace("STEPS", "20"), engine)
    assert run.error is None
    assert [trace.call for trace in run.traces] == [1, 2, 3, 11, 19] and run.dropped_calls == 15
    names = [node.label for node in run.graph.nodes if node.kind == "function"]
    assert names.count("SumBackward0") == 1 and names.count("PowBackward0") == 1
    for trace in run.traces:  # every call replays on the nodes of the final loss
        assert trace.roots == [_output_function(run.graph, "loss")]
        assert {step.node for step in trace.steps} <= {node.id for node in run.graph.nodes}


def test_a_last_recorded_call_of_another_shape_keeps_its_own_graph(monkeypatch):
    monkeypatch.setattr(trace_recorder, "ALL_CALLS", 3)
    monkeypatch.setattr(trace_recorder, "SAMPLED_CALLS", 2)
    code = LOOP.replace("STEPS", "20").replace(
        "    loss.backward()", "    loss.backward()\n    loss = loss * 3  # not backward'ed")
    run = run_code(code, NumpyEngine())
    latest = run.traces[-1]
    assert latest.roots != [_output_function(run.graph, "loss")]
    assert {step.node for step in latest.steps} <= {node.id for node in run.graph.nodes}


@pytest.mark.parametrize("engine_class", [NumpyEngine, TorchEngine], ids=["numpy", "torch"])
def test_a_graph_past_its_node_limit_is_drawn_from_its_outputs_and_says_so(engine_class,
                                                                           monkeypatch):
    from playground.engines import graph_builder

    monkeypatch.setattr(graph_builder, "GRAPH_NODES", 50)
    monkeypatch.setattr(graph_builder, "GRAPH_VALUES", 20)
    code = ("import torch\nx = torch.ones(3, requires_grad=True)\ny = x\n"
            "for _ in range(100):\n    y = y * 1.5\n")
    run = run_code(code, engine_class())
    assert run.error is None and len(run.graph.nodes) == 50
    assert run.graph.by_name("y") is not None  # the output end is what is drawn
    assert run.notes == ["the graph has more than 50 nodes: it is drawn up to there from "
                         "its outputs"]
    whole = [node for node in run.graph.nodes if node.value is not None and
             not node.value.summarised]
    assert sum(node.value.values.size for node in whole) <= 20  # past it, summaries


NINE_CALLS = """\
import torch
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
for make in (torch.sum, torch.mean, torch.norm, torch.max, torch.min, torch.prod):
    make(x).backward()
(x * x).sum().backward()
(x.exp()).sum().backward()
x.grad.zero_()
(x ** 3).sum().backward()
"""


@pytest.mark.parametrize("steps", [9, 200, 1000])
def test_the_calls_recorded_depend_on_the_script_alone(steps, monkeypatch):
    """The same loop keeps the same backward calls on both engines, whatever the clock says:
    the first three, a grid of evenly spaced ones, and the newest recorded (every call of
    the first ALL_CALLS, then the grid's: here the first 300)."""
    monkeypatch.setattr(trace_recorder, "ALL_CALLS", 300)
    code = LOOP.replace("STEPS", str(steps))
    kept = {}
    for engine in (NumpyEngine(), TorchEngine("cpu")):
        run = run_code(code, engine)
        assert run.error is None
        kept[engine.name] = [trace.call for trace in run.traces]
        assert len(run.traces) + run.dropped_calls == steps
    assert kept["numpy"] == kept["torch"]
    calls = kept["numpy"]
    assert calls[:3] == [1, 2, 3]
    sampled = calls[3:-1]
    gaps = {b - a for a, b in zip(sampled, sampled[1:], strict=False)}
    assert len(gaps) <= 1  # evenly spaced
    if steps <= 300:
        assert calls[-1] == steps  # the last call
    else:  # the newest grid call, within one gap of the end
        assert steps - calls[-1] <= max(gaps)
    assert len(calls) <= 3 + trace_recorder.SAMPLED_CALLS + 1


def test_a_script_of_nine_calls_offers_all_nine_on_both_engines():
    for engine in (NumpyEngine(), TorchEngine("cpu")):
        run = run_code(NINE_CALLS, engine)
        assert run.error is None, run.error
        assert [trace.call for trace in run.traces] == list(range(1, 10)), engine.name


FAILED_CALL = """\
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    (x * 2).backward()
except RuntimeError as error:
    print(error)
(x * 3).sum().backward()
"""


def test_a_call_that_fails_its_checks_is_the_same_story_on_both_engines():
    """A backward() that torch refuses (a non-scalar root) is call 1 on both engines, failed,
    and its root is in both graphs."""
    stories = []
    for engine in (NumpyEngine(), TorchEngine("cpu")):
        run = run_code(FAILED_CALL, engine)
        assert run.error is None
        stories.append((sorted(node.label for node in run.graph.nodes),
                        [(trace.call, trace.failed, len(trace.steps)) for trace in run.traces]))
    assert stories[0] == stories[1]
    assert stories[0][1][0] == (1, "RuntimeError: grad can be implicitly created only for "
                                   "scalar outputs", 0)


def test_a_recorded_call_leaves_no_hook_on_the_leaves_and_keeps_the_users():
    """A node keeps an emptied hook as long as it lives (a leaf's AccumulateGrad: a whole
    loop), and torch calls it at every later step; the leaves' own hooks are let go whole."""
    pytest.importorskip("torch")
    code = """
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
seen = []
b.register_hook(lambda grad: seen.append(grad.item()))
for step in range(3):
    ((w * 3 + b) ** 2).sum().backward()
"""
    run = run_code(code, TorchEngine("cpu"))
    assert run.error is None and len(run.traces) == 3
    w, b = run.namespace["w"], run.namespace["b"]
    assert w._backward_hooks is None and w._post_accumulate_grad_hooks is None
    assert len(b._backward_hooks) == 1 and b._post_accumulate_grad_hooks is None
    assert run.namespace["seen"] == [20.0, 20.0, 20.0]  # the user's hook ran, once a call
    after = [[step.grad_after.values.tolist() for step in trace.steps
              if step.grad_after is not None] for trace in run.traces]
    assert [sorted(grads, key=str) for grads in after] == [  # b's and w's, accumulated
        [20.0, [21.0, 39.0]], [40.0, [42.0, 78.0]], [60.0, [63.0, 117.0]]]


def test_a_leafs_own_post_accumulate_hook_runs_before_its_recorded_grad_is_read():
    """An optimizer stepping inside backward changes .grad in such a hook: the step shows
    the .grad it left, as torch runs the user's hook before any added after it."""
    pytest.importorskip("torch")
    code = """
import torch
w = torch.tensor([1.0, 2.0], requires_grad=True)
v = torch.tensor([3.0, 4.0], requires_grad=True)


def halve(p):
    p.grad.mul_(0.5)


w.register_post_accumulate_grad_hook(halve)
(w * 4 + v * 2).sum().backward()
"""
    run = run_code(code, TorchEngine("cpu"))
    assert run.error is None and len(run.traces) == 1
    w, v = run.namespace["w"], run.namespace["v"]
    assert w.grad.tolist() == [2.0, 2.0] and v.grad.tolist() == [2.0, 2.0]
    assert len(w._post_accumulate_grad_hooks) == 1 and v._post_accumulate_grad_hooks is None
    after = sorted(step.grad_after.values.tolist() for step in run.traces[0].steps
                   if step.grad_after is not None)
    assert after == [[2.0, 2.0], [2.0, 2.0]]  # w's halved by its hook, v's as accumulated


def test_autograd_calls_by_keyword_are_recorded_as_by_position():
    pytest.importorskip("torch")
    code = """
import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
(g,) = torch.autograd.grad(outputs=(x * x).sum(), inputs=x, create_graph=True)
torch.autograd.backward(tensors=g.sum())
print(g.tolist(), x.grad.tolist())
"""
    run = run_code(code, TorchEngine("cpu"))
    assert run.error is None
    assert [trace.kind for trace in run.traces] == ["grad", "backward"]
    assert all(trace.steps and trace.roots for trace in run.traces)


def test_a_write_through_a_view_shows_the_rule_of_the_write_it_wraps():
    """The inspector's rule for npgrad's CopySlices: the base's gradient, and where the view
    was written the write's own node (a Mul here); an item assignment's is setitem's."""
    run = run_code("import torch\nx = torch.ones(4, requires_grad=True)\n"
                   "a = torch.full((2,), 5.0, requires_grad=True)\n"
                   "y = x * 1\ny[:2].mul_(a)\nz = x * 1\nz[1] = a[0]\n", NumpyEngine())
    rules = [node.rule for node in run.graph.nodes if node.label == "CopySlices"]
    assert len(rules) == 2 and "the write's own node: MulBackward0: grad_self = grad * other" \
        in rules[0] and rules[1].startswith("CopySlices: grad_self = zero_at(grad, index)")


def test_a_loops_calls_let_go_are_never_read(monkeypatch):
    """Most of a long loop's backward calls are let go later: those off the sampling grid at
    the next call, those on it as the grid thins. The NumPy engine's fast path keeps their
    raw log of steps unread (reading them was half of the recording's cost in a 200-step
    loop); the calls kept to the end, the last among them, read theirs and are what they
    were."""
    from playground.engines import numpy_engine

    reads = []
    read = numpy_engine._logged_step
    monkeypatch.setattr(numpy_engine, "_logged_step",
                        lambda recorder, entry: reads.append(entry) or read(recorder, entry))
    code = ("import torch\nw = torch.tensor(0.5, requires_grad=True)\n"
            "for step in range(300):\n    loss = (w * 3 - 1) ** 2\n    loss.backward()\n")
    run = run_code(code, NumpyEngine())
    kept = [trace for trace in run.traces if trace.steps]
    assert run.error is None and kept[-1].call == 300 and len(kept) < 30
    assert len(reads) == 4 * len(run.traces)  # the kept calls' four steps, and no others
    assert [step.name for step in kept[-1].steps] == [
        "PowBackward0", "SubBackward0", "MulBackward0", "AccumulateGrad"]
    assert kept[-1].steps[-1].grad_after.values is not None


def test_raw_logs_past_their_budget_are_read_at_once_and_give_the_same_traces(monkeypatch):
    """The raw logs hold their arrays whole: past DEFERRED_VALUES elements in all, a call's
    log is read as it ends (large values summarised then, none pinned); the traces kept are
    the same either way."""
    from playground.engines import numpy_engine

    code = ("import torch\nw = torch.ones(5, requires_grad=True)\n"
            "for step in range(40):\n    loss = ((w * step - 1) ** 2).sum()\n"
            "    loss.backward()\n")
    unlimited = run_code(code, NumpyEngine())
    reads = []
    read = numpy_engine._logged_step
    monkeypatch.setattr(numpy_engine, "_logged_step",
                        lambda recorder, entry: reads.append(entry) or read(recorder, entry))
    monkeypatch.setattr(trace_recorder, "DEFERRED_VALUES", 20)  # one call's log holds more
    limited = run_code(code, NumpyEngine())
    assert len(reads) == 5 * 40  # every call read as it ended
    assert [t.call for t in limited.traces] == [t.call for t in unlimited.traces]
    assert_same_traces(limited.traces, unlimited.traces)
