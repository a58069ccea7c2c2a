"""The window-kernel protocol: every message declared once, checked as it is read, and each
one handled where it arrives."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from playground.kernel import child, protocol

KERNEL = Path(protocol.__file__).parent

SAMPLES = [
    protocol.Run("print(1)\n", "<script>", True, "m" * 16, False, "abc"),
    protocol.Complete("torch.", 1, 6, "r1"),
    protocol.Interrupt("abc"),
    protocol.Shutdown(),
    protocol.Ready("numpy", "NumPy engine", 42, False, ["<b>", "<e>"]),
    protocol.Failed("no torch"),
    protocol.Result("abc", {"engine": "numpy"}),
    protocol.State("abc", False, ["sympy"]),
    protocol.Traces("abc", {"schema": "autograd-playground/trace", "version": 1, "traces": []}),
    protocol.Pictures("abc", [], ["Figure 1 is shown at a lower resolution"],
                      ["Figure 2 could not be drawn (at line 8): ValueError: no\n"], False),
    protocol.Vectors("abc", [[1, None, "with 400 axes its SVG would take long to make"]]),
    protocol.Completions("r1", [["tensor", "function"]]),
    protocol.Ending("memory"),
]


def test_every_declared_message_has_a_sample_and_a_table():
    declared = set(protocol.Message.__subclasses__())
    assert {type(sample) for sample in SAMPLES} | {protocol.Broken} == declared
    assert set(protocol.REQUESTS.values()) | set(protocol.REPLIES.values()) | {
        protocol.Broken} == declared
    assert len({kind.OP for kind in declared}) == len(declared)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda sample: sample.OP)
def test_each_message_reads_back_as_itself(sample):
    table = protocol.REQUESTS if sample.OP in protocol.REQUESTS else protocol.REPLIES
    assert protocol.read(sample.to_wire(), table) == sample
    assert set(sample.to_wire()) == {"op"} | {item.name for item in fields(sample)}


@pytest.mark.parametrize("frame, words", [
    ([1, 2], "not a message"),
    ({"op": "run"}, "without its 'code'"),
    ({"op": "launch"}, "unknown kind 'launch'"),
    ({"op": "interrupt", "id": 5}, "'id' is int"),
    ({"op": "complete", "code": "x", "line": True, "column": 0, "id": "r"}, "'line' is bool"),
    ({"op": "result", "id": "abc", "result": "forged"}, "'result' is str"),
])
def test_what_is_not_a_message_is_refused_in_words(frame, words):
    with pytest.raises(protocol.ProtocolError, match=re.escape(words)):
        protocol.read(frame, {**protocol.REQUESTS, **protocol.REPLIES})


def test_a_reply_is_not_taken_for_a_request_nor_the_reverse():
    with pytest.raises(protocol.ProtocolError):
        protocol.read(protocol.Failed("x").to_wire(), protocol.REQUESTS)
    with pytest.raises(protocol.ProtocolError):
        protocol.read(protocol.Shutdown().to_wire(), protocol.REPLIES)


def test_the_kernel_answers_every_request_the_protocol_declares():
    handled_elsewhere = {protocol.Interrupt, protocol.Shutdown}  # the channel's; the loop's end
    assert set(child.ANSWERS) | handled_elsewhere == set(protocol.REQUESTS.values())


def test_the_window_reads_every_reply_the_protocol_declares():
    client = "".join((KERNEL / name).read_text()
                     for name in ("client.py", "later_inbox.py", "start_errors.py"))
    for kind in protocol.REPLIES.values():
        assert f"protocol.{kind.__name__}" in client, kind.__name__


@pytest.mark.parametrize("name", ["client.py", "child.py", "channel.py", "figure_frames.py",
                                  "later_inbox.py"])
def test_no_message_is_built_or_read_by_hand(name):
    assert '"op"' not in (KERNEL / name).read_text()
