"""Every test keeps its settings, recovery and cache files away from the user's own, Qt runs
offscreen, and a modal dialog a test did not expect fails it instead of hanging it."""

import os
import tempfile

import pytest

from tests.windows import RUN_MS, make_window

# Read by Qt for a window's settings and data folders, and by the subprocesses tests start.
_HOME = tempfile.mkdtemp(prefix="playground-tests-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_HOME, "config")
os.environ["XDG_DATA_HOME"] = os.path.join(_HOME, "data")
os.environ["XDG_CACHE_HOME"] = os.path.join(_HOME, "cache")  # jedi's, among others
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    try:
        from PySide6.QtWidgets import QFileDialog, QMessageBox
    except ImportError:  # no Qt here: nothing can ask
        return

    def refuse(*args, **kwargs):
        raise AssertionError("a modal dialog opened during a test")

    for name in ("question", "information", "warning", "critical", "about"):
        monkeypatch.setattr(QMessageBox, name, refuse)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", refuse)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", refuse)


@pytest.fixture(autouse=True)
def quiet_window_questions(monkeypatch, no_modal_dialogs):
    """Windows closing at teardown discard their text unless a test says otherwise."""
    try:
        from playground.ui.document import Document
    except ImportError:
        return
    monkeypatch.setattr(Document, "ask_unsaved", lambda self: "discard")
    monkeypatch.setattr(Document, "ask_restore", lambda self, saved: "discard")


@pytest.fixture(autouse=True)
def no_view_fails():
    """A view's handler that raises fails the test (the window also says so on screen)."""
    try:
        from playground.model import view_state
    except ImportError:
        yield
        return
    before = len(view_state.FAILURES)
    yield
    new = view_state.FAILURES[before:] if len(view_state.FAILURES) >= before else \
        view_state.FAILURES
    view_state.FAILURES.clear()
    assert not new, "a view's handler raised: " + "; ".join(new)


@pytest.fixture(scope="session")
def torch():
    """Real torch, the oracle (one thread: the tests run beside each other's processes)."""
    import torch as real

    real.set_num_threads(1)
    return real


@pytest.fixture
def engine():
    """The engine under test, as the module user code gets for ``torch``."""
    import playground.npgrad as npgrad

    return npgrad


@pytest.fixture
def window(qtbot, tmp_path):
    """The window a person meets: 1400x860, shown, active, its kernel started."""
    made = make_window(tmp_path)
    qtbot.addWidget(made)
    qtbot.waitExposed(made)
    made.activateWindow()
    qtbot.waitUntil(lambda: not made.runner.is_starting, timeout=RUN_MS)
    return made
