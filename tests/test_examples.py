"""The shipped examples run on both engines and print the same (object addresses aside)."""

from __future__ import annotations

from pathlib import Path

import pytest

import playground.npgrad as npgrad
from tests.oracle import run_printing

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "resources" / "examples").glob("*.py"))


def test_there_are_examples_for_each_lesson():
    assert [p.stem[:2] for p in EXAMPLES] == ["01", "02", "03", "04", "05", "06", "07", "08"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_prints_the_same_on_both_engines(path):
    import torch

    code = path.read_text()
    printed = run_printing(code, npgrad)
    assert printed == run_printing(code, torch) and printed.strip()
