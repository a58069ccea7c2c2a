"""The window with a live kernel: type, run, see output; errors marked; stop keeps the UI alive."""

from __future__ import annotations

import pytest

from playground.ui.main_window import MainWindow

RUN_TIMEOUT_MS = 30_000


@pytest.fixture
def window(qtbot):
    main = MainWindow()
    qtbot.addWidget(main)
    main.show()
    yield main
    main.close()


def _run(qtbot, window, code: str):
    window.editor.setPlainText(code)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_TIMEOUT_MS) as finished:
        window.run_all()
    return finished.args[0]


def test_typing_and_running_shows_the_output(qtbot, window):
    window.editor.clear()
    qtbot.keyClicks(window.editor, "import torch")
    qtbot.keyClick(window.editor, "\r")
    qtbot.keyClicks(window.editor, "print((torch.ones(2) * 3).sum())")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_TIMEOUT_MS):
        window.run_action.trigger()
    qtbot.waitUntil(lambda: "tensor(6.)" in window.console.toPlainText(), timeout=5000)
    assert window.statusBar().currentMessage().startswith("Done in")


def test_an_exception_marks_its_line_and_shows_the_traceback(qtbot, window):
    result = _run(qtbot, window, "import torch\nx = torch.ones(3)\ny = x @ torch.ones(2)\n")
    assert result.error.line == 3 and window.editor.error_line == 3
    console = window.console.toPlainText()
    assert "Traceback (most recent call last)" in console and "line 3" in console
    assert "(line 3)" in window.statusBar().currentMessage()


def test_stop_ends_an_endless_loop_while_the_window_stays_responsive(qtbot, window):
    ticks = []
    from PySide6.QtCore import QTimer

    timer = QTimer(interval=20, timeout=lambda: ticks.append(1))
    timer.start()
    window.editor.setPlainText("while True:\n    pass\n")
    window.run_all()
    qtbot.wait(600)
    assert window.stop_action.isEnabled() and len(ticks) > 10
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_TIMEOUT_MS) as finished:
        window.stop_action.trigger()
    timer.stop()
    assert finished.args[0].error.kind == "interrupted"
    assert window.run_action.isEnabled()


def test_switching_engine_restarts_the_kernel_and_reruns(qtbot, window):
    window.editor.setPlainText("import torch\nprint(torch.__name__)\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_TIMEOUT_MS):
        window.engine_box.setCurrentIndex(1)
    assert window.runner.kernel.engine == "torch"
    assert window.engine_label.text().startswith("torch ")
    qtbot.waitUntil(lambda: "torch\n" in window.console.toPlainText(), timeout=5000)


def test_opening_a_file_shows_it_and_never_runs_it(qtbot, tmp_path):
    script = tmp_path / "lesson.py"
    script.write_text("raise SystemExit('must not run')\n")
    main = MainWindow(str(script))
    qtbot.addWidget(main)
    assert main.editor.toPlainText() == "raise SystemExit('must not run')\n"
    assert main.windowTitle().startswith("lesson.py")
    qtbot.wait(300)
    assert main.console.toPlainText() == ""
    main.close()
