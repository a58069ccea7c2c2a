"""The tutorial corpus (issue 23): snippets in the style of public autograd teaching material,
each run by ``playground run`` on both engines and compared with what real torch printed.

``tests/corpus/NN_name.py`` is the snippet, ``NN_name.expected.json`` the stdout, stderr and
exit status of plain ``python NN_name.py`` with real torch (``tests/corpus/record.py`` records
them). On ``--engine torch`` every snippet must give them byte for byte. On ``--engine numpy``
too, except where the snippet's header says ``# tolerance: 1e-6`` (relative, with its reason):
there the numbers are compared one by one within it and the rest of the text exactly. The
snippets that need what the NumPy engine lacks today are listed in ``MISSING``: they are
expected to fail, strictly, so an entry must go as soon as its feature lands.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
SNIPPETS = sorted(CORPUS.glob("[0-9][0-9]_*.py"))
ENVIRONMENT = {**os.environ, "PYTHONHASHSEED": "0"}

# What each snippet needs that the NumPy engine does not do yet (or does differently).
MISSING: dict[str, str] = {}

_TOLERANCE = re.compile(r"^#\s*tolerance:\s*([0-9.eE+-]+)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)")


def header_tolerance(path: Path) -> float | None:
    """The relative tolerance a snippet's leading comment block states, if any."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        match = _TOLERANCE.match(line)
        if match:
            return float(match.group(1))
    return None


def expected(path: Path) -> dict:
    return json.loads(path.with_name(path.stem + ".expected.json").read_text(encoding="utf-8"))


def run(path: Path, engine: str) -> dict:
    done = subprocess.run([sys.executable, "-m", "playground", "run", "--engine", engine,
                           path.name], cwd=CORPUS, env=ENVIRONMENT, capture_output=True,
                          text=True, timeout=120)
    return {"stdout": done.stdout, "stderr": done.stderr, "status": done.returncode}


def same_within(expected_text: str, actual_text: str, tolerance: float) -> bool:
    """The same text but for numbers, which may differ by ``tolerance`` (relative)."""
    expected_parts = _NUMBER.split(expected_text)
    actual_parts = _NUMBER.split(actual_text)
    if expected_parts != actual_parts:
        return False
    for want, got in zip(_NUMBER.findall(expected_text), _NUMBER.findall(actual_text),
                         strict=True):
        if want == got:
            continue
        a, b = float(want), float(got)
        if not (math.isclose(a, b, rel_tol=tolerance) or (math.isnan(a) and math.isnan(b))):
            return False
    return True


def test_the_corpus_is_complete():
    assert len(SNIPPETS) >= 40
    for path in SNIPPETS:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# In the style of: "), path.name
        assert path.with_name(path.stem + ".expected.json").is_file(), path.name
    names = {path.name for path in SNIPPETS}
    assert set(MISSING) <= names, set(MISSING) - names
    statuses = [expected(path)["status"] for path in SNIPPETS]
    assert 1 <= statuses.count(1) <= 3 and set(statuses) == {0, 1}


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda path: path.stem)
def test_torch_engine_prints_what_python_does(path):
    assert run(path, "torch") == expected(path)


def _numpy_cases():
    for path in SNIPPETS:
        marks = ()
        if path.name in MISSING:
            marks = pytest.mark.xfail(strict=True, reason=MISSING[path.name])
        yield pytest.param(path, marks=marks, id=path.stem)


@pytest.mark.parametrize("path", list(_numpy_cases()))
def test_numpy_engine_prints_what_torch_does(path):
    want = expected(path)
    got = run(path, "numpy")
    tolerance = header_tolerance(path)
    if tolerance is None:
        assert got == want
        return
    assert got["status"] == want["status"], got["stderr"][-2000:]
    for stream in ("stdout", "stderr"):
        assert same_within(want[stream], got[stream], tolerance), (stream, want[stream],
                                                                   got[stream])
