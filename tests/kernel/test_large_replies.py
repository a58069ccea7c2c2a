"""A large result decoded in the window: its peak memory stays near the frame's size."""

from __future__ import annotations

import tracemalloc

import numpy as np

from playground.kernel import wire
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


def test_decoding_a_large_result_peaks_near_three_times_its_frame():
    result = large_result(20_000)
    frame = wire.encode({"op": "result", "id": "r1", "result": result.to_json(raw=True)})
    tracemalloc.start()
    try:
        message = wire.decode(frame, reply_hook)
        decoded = RunResult.from_json(message["result"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the header's text, then dicts, then model objects: 5.4 times the frame at the peak;
    # now the text and the model objects (made as the dicts are read)
    assert peak < 3.5 * len(frame), (peak, len(frame))
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
