"""What the first window imports before it paints, listed: start-up time is mostly imports,
so a new one (torch, matplotlib, the NumPy engine in the window process...) shows up here.

``benchmarks/startup.py`` measures the time; this test keeps the list.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from benchmarks.startup import PROBE  # the benchmark's own start, which lists the modules too

# Libraries the window may have imported by its first paint (besides the standard library).
# pyqtgraph is imported on a thread meanwhile (ui/panes.py), so it may or may not be there.
ALLOWED_LIBRARIES = {"PySide6", "shiboken6", "shibokensupport", "signature_bootstrap",
                     "numpy", "pygments", "psutil", "colorama", "pyqtgraph", "playground"}
# Never in the window process at start: the kernel runs code, the window only shows results.
NEVER = {"torch", "matplotlib", "scipy", "jedi", "nbformat", "PIL", "playground.npgrad",
         "playground.engines.numpy_engine", "playground.engines.torch_engine",
         "playground.kernel.child"}


def _modules_at_first_paint(tmp_path) -> list[str]:
    environment = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
                       XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    answer = subprocess.run([sys.executable, "-c", PROBE.format(spawn=0)], capture_output=True,
                            text=True, timeout=120, env=environment, cwd=tmp_path)
    assert answer.returncode == 0, answer.stderr
    return json.loads(answer.stdout.strip().splitlines()[-1])["modules"]


def test_the_first_window_imports_only_what_it_shows(tmp_path):
    modules = _modules_at_first_paint(tmp_path)
    libraries = {name.split(".")[0] for name in modules if not name.startswith("_")}
    assert libraries - sys.stdlib_module_names - ALLOWED_LIBRARIES == set()
    imported = set(modules)
    assert {name for name in NEVER if name in imported} == set()
    assert "playground.ui.main_window" in imported and "numpy" in imported
    assert "psutil" not in imported  # (12-15 ms: the memory limit asks the OS)
    assert "_hashlib" not in imported  # (10 ms: OpenSSL, which hashlib, hmac, secrets load)


def test_what_the_window_uses_without_qt_is_imported_before_qt(tmp_path):
    """PySide6's import hook reads the source of every module imported after it (ui/__init__
    imports numpy and the app's own plain modules first: some 30 ms of the start)."""
    modules = _modules_at_first_paint(tmp_path)
    qt = modules.index("PySide6")
    for name in ("numpy", "numpy.linalg", "pygments.lexers.python", "playground.kernel.client",
                 "playground.model.view_state", "playground.layout.layered"):
        assert modules.index(name) < qt, name
