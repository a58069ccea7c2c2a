"""Fixtures for the layout tests: the layout's C core and its Python twin."""

import pytest

from playground.layout import core


@pytest.fixture(params=["compiled", "python"])
def layout_core(request, monkeypatch):
    """Runs a test on the C core, then on the Python code that stands in when it did not build."""
    if request.param == "python":
        monkeypatch.setattr(core, "compiled", None)
    elif core.compiled is None:
        pytest.skip("the C layout core did not build here (no C compiler at install time)")
    return request.param
