"""The model is plain data: its JSON forms round-trip and refuse what they do not know."""

from __future__ import annotations

import base64
import json
import math

import numpy as np
import pytest

from playground.model import ArrayData, Graph, GraphEdge, GraphNode, RunError, RunResult
from playground.model.figure import MAX_PNG_BYTES, DrawnFigures, Figure, png_size
from playground.model.graph import GraphModule, ModuleWeight
from playground.model.trace import BackwardStep, BackwardTrace
from playground.model.view_state import ViewState


def test_array_data_keeps_small_arrays_and_summarises_big_ones():
    small = ArrayData.from_array(np.array([[1.0, -2.0]]), "torch.float32")
    assert small.values.tolist() == [[1.0, -2.0]] and not small.summarised
    big = ArrayData.from_array(np.arange(5000.0), "torch.float64")
    assert big.summarised and big.preview[:2] == [0.0, 1.0]
    assert (big.minimum, big.maximum, big.mean) == (0.0, 4999.0, 2499.5)
    # a whole array's statistics are its values' (worked out when asked, and in a file)
    assert small.minimum is None and small.statistics() == (-2.0, 1.0, -0.5)
    assert small.to_json()["min"] == -2.0
    assert small.to_json(raw=True)[ArrayData.WIRE_TAG][4] is None  # (the wire's min)
    spiky = ArrayData.from_array(np.array([np.nan, 3.0, -np.inf, 1.0] * 3000), "torch.float64")
    assert spiky.summarised and (spiky.minimum, spiky.maximum, spiky.mean) == (1.0, 3.0, 2.0)


def test_inf_and_nan_survive_json():
    data = ArrayData.from_array(np.array([1.0, math.inf, -math.inf, math.nan]), "torch.float32")
    text = json.dumps(data.to_json())
    back = ArrayData.from_json(json.loads(text))
    assert back.values[0] == 1.0 and back.values[1] == math.inf and math.isnan(back.values[3])


def test_complex_values_survive_json():
    data = ArrayData.from_array(np.array([1 + 2j, complex(math.inf, -1)]), "torch.complex64")
    text = json.dumps(data.to_json())
    assert json.loads(text)["values"][0] == {"real": 1.0, "imag": 2.0}
    back = ArrayData.from_json(json.loads(text))
    assert back.values.tolist() == [1 + 2j, complex(math.inf, -1)]


def test_graph_json_is_versioned():
    graph = Graph([GraphNode("n0", "leaf", "x", ["x"], (2,), "torch.float32", "cpu", True, True),
                   GraphNode("n1", "accumulate", "AccumulateGrad")],
                  [GraphEdge("n1", "n0", "accumulate")])
    data = graph.to_json()
    assert data["schema"] == "autograd-playground/graph" and data["version"] == 3
    assert Graph.from_json(data) == graph
    # a version 1 file (before modules and lines) still reads, as a graph with none
    old = dict(data, version=1)
    del old["modules"], old["file"]
    for node in old["nodes"]:
        del node["module"], node["line"], node["expression"]
    assert Graph.from_json(json.loads(json.dumps(old))) == graph
    with pytest.raises(ValueError, match="version 99 is not supported"):
        Graph.from_json(dict(data, version=99))
    with pytest.raises(ValueError, match="not an Autograd Playground graph"):
        Graph.from_json({"nodes": []})


def test_graph_json_keeps_lines_and_expressions():
    graph = Graph([GraphNode("n0", "function", "MulBackward0", line=7, expression="w3 * b")],
                  [], file="chain_rule.py")
    data = json.loads(json.dumps(graph.to_json()))
    assert data["file"] == "chain_rule.py"
    assert (data["nodes"][0]["line"], data["nodes"][0]["expression"]) == (7, "w3 * b")
    assert Graph.from_json(data) == graph


def test_graph_json_keeps_modules():
    graph = Graph([GraphNode("n0", "leaf", "model.fc.weight", ["model.fc.weight"], (3, 2),
                             module="model.fc"),
                   GraphNode("n1", "function", "AddmmBackward0", module="model.fc")], [],
                  {"model": GraphModule("Net", 8, ((4, 2),), ((4, 3),)),
                   "model.fc": GraphModule("Linear", 8, ((4, 2),), ((4, 3),),
                                           (ModuleWeight("weight", (3, 2), 0.5),
                                            ModuleWeight("bias", (3,), None)))})
    data = json.loads(json.dumps(graph.to_json()))
    assert data["nodes"][1]["module"] == "model.fc"
    assert data["modules"]["model.fc"] == {
        "class": "Linear", "parameters": 8, "inputs": [[4, 2]], "outputs": [[4, 3]],
        "weights": [{"name": "weight", "shape": [3, 2], "grad_norm": 0.5},
                    {"name": "bias", "shape": [3], "grad_norm": None}]}
    assert Graph.from_json(data) == graph


def test_dot_export_nests_the_modules_as_clusters():
    graph = Graph([GraphNode("n0", "function", "SumBackward0", module="model"),
                   GraphNode("n1", "function", "AddmmBackward0", module="model.fc"),
                   GraphNode("n2", "function", "MulBackward0")],
                  [GraphEdge("n0", "n1", "next")],
                  {"model": GraphModule("Net"), "model.fc": GraphModule("Linear")})
    lines = [line.strip() for line in graph.to_dot().splitlines()]
    outer = lines.index('subgraph "cluster_model" {')
    inner = lines.index('subgraph "cluster_model.fc" {')
    assert lines[outer + 1].startswith('label="model · Net"')
    assert lines[inner + 1].startswith('label="model.fc · Linear"')
    assert outer < lines.index(next(x for x in lines if x.startswith("n0 ["))) < inner
    assert inner < lines.index(next(x for x in lines if x.startswith("n1 [")))
    assert lines.index(next(x for x in lines if x.startswith("n2 ["))) < outer  # outside


