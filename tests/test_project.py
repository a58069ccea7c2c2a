"""Project-wide checks: lint clean, and the layering of DESIGN.md holds (import-linter)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    beside_python = Path(sys.executable).with_name(name)
    return str(beside_python) if beside_python.exists() else (shutil.which(name) or name)


def test_ruff_reports_nothing():
    result = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_are_kept():
    result = subprocess.run([_tool("lint-imports")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_wheel_ships_the_examples_and_the_icon(tmp_path):
    import zipfile

    import pytest

    pytest.importorskip("setuptools", reason="building without isolation needs setuptools")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                            "--no-build-isolation", "-q", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    examples = {p.name for p in (ROOT / "resources" / "examples").glob("*.py")}
    assert {f"playground/resources/examples/{name}" for name in examples} <= names
    assert "playground/resources/icon.svg" in names
