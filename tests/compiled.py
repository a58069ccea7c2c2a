"""A test run on the project's C code, then on the pure-Python twin that stands in for it where
no compiler was found at install time."""

from __future__ import annotations

import pytest

PARAMS = ["compiled", "twin"]


def compiled_then_twin(request, monkeypatch, module, attribute: str, what: str) -> str:
    """For a fixture whose params are PARAMS: for "twin", ``module.attribute`` (the loaded C
    code) is None during the test, so the twin runs; "compiled" is skipped where ``what`` did
    not build here."""
    if request.param == "twin":
        monkeypatch.setattr(module, attribute, None)
    elif getattr(module, attribute) is None:
        pytest.skip(f"{what} did not build here (no C compiler at install time)")
    return request.param