def test_run_result_round_trips():
    step = BackwardStep("n1", "MulBackward0",
                        [ArrayData.from_array(np.ones(2), "torch.float32")], [None])
    result = RunResult("numpy", "hello\n", False, RunError("exception", "ValueError: x (line 2).",
                                                           "ValueError", "Traceback ...", 2),
                       Graph(), [BackwardTrace("backward", ["n1"], [step])],
                       figures=[Figure(2, _png(3, 2), b"<svg/>", 2.0, "loss")], elapsed=0.25)
    back = RunResult.from_json(json.loads(json.dumps(result.to_json())))
    assert back.error == result.error and back.output == "hello\n" and not back.ok
    assert back.elapsed == 0.25 and back.figures[0].number == 2
    figure = back.figures[0]
    assert (figure.png, figure.svg, figure.scale, figure.label) == (_png(3, 2), b"<svg/>", 2.0,
                                                                    "loss")
    assert figure.pixel_size == (3, 2) and figure.title == "Figure 2 · loss"
    assert back.traces[0].steps[0].incoming[0].values.tolist() == [1.0, 1.0]


def _png(width: int, height: int) -> bytes:
    """A real PNG of that size (a grey image), written by zlib and struct alone."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0,
                                                                 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_figures_from_the_kernel_are_checked_before_anything_reads_them():
    """A figure's bytes are untrusted: not a PNG, a header claiming 10^10 pixels, a bad
    array or too many bytes are refused; on the wire they travel as a uint8 array."""
    good = Figure(1, _png(4, 3))
    raw = good.to_json(raw=True)
    assert raw["png"].dtype == np.uint8 and Figure.from_json(raw).png == good.png
    assert png_size(good.png) == (4, 3)
    forged = bytearray(good.png)
    forged[16:24] = (100_000).to_bytes(4, "big") * 2
    for png in (b"GIF89a" + bytes(30), bytes(forged)):
        with pytest.raises(ValueError, match="not a PNG|pixels"):
            Figure.from_json({**good.to_json(), "png": base64.b64encode(png).decode()})
    with pytest.raises(ValueError):
        Figure.from_json({**raw, "png": np.zeros((2, 2), np.uint8)})
    with pytest.raises(ValueError):
        Figure.from_json({**raw, "png": np.zeros(MAX_PNG_BYTES + 1, np.uint8)})
    assert Figure.from_json({**raw, "scale": float("nan")}).scale == 1.0


def test_figures_drawn_after_the_result_replace_the_last_runs_when_they_come():
    """A run whose figures are still being drawn leaves the last run's on screen; they are
    replaced when its own come (a forged or a stranger run's are refused), the next cell's
    are added, figures that overtook their result wait for it, a restart ends the wait."""
    state = ViewState()
    seen = []
    state.events.figures.connect(lambda figures: seen.append([f.number for f in figures]))
    old = RunResult("numpy", figures=[Figure(1, _png(4, 3)), Figure(2, _png(4, 3))])
    state.show_result(old)
    state.show_result(RunResult("numpy", figures_due=1, run="a"), where="cell 1")
    assert [f.number for f in state.figures] == [1, 2] and state.figures_coming
    state.add_pictures(DrawnFigures("stranger", [Figure(9, _png(4, 3))], [], []))
    forged = {**Figure(1, _png(4, 3)).to_json(raw=True), "png": np.zeros(3, np.uint8)}
    state.add_pictures(DrawnFigures.from_wire("a", [Figure(1, _png(5, 3)).to_json(raw=True),
                                                    forged], [], [], False))
    assert [(f.number, f.where, f.run) for f in state.figures] == [(1, "cell 1", "a")]
    assert seen == [[1]] and not state.figures_coming
    state.add_pictures(DrawnFigures("b", [Figure(1, _png(6, 3))], [], []))  # before its result
    state.show_result(RunResult("numpy", figures_due=1, run="b"), where="cell 2",
                      continues=True)
    assert [f.where for f in state.figures] == ["cell 1", "cell 2"]
    state.show_result(RunResult("numpy", figures_due=2, run="c"))
    state.figures_lost()
    assert state.figures == [] and not state.figures_coming and seen[-1] == []


def test_integer_and_bool_previews_keep_their_type_through_json():
    from playground.model.arrays import format_number

    labels = ArrayData.from_array(np.array([1, 0, 2, 2]), "torch.int64")
    mask = ArrayData.from_array(np.array([True, False]), "torch.bool")
    floats = ArrayData.from_array(np.array([1.0, 0.25], np.float32), "torch.float32")
    for array, shown in ((labels, ["1", "0", "2", "2"]), (mask, ["True", "False"]),
                         (floats, ["1.0", "0.25"])):
        again = ArrayData.from_json(json.loads(json.dumps(array.to_json())))
        assert [format_number(v) for v in again.preview] == shown


def test_complex_values_read_as_numbers_on_a_node():
    """A complex tensor's node shows its first values (a+bj), through the JSON it goes by."""
    from playground.model.arrays import format_number
    from playground.ui.formatting import short_values

    values = np.array([1 + 2j, -0.5 - 0.25j, complex(3, -0.0), 4j], np.complex64)
    array = ArrayData.from_json(json.loads(json.dumps(
        ArrayData.from_array(values, "torch.complex64").to_json())))
    assert short_values(array) == "[1.0+2.0j, -0.5-0.25j, 3.0-0.0j, …]"
    assert format_number(complex(0.125, 1e7)) == "0.125+1e+07j"
