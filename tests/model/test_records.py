"""The model records that cross the kernel's wire: their JSON keys are their fields, and a
field added to a record but not to its JSON or its decoder fails here."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields

import numpy as np
import pytest

from playground.kernel import wire
from playground.model import Graph, RunResult
from playground.model.arrays import ArrayData, PointDensity, json_keys
from playground.model.graph import GraphEdge, GraphNode
from playground.model.run_result import reply_hook
from playground.model.trace import BackwardStep


def _array(*values: float) -> ArrayData:
    return ArrayData.from_array(np.array(values, np.float32), "torch.float32")


# One record of each kind, every field set to something other than its default: a new field
# must be given a value here, and then the checks below hold its JSON and decoder to it.
SAMPLES = {
    ArrayData: _array(1.0, 2.5, -3.0),
    GraphNode: GraphNode(
        "n1", "leaf", "x", names=["x", "w"], shape=(3,), dtype="torch.float32", device="cpu",
        requires_grad=True, is_leaf=True, value=_array(1.0, 2.0, 3.0), grad=_array(0.5, 0.5, 1),
        saved={"self": _array(4.0)}, rule="MulBackward0: grad * other",
        density=PointDensity(np.ones((2, 2), np.int64), (0.0, 1.0), (-1.0, 1.0), 4, 1),
        module="model.fc", line=7, expression="w3 * b"),
    GraphEdge: GraphEdge("n1", "n2", "next", 1),
    BackwardStep: BackwardStep("n2", "MulBackward0", [_array(1.0)], [_array(2.0), None],
                               _array(0.0), _array(2.0)),
}


def _comparable(record) -> str:
    return json.dumps(record.to_json(), sort_keys=True)


@pytest.mark.parametrize("record", SAMPLES, ids=lambda record: record.__name__)
def test_the_sample_sets_every_field(record):
    sample = SAMPLES[record]
    for item in fields(record):
        default = item.default_factory() if item.default_factory is not MISSING else item.default
        assert default is MISSING or getattr(sample, item.name) != default, item.name


@pytest.mark.parametrize("record", SAMPLES, ids=lambda record: record.__name__)
def test_json_keys_are_the_records_fields(record):
    assert set(SAMPLES[record].to_json()) == set(json_keys(record))


@pytest.mark.parametrize("record", SAMPLES, ids=lambda record: record.__name__)
def test_a_record_reads_back_whole_from_json_and_from_the_wire(record):
    sample = SAMPLES[record]
    assert _comparable(record.from_json(json.loads(json.dumps(sample.to_json())))) == \
        _comparable(sample)
    decoded = wire.decode(wire.encode({"record": sample.to_json(raw=True)}),
                          convert=reply_hook)["record"]
    assert _comparable(record.from_json(decoded)) == _comparable(sample)


@pytest.mark.parametrize("record", SAMPLES, ids=lambda record: record.__name__)
def test_on_the_wire_a_record_is_its_fields_values_in_order(record):
    """The wire's compact form: {tag: [a value per field]}, read back with or without the
    reply decoder's hook; a list of another length is refused."""
    sample = SAMPLES[record]
    wired = sample.to_json(raw=True)
    assert list(wired) == [record.WIRE_TAG] and len(wired[record.WIRE_TAG]) == \
        len(json_keys(record))
    plain = wire.decode(wire.encode({"record": wired}))["record"]  # (no hook: a dict)
    assert _comparable(record.from_json(plain)) == _comparable(sample)
    with pytest.raises(ValueError):
        record.from_json({record.WIRE_TAG: wired[record.WIRE_TAG][:-1]})


def test_the_reply_decoder_makes_records_while_reading():
    node = SAMPLES[GraphNode]
    result = RunResult("numpy", graph=Graph([node], [SAMPLES[GraphEdge]]))
    decoded = json.loads(json.dumps(result.to_json()), object_hook=reply_hook)
    assert isinstance(decoded["graph"]["nodes"][0], GraphNode)
    assert isinstance(decoded["graph"]["edges"][0], GraphEdge)
    assert _comparable(RunResult.from_json(decoded).graph.nodes[0]) == _comparable(node)


def test_a_run_result_names_its_schema_and_refuses_another():
    data = RunResult("numpy", output="hi\n").to_json()
    assert (data["schema"], data["version"]) == ("autograd-playground/run-result", 1)
    assert RunResult.from_json(data).output == "hi\n"
    with pytest.raises(ValueError, match="run result"):
        RunResult.from_json({**data, "version": 2})
