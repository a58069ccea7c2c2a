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


MODULE_LINES = 500  # a module a newcomer reads in one sitting


def test_no_module_is_longer_than_a_sitting():
    long = {str(path.relative_to(ROOT)): count for path in (ROOT / "playground").rglob("*.py")
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert long == {}


def test_the_window_composes_parts_and_inherits_from_qt_alone():
    """No mixins: each part of the window is an object of its own module (CONTRIBUTING.md)."""
    from playground.ui.main_window import MainWindow

    sources = "".join(path.read_text(encoding="utf-8")
                      for path in (ROOT / "playground").rglob("*.py"))
    assert "Mixin" not in sources
    assert [base.__name__ for base in MainWindow.__bases__] == ["QMainWindow"]
