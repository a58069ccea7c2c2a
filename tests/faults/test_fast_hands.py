"""A fast hand: keys and actions that arrive while a run, a load or a switch is still going.

Each test presses real keys at a person's (quick) pace in the real window and checks what is on
screen afterwards: the user's text whole, one run where one was asked for, the marks and results
belonging to the document they were made for, and the window ready for the next run.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt

from tests.windows import RUN_MS, ran

CTRL = Qt.KeyboardModifier.ControlModifier
SLOW_RUN = "import time\ntime.sleep(1.5)\nprint('slept')\n"


def _press(qtbot, window, key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    qtbot.keyClick(window.editor, key, modifier)


def _wait_idle(qtbot, window) -> None:
    qtbot.waitUntil(lambda: not window.runner.busy and window.runs.run_action.isEnabled()
                    and not window.runner.is_starting, timeout=RUN_MS)


def _starts(window) -> list[bool]:
    started: list[bool] = []
    window.runner.started.connect(lambda: started.append(True))
    return started


def test_ctrl_enter_ten_times_in_a_second_makes_one_run(qtbot, window):
    window.editor.setPlainText(SLOW_RUN)
    started = _starts(window)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        for _ in range(10):
            _press(qtbot, window, Qt.Key.Key_Return, CTRL)
            qtbot.wait(60)
    assert finished.args[0].output == "slept\n" and len(started) == 1
    _wait_idle(qtbot, window)
    qtbot.wait(300)
    assert len(started) == 1 and window.editor.toPlainText() == SLOW_RUN
    assert ran(qtbot, window, "print('next')\n").output == "next\n"


def test_typing_during_a_run_keeps_every_key_and_the_error_mark_follows_its_line(qtbot, window):
    """The traceback's line is the run's: lines typed above it during the run move the mark
    with it, as an editor's diagnostics do."""
    window.editor.setPlainText("import time\ntime.sleep(1.5)\nraise ValueError('here')\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        _press(qtbot, window, Qt.Key.Key_Return, CTRL)
        qtbot.wait(300)
        _press(qtbot, window, Qt.Key.Key_Home, CTRL)
        qtbot.keyClicks(window.editor, "# typed while it ran", delay=15)
        _press(qtbot, window, Qt.Key.Key_Return)
    assert finished.args[0].error.line == 3
    text = window.editor.toPlainText()
    assert text == ("# typed while it ran\nimport time\ntime.sleep(1.5)\n"
                    "raise ValueError('here')\n")
    assert window.editor.error_line == 4  # the raise, where it is now


def test_an_error_on_a_line_edited_during_the_run_is_not_marked_on_other_text(qtbot, window):
    window.editor.setPlainText("import time\ntime.sleep(1.5)\nraise ValueError('here')\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        _press(qtbot, window, Qt.Key.Key_Return, CTRL)
        qtbot.wait(300)
        _press(qtbot, window, Qt.Key.Key_End, CTRL)
        _press(qtbot, window, Qt.Key.Key_Up)
        _press(qtbot, window, Qt.Key.Key_K, CTRL)  # nothing bound: a key the editor ignores
        for _ in range(len("raise ValueError('here')")):
            _press(qtbot, window, Qt.Key.Key_Delete)
        qtbot.keyClicks(window.editor, "print('fixed')", delay=10)
    assert window.editor.error_line is None
    assert "line 3" in window.statusBar().currentMessage()


def test_opening_a_file_during_a_run_keeps_it_clear_of_that_run(qtbot, window, tmp_path):
    other = tmp_path / "other.py"
    other.write_text("print('the other file')\n")
    window.editor.setPlainText("import time\ntime.sleep(1.5)\nraise ValueError('old')\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        _press(qtbot, window, Qt.Key.Key_Return, CTRL)
        qtbot.wait(300)
        window.document.open_file(str(other))
    assert window.editor.toPlainText() == "print('the other file')\n"
    assert window.editor.error_line is None and window.document.path == other
    assert "old" not in window.statusBar().currentMessage()
    assert ran(qtbot, window).output == "the other file\n"


def test_switching_engine_during_a_run_stops_it_and_reruns_on_the_new_one(qtbot, window):
    window.editor.setPlainText(SLOW_RUN + "import torch\nprint(torch.ones(2).sum())\n")
    _press(qtbot, window, Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: window.runner.busy, timeout=RUN_MS)
    window.runs.engine_box.setCurrentIndex(window.runs.engine_box.findData("torch"))
    qtbot.waitUntil(lambda: window.runner.kernel.engine == "torch", timeout=RUN_MS)
    _wait_idle(qtbot, window)
    qtbot.waitUntil(lambda: "tensor(2.)" in window.console.toPlainText(), timeout=RUN_MS)
    assert window.runs.engine_box.currentData() == "torch" and window.runs.engine_box.isEnabled()
    assert ran(qtbot, window, "print(2 + 2)\n").output == "4\n"


def test_ctrl_s_while_a_long_file_loads_saves_all_of_it(qtbot, window, tmp_path):
    path = tmp_path / "long.py"
    original = "".join(f"v{n} = {n}\n" for n in range(60_000))  # under 1 MB: read at once
    path.write_text(original)
    window.document.open_file(str(path))
    assert window.editor.loading  # its first part is in; the rest comes over later turns
    _press(qtbot, window, Qt.Key.Key_S, CTRL)  # at once: the loader has given the first part
    qtbot.waitUntil(lambda: not window.document.opening and not window.editor.loading,
                    timeout=RUN_MS)
    _press(qtbot, window, Qt.Key.Key_S, CTRL)
    assert path.read_text() == original
    assert window.editor.toPlainText() == original


def test_typing_fast_with_live_on_runs_the_last_text(qtbot, window):
    window.editor.clear()
    window.runs.live_action.setChecked(True)
    started = _starts(window)
    window.editor.setFocus()
    qtbot.keyClicks(window.editor, "print(1234567)", delay=20)
    qtbot.waitUntil(lambda: bool(started), timeout=RUN_MS)
    _wait_idle(qtbot, window)
    qtbot.wait(900)  # longer than Live's wait: a run still owed would have started
    _wait_idle(qtbot, window)
    assert len(started) <= 2
    last_line, ending = window.console.toPlainText().split("\n")[-3:-1]
    assert last_line == "1234567" and ending.startswith("[done in")


def test_stepping_while_a_new_run_goes_steps_the_last_result(qtbot, window):
    ran(qtbot, window, "import torch\nx = torch.ones(3, requires_grad=True)\n"
                       "(x * 2).sum().backward()\n")
    window.editor.setPlainText(SLOW_RUN)
    _press(qtbot, window, Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: window.runner.busy, timeout=RUN_MS)
    for _ in range(8):
        qtbot.keyClick(window, Qt.Key.Key_F10)
        qtbot.wait(20)
    _wait_idle(qtbot, window)
    assert window.editor.toPlainText() == SLOW_RUN
    assert ran(qtbot, window, "print('after')\n").output == "after\n"


def test_stop_then_run_at_once_runs_the_new_text(qtbot, window):
    window.editor.setPlainText("while True:\n    pass\n")
    _press(qtbot, window, Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: window.runner.busy, timeout=RUN_MS)
    qtbot.wait(200)
    _press(qtbot, window, Qt.Key.Key_Period, CTRL)
    window.editor.setPlainText("print('second')\n")
    qtbot.waitUntil(lambda: window.runs.run_action.isEnabled(), timeout=RUN_MS)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        _press(qtbot, window, Qt.Key.Key_Return, CTRL)
    assert finished.args[0].output == "second\n"


def test_replace_all_during_a_run_changes_only_the_text(qtbot, window):
    window.editor.setPlainText(SLOW_RUN + "value = 1\nprint(value)\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        _press(qtbot, window, Qt.Key.Key_Return, CTRL)
        qtbot.wait(200)
        _press(qtbot, window, Qt.Key.Key_H, CTRL)
        window.find_bar.query.setText("value")
        window.find_bar.replacement.setText("count")
        window.find_bar.replace_all()
    assert finished.args[0].output == "slept\n1\n"
    assert window.editor.toPlainText() == SLOW_RUN + "count = 1\nprint(count)\n"
    assert ran(qtbot, window).output == "slept\n1\n"


def test_zoom_pressed_twenty_times_fast_settles_once(qtbot, window):
    ran(qtbot, window, "import torch\nx = torch.ones(3, requires_grad=True)\n"
                       "(x * 2).sum().backward()\n")
    scale = window.text_scale
    began = time.perf_counter()
    for _ in range(20):
        qtbot.keyClick(window.editor, Qt.Key.Key_Equal, CTRL)
    pressing = time.perf_counter() - began
    qtbot.waitUntil(lambda: window.text_scale > scale, timeout=RUN_MS)
    assert pressing < 5.0  # each press answered at once; the relayout comes once after
    assert window.editor.toPlainText().startswith("import torch")


def test_closing_the_window_during_a_run_ends_its_kernel(qtbot, window):
    window.editor.setPlainText("while True:\n    pass\n")
    _press(qtbot, window, Qt.Key.Key_Return, CTRL)
    qtbot.waitUntil(lambda: window.runner.busy, timeout=RUN_MS)
    process = window.runner.kernel.process
    window.document.may_discard = lambda: True
    began = time.perf_counter()
    window.close()
    assert time.perf_counter() - began < 5.0
    qtbot.waitUntil(lambda: process.poll() is not None, timeout=10_000)
