"""Every seed tutorial runs unchanged on npgrad and prints exactly what real torch prints."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import run_printing
from tests.seeds import code_cells, tutorial_files, tutorial_id, uses_matplotlib


def _fixed_randn(module):
    """Same 'random' numbers for both libraries, so whole outputs can be compared."""
    stream = np.random.default_rng(1234)

    def randn(*size, **kwargs):
        if len(size) == 1 and isinstance(size[0], tuple | list):
            size = tuple(size[0])
        values = stream.standard_normal(size).astype(np.float32)
        return module.tensor(values, **kwargs)

    return randn


def _script(path) -> str:
    return "\n".join(cell for cell in code_cells(path) if not uses_matplotlib(cell))


@pytest.mark.parametrize("path", tutorial_files(), ids=tutorial_id)
def test_seed_prints_what_torch_prints(path, torch, engine, monkeypatch):
    script = _script(path)
    monkeypatch.setattr(torch, "randn", _fixed_randn(torch))
    expected = run_printing(script, torch)
    monkeypatch.setattr(engine, "randn", _fixed_randn(engine))
    assert run_printing(script, engine) == expected


@pytest.mark.parametrize("path", tutorial_files(), ids=tutorial_id)
def test_seed_runs_with_the_engines_own_random_numbers(path, engine):
    output = run_printing(_script(path), engine)
    assert "tensor(" in output
