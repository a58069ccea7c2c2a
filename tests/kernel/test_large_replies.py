"""A large result decoded in the window: its peak memory stays near the frame's size."""

from __future__ import annotations

import gc
import tracemalloc

import numpy as np

from playground.kernel import wire
from playground.kernel.client import Kernel
from playground.model import ArrayData, BackwardStep, BackwardTrace, Graph, RunResult
from playground.model.run_result import reply_hook
from tests.layout.test_large_graphs import chain


def large_result(length: int) -> RunResult:
    graph = chain(length)
    for node in graph.nodes:
        if node.kind == "function":
            node.rule = "MulBackward0: grad_self = grad * other; grad_other = grad * self"
    scalar = ArrayData.from_array(np.float32(0.5), "torch.float32")
    steps = [BackwardStep(node.id, node.label, [scalar], [scalar, None])
             for node in graph.nodes if node.kind == "function"]
    return RunResult("numpy", graph=graph, traces=[BackwardTrace("backward", ["f0"], steps)])


def test_decoding_a_large_result_peaks_near_what_it_keeps_and_its_text():
    result = large_result(20_000)
    frame = wire.encode({"op": "result", "id": "r1", "result": result.to_json(raw=True)})
    gc.collect()  # what earlier tests left for the collector is not this decode's to count
    tracemalloc.start()
    try:
        message = wire.decode(frame, reply_hook)
        decoded = RunResult.from_json(message["result"])
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Read as text, then dicts, then model objects, the peak held all three: the dicts as
    # much again as the objects kept (26 MB here). Made as they are read, the objects and
    # the text, and what is being read (1.7 times the frame's 10 MB, all together).
    assert peak < kept + 2 * len(frame), (peak, kept, len(frame))
    assert isinstance(decoded.graph, Graph) and len(decoded.graph.nodes) == 20_002
    assert decoded.graph.nodes[1].label == "MulBackward0"
    step = decoded.traces[0].steps[-1]
    assert step.node == "f19999" and step.incoming[0].preview == [0.5]
    # the texts that repeat are one object each
    labels = {id(node.label) for node in decoded.graph.nodes if node.kind == "function"}
    assert len(labels) == 1


def test_the_hook_leaves_other_objects_as_they_are():
    assert reply_hook({"op": "output", "text": "hi"}) == {"op": "output", "text": "hi"}
    made = reply_hook({"source": "a", "target": "b", "kind": "grad", "input": 0})
    assert (made.source, made.target) == ("a", "b")


def test_a_long_backward_is_recorded_within_a_budget_not_refused():
    """Backprop through time of a small RNN recorded every step's values whole: the reply
    passed the wire's 512 MB limit, was taken for a forged frame and the kernel restarted.
    Past a budget the steps keep summaries, so the run answers, with its trace."""
    from playground.engines.trace_recorder import TRACE_VALUES

    code = ("import torch\ntorch.manual_seed(0)\n"
            "W = torch.randn(64, 64, requires_grad=True)\nh = torch.zeros(64, 64)\n"
            "x = torch.randn(600, 64, 64)\n"
            "for t in range(600):\n    h = torch.tanh(h @ (W * 0.05) + x[t])\n"
            "h.pow(2).mean().backward()\nprint(W.grad.shape)\n")
    with Kernel("numpy", completions=False) as kernel:
        result = kernel.run(code, "bptt.py")
        assert result.ok and result.output == "torch.Size([64, 64])\n", result.error
        steps = [step for trace in result.traces for step in trace.steps]
        assert len(steps) > 2000
        whole = sum(array.values.size for step in steps
                    for array in (*step.incoming, *step.outgoing, step.grad_before,
                                  step.grad_after)
                    if array is not None and array.values is not None)
        assert 0 < whole <= TRACE_VALUES
        assert any(array is not None and array.summarised and np.prod(array.shape) <= 4096
                   for step in steps for array in step.incoming)  # summaries past it
        assert kernel.run("print('next')\n", "next.py").output == "next\n"


def test_a_list_of_a_million_rows_is_drawn_as_its_first_thousand():
    """``samples = list(torch.randn(1_000_000, 2))`` made every row a node: a minute and
    4.5 GB. A container gives the graph its first 1,000 tensors, and the console says so."""
    from playground.engines.graph_builder import CONTAINER_TENSORS

    with Kernel("numpy", completions=False) as kernel:
        result = kernel.run("import torch\nsamples = list(torch.randn(1_000_000, 2))\n"
                            "print(len(samples))\n", "rows.py")
    assert result.ok and result.output == "1000000\n"
    assert len(result.graph.nodes) == CONTAINER_TENSORS
    assert result.notes == ["samples holds more than 1,000 tensors: the graph shows the "
                            "first 1,000"]
