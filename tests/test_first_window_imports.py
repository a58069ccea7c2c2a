"""What the first window imports before it paints, listed: start-up time is mostly imports,
so a new one (torch, matplotlib, the NumPy engine in the window process...) shows up here.

``benchmarks/startup.py`` measures the time; this test keeps the list.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

# Libraries the window may have imported by its first paint (besides the standard library).
# pyqtgraph is imported on a thread meanwhile (ui/panes.py), so it may or may not be there.
ALLOWED_LIBRARIES = {"PySide6", "shiboken6", "shibokensupport", "signature_bootstrap",
                     "numpy", "pygments", "psutil", "colorama", "pyqtgraph", "playground"}
# Never in the window process at start: the kernel runs code, the window only shows results.
NEVER = {"torch", "matplotlib", "scipy", "jedi", "nbformat", "PIL", "playground.npgrad",
         "playground.engines.numpy_engine", "playground.engines.torch_engine",
         "playground.kernel.child"}

PROBE = """
import json, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from playground.ui.app import make_application
from playground.ui.main_window import MainWindow
application = make_application()
window = MainWindow()
seen = []

class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and not seen:
            seen.append(sorted(sys.modules))
            QTimer.singleShot(0, application.quit)
        return False

watcher = FirstPaint()
window.editor.viewport().installEventFilter(watcher)
window.show()
application.exec()
window.editor.document().setModified(False)
print(json.dumps(seen[0]))
"""


def _modules_at_first_paint(tmp_path) -> list[str]:
    environment = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=str(tmp_path),
                       XDG_CONFIG_HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path))
    answer = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                            timeout=120, env=environment, cwd=tmp_path)
    assert answer.returncode == 0, answer.stderr
    return json.loads(answer.stdout.strip().splitlines()[-1])


def test_the_first_window_imports_only_what_it_shows(tmp_path):
    modules = _modules_at_first_paint(tmp_path)
    libraries = {name.split(".")[0] for name in modules if not name.startswith("_")}
    assert libraries - sys.stdlib_module_names - ALLOWED_LIBRARIES == set()
    imported = set(modules)
    assert {name for name in NEVER if name in imported} == set()
    assert "playground.ui.main_window" in imported and "numpy" in imported
