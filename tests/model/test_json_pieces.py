"""JSON decoded a piece at a time gives json.loads's values and errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from playground.model.json_pieces import loads_in_pieces

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children,
                                                                     max_size=4),
    max_leaves=20)


@given(VALUES, st.integers(0, 4), st.sampled_from([None, 1, 2]))
def test_values_are_json_loads_values(value, depth, indent):
    text = json.dumps(value, indent=indent)
    assert loads_in_pieces(text, depth) == json.loads(text)


@pytest.mark.parametrize("text", [
    "", "   ", "[", "[1,", "[1,]", "[1 2]", "{", '{"a":', '{"a":1,}', '{"a" 1}', "{1: 2}",
    "[1, 2] x", "nul", '{"a": [1, {"b": }]}', '{"cells": [{"source": ["a", ]}]}',
])
def test_errors_are_json_loads_errors(text):
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as given_error:
        loads_in_pieces(text)
    assert (given_error.value.msg, given_error.value.pos) == (expected.value.msg,
                                                              expected.value.pos)


def test_special_numbers_and_repeated_keys_as_json_loads():
    text = '{"a": [NaN, Infinity, -Infinity, 1e400], "a": {"b": [1, 2]}, "c": "\\u00e9"}'
    assert repr(loads_in_pieces(text)) == repr(json.loads(text))
