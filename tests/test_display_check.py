"""Where Qt cannot open a window, the app says why in one paragraph and exits 1 (never an
abort with Qt's generic text)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from playground.display_check import display_problem


def _refuse(library: str):
    def load(_path: str):
        raise OSError(f"{library}: cannot open shared object file: No such file or directory")
    return load


def test_no_display_names_the_cause_and_the_ways_without_one():
    problem = display_problem({}, "linux", _refuse("never asked"))
    assert problem.startswith("Autograd Playground cannot open its window: there is no display")
    assert "QT_QPA_PLATFORM=offscreen" in problem and "playground run" in problem


def test_a_missing_x11_library_names_its_package():
    problem = display_problem({"DISPLAY": ":0"}, "linux", _refuse("libxcb-cursor.so.0"))
    assert "needs libxcb-cursor.so.0, which is not installed" in problem
    assert "`sudo apt install libxcb-cursor0`" in problem


@pytest.mark.parametrize("environ, platform", [
    ({"DISPLAY": ":0"}, "linux"),                                # everything loads
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux"),                 # the user's choice
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux"),                 # Qt's Wayland plugin
    ({}, "win32"), ({}, "darwin")])                              # always a screen
def test_nothing_is_said_where_qt_can_open_the_window(environ, platform):
    assert display_problem(environ, platform, lambda _path: None) is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="DISPLAY is X11's")
def test_the_window_command_without_a_display_exits_1_with_the_paragraph():
    environ = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    for command in ([], ["--screenshot", "out.png"]):
        done = subprocess.run([sys.executable, "-m", "playground", *command], env=environ,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith("Autograd Playground cannot open its window")
        assert len(done.stderr.strip().splitlines()) == 1
