"""Fixtures for the layout tests: the layout's C core and its Python twin."""

import pytest

from playground.layout import core
from tests.compiled import PARAMS, compiled_then_twin


@pytest.fixture(params=PARAMS)
def layout_core(request, monkeypatch):
    """Runs a test on the C core, then on the Python code that stands in when it did not build."""
    return compiled_then_twin(request, monkeypatch, core, "compiled", "the C layout core")
