"""The window tests drive, made as a person meets it, and a run waited for."""

from __future__ import annotations

from pathlib import Path

RUN_MS = 60_000


def make_window(folder: Path):
    """A window with its settings and recovery files in ``folder``, shown at 1400x860."""
    from playground.ui.main_window import MainWindow
    from playground.ui.recovery import RecoveryStore
    from playground.ui.settings import Settings

    made = MainWindow(settings=Settings(folder / "settings.json"),
                      recovery=RecoveryStore(folder / "recovery.json"))
    made.resize(1400, 860)
    made.show()
    return made


def ran(qtbot, window, code: str | None = None):
    """Run all (the action Ctrl+Enter triggers) and return its RunResult; ``code`` replaces
    the editor's text first."""
    if code is not None:
        window.editor.setPlainText(code)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        window.runs.run_all()
    return finished.args[0]
