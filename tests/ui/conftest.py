"""Qt tests run offscreen, and a modal dialog a test did not expect fails instead of hanging."""

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch):
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    def refuse(*args, **kwargs):
        raise AssertionError("a modal dialog opened during a test")

    for name in ("question", "information", "warning", "critical", "about"):
        monkeypatch.setattr(QMessageBox, name, refuse)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", refuse)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", refuse)


@pytest.fixture(autouse=True)
def quiet_window_questions(monkeypatch):
    """Windows closing at teardown discard their text unless a test says otherwise."""
    from playground.ui.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "ask_unsaved", lambda self: "discard")
    monkeypatch.setattr(MainWindow, "ask_restore", lambda self, saved: "discard")
