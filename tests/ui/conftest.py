"""The window a person meets: 1400x860, shown, active, its kernel started (journey tests)."""

from __future__ import annotations

import pytest

from playground.ui.files import RecoveryStore
from playground.ui.main_window import MainWindow
from playground.ui.settings import Settings

RUN_MS = 60_000


@pytest.fixture
def window(qtbot, tmp_path):
    made = MainWindow(settings=Settings(tmp_path / "settings.json"),
                      recovery=RecoveryStore(tmp_path / "recovery.json"))
    qtbot.addWidget(made)
    made.resize(1400, 860)
    made.show()
    qtbot.waitExposed(made)
    made.activateWindow()
    qtbot.waitUntil(lambda: not made.runner.is_starting, timeout=RUN_MS)
    return made
