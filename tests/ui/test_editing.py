"""Editing and notebook habits, with real key events at a person's pace, checked on screen."""

from __future__ import annotations

import json

import nbformat
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QToolButton

from playground.ui.main_window import MainWindow
from playground.ui.recovery import RecoveryStore
from playground.ui.settings import Settings
from tests.ui.test_journeys import settled, type_code
from tests.windows import RUN_MS

PERSON_MS = 25  # between keys: a quick typist, so completions arrive mid-word


def run_all(qtbot, window):
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    return finished.args[0]


def test_completion_closes_when_the_name_ends_and_enter_starts_a_line(qtbot, window):
    type_code(qtbot, window, ["import torch"])
    run_all(qtbot, window)  # the namespace completions come from
    editor = window.editor
    popup = editor.completer.popup()
    qtbot.keyClicks(editor, "y = torch.", delay=PERSON_MS)
    qtbot.waitUntil(popup.isVisible, timeout=20_000)  # jedi's first answer may take seconds
    qtbot.keyClicks(editor, "ones", delay=PERSON_MS)
    qtbot.keyClick(editor, "(")
    assert not popup.isVisible()  # "(" cannot continue a name
    qtbot.keyClicks(editor, "3).", delay=PERSON_MS)
    qtbot.waitUntil(popup.isVisible, timeout=20_000)
    qtbot.keyClicks(editor, "sum", delay=PERSON_MS)
    qtbot.keyClicks(editor, "()", delay=PERSON_MS)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "y.backward", delay=PERSON_MS)
    qtbot.wait(300)
    if popup.isVisible():  # "backward" typed whole: Enter is a new line, not a completion
        assert editor.completer.currentCompletion() == "backward"
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    lines = editor.toPlainText().split("\n")
    assert "y = torch.ones(3).sum()" in lines and "y.backward" in lines


def test_shift_enter_runs_the_cell_and_moves_on(qtbot, window):
    window.editor.setPlainText("# %%\nprint('one')\n# %%\nprint('two')\n")
    cursor = window.editor.textCursor()
    cursor.setPosition(len("# %%\n"))
    window.editor.setTextCursor(cursor)
    window.editor.setFocus()
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert "\u2028" not in window.editor.toPlainText()
    assert window.editor.toPlainText() == "# %%\nprint('one')\n# %%\nprint('two')\n"
    qtbot.waitUntil(lambda: "one\n" in window.console.toPlainText(), timeout=5000)
    assert window.editor.textCursor().blockNumber() == 2  # on to the next cell


def test_replay_keys_never_type_into_the_editor(qtbot, window):
    type_code(qtbot, window, ["import torch", "x = torch.ones(2, requires_grad=True)",
                              "(x * 3).sum().backward()"])
    run_all(qtbot, window)
    qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)
    editor = window.editor
    editor.setFocus()
    text = editor.toPlainText()
    qtbot.keyClick(editor, Qt.Key.Key_F10)
    qtbot.keyClick(editor, Qt.Key.Key_F10)
    assert window.view_state.position == 2 and editor.toPlainText() == text
    qtbot.keyClick(editor, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert window.view_state.position == 1
    assert "F10" in window.player.forward.toolTip()
    qtbot.keyClick(editor, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)
    assert window.player.playback is None and editor.toPlainText() == text


def test_a_cells_last_expression_shows_as_out_and_magics_are_skipped(qtbot, window):
    window.editor.setPlainText("# %%\n%matplotlib inline\n!pip install torch\nimport torch\n"
                               "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                               "(x * x).sum().backward()\nx.grad\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        qtbot.keyClick(window.editor, Qt.Key.Key_Return,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    result = finished.args[0]
    assert result.error is None
    console = window.console.toPlainText()
    assert "Out[1]: tensor([2., 4.])" in console
    assert "skipped IPython lines that are not Python: %matplotlib inline (line 2), " \
           "!pip install torch (line 3)" in console
    assert "SyntaxError" not in console


def test_live_keeps_the_last_good_run_while_a_line_is_unfinished(qtbot, window):
    window.runs.live_action.setChecked(True)
    type_code(qtbot, window, ["import torch", "x = torch.ones(2, requires_grad=True)",
                              "(x * 3).sum().backward()"])
    qtbot.waitUntil(lambda: settled(window) and window.view_state.result is not None,
                    timeout=RUN_MS)
    shown = window.graph_view.current
    runs = []
    window.runner.finished.connect(runs.append)
    qtbot.keyClicks(window.editor, "y = (x *", delay=PERSON_MS)
    qtbot.wait(1500)  # past Live's pause
    assert runs == [] and window.graph_view.current is shown
    assert "not run, line 4 is incomplete" in window.statusBar().currentMessage()
    assert "SyntaxError" not in window.console.toPlainText()
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClicks(window.editor, " 2)", delay=PERSON_MS)
    assert runs and runs[-1].error is None


def test_at_1024_by_640_the_editor_keeps_half_and_text_zooms(qtbot, tmp_path):
    settings = Settings(tmp_path / "settings.json")
    window = MainWindow(settings=settings, recovery=RecoveryStore(tmp_path / "r.json"))
    qtbot.addWidget(window)
    window.resize(1024, 640)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(200)
    assert window.editor.width() >= 0.45 * window.width()
    assert window.player.minimumSizeHint().width() <= window.graph_view.width()
    assert window.editor.height() >= 200
    before = window.editor.font().pointSizeF()
    qtbot.keyClick(window.editor, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(window.editor, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    # drawn once the presses stop
    qtbot.waitUntil(lambda: window.editor.font().pointSizeF() > before, timeout=5000)
    larger = window.editor.font().pointSizeF()
    assert larger > before and window.console.font().pointSizeF() == larger
    window.close()
    again = MainWindow(settings=settings, recovery=RecoveryStore(tmp_path / "r.json"))
    qtbot.addWidget(again)
    again.show()
    qtbot.waitExposed(again)
    again.activateWindow()
    qtbot.waitUntil(again.isActiveWindow, timeout=5000)
    assert again.editor.font().pointSizeF() == pytest.approx(larger)  # remembered
    qtbot.keyClick(again.editor, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: again.editor.font().pointSizeF() == pytest.approx(before),
                    timeout=5000)


def test_saving_keeps_names_formats_raw_cells_and_outputs(qtbot, window, tmp_path):
    first = tmp_path / "first.py"
    first.write_text("print(1)\n")
    window.document.open_file(str(first))
    window.document.ask_path = lambda saving: str(tmp_path / "second.py")
    qtbot.keyClick(window.editor, Qt.Key.Key_S,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.windowTitle().startswith("second.py")
    dump = tmp_path / "lesson.txt"
    dump.write_text("Some words.\n\nIn [1]:\nx = 1\n\nIn [2]:\nprint(x)\n")
    window.document.open_file(str(dump))
    qtbot.keyClick(window.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    saved = dump.read_text()
    assert "In [1]:\nx = 1" in saved and "```" not in saved  # still a dump, not markdown
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_raw_cell("raw text stays raw"),
                  nbformat.v4.new_code_cell("print('kept')", execution_count=1, outputs=[
                      nbformat.v4.new_output("stream", name="stdout", text="kept\n")]),
                  nbformat.v4.new_code_cell("print('again')")]
    notebook = tmp_path / "kept.ipynb"
    notebook.write_text(nbformat.writes(book))
    window.document.open_file(str(notebook))
    qtbot.keyClick(window.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    cells = json.loads(notebook.read_text())["cells"]
    assert [c["cell_type"] for c in cells] == ["raw", "code", "code"]
    assert cells[1]["outputs"][0]["text"] in ("kept\n", ["kept\n"])


def test_dropping_a_script_opens_it(qtbot, window, tmp_path):
    script = tmp_path / "dropped.py"
    script.write_text("print('dropped')\n")
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(script))])
    target = window.editor.viewport()
    point = QPoint(40, 40)
    enter = QDragEnterEvent(point, Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                            Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, enter)
    assert enter.isAccepted()
    drop = QDropEvent(QPointF(point), Qt.DropAction.CopyAction, data,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(target, drop)
    assert window.document.path == script and window.editor.toPlainText() == "print('dropped')\n"
    assert "file://" not in window.editor.toPlainText()


def test_console_clears_and_the_find_bar_finds_and_replaces(qtbot, window):
    type_code(qtbot, window, ["a = 1", "b = a + a", "print(b)"])
    run_all(qtbot, window)
    qtbot.waitUntil(lambda: "2" in window.console.toPlainText(), timeout=5000)
    qtbot.keyClick(window.editor, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert window.console.toPlainText() == ""
    qtbot.keyClick(window.editor, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = window.find_bar
    assert bar.isVisible() and bar.query.hasFocus()  # a bar, not a modal box
    qtbot.keyClicks(bar.query, "a", delay=PERSON_MS)
    assert window.editor.textCursor().selectedText() == "a"
    qtbot.keyClicks(bar.replacement, "alpha", delay=PERSON_MS)
    assert bar.replace_all() == 3
    assert window.editor.toPlainText().startswith("alpha = 1\nb = alpha + alpha")
    qtbot.keyClick(bar.query, Qt.Key.Key_Escape)
    assert not bar.isVisible()
    window.menus.ask_line = lambda: 2
    qtbot.keyClick(window.editor, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.textCursor().blockNumber() == 1


def test_replace_all_renames_only_that_name_unless_told_otherwise(qtbot, window):
    """As in VS Code, in code a search matches case and whole words by default: replacing
    ``X`` rewrote ``x``, ``max_x`` and ``.max()`` too."""
    window.editor.setPlainText("X = torch.ones(3)\nx = X * 2\nmax_x = X.max()\n")
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    bar = window.find_bar
    qtbot.keyClicks(bar.query, "X", delay=PERSON_MS)
    qtbot.keyClicks(bar.replacement, "inputs", delay=PERSON_MS)
    assert bar.match_case.isChecked() and bar.whole_words.isChecked()
    all_button = next(b for b in bar.findChildren(QToolButton) if b.text() == "All")
    qtbot.mouseClick(all_button, Qt.MouseButton.LeftButton)
    assert window.editor.toPlainText() == \
        "inputs = torch.ones(3)\nx = inputs * 2\nmax_x = inputs.max()\n"
    assert bar.status.text() == "3 replaced"
    qtbot.keyClick(window.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.toPlainText().startswith("X = torch")  # one undo step
    qtbot.mouseClick(bar.match_case, Qt.MouseButton.LeftButton)  # any case, still whole words
    qtbot.mouseClick(all_button, Qt.MouseButton.LeftButton)
    assert window.editor.toPlainText() == \
        "inputs = torch.ones(3)\ninputs = inputs * 2\nmax_x = inputs.max()\n"
    qtbot.keyClick(window.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    qtbot.mouseClick(bar.whole_words, Qt.MouseButton.LeftButton)  # parts of names too
    qtbot.mouseClick(all_button, Qt.MouseButton.LeftButton)
    assert "mainputs_inputs = inputs.mainputs()" in window.editor.toPlainText()


def test_an_indented_marker_is_not_a_cell_anywhere(qtbot, window, tmp_path):
    text = "# %%\nfor i in range(2):\n    # %% not a marker: a comment in the loop\n" \
           "    print(i)\n# %%\nprint('second')\n"
    window.editor.setPlainText(text)
    assert [kind for _, _, kind in window.runs.cells()] == ["code", "code"]
    cursor = window.editor.textCursor()
    cursor.setPosition(len("# %%\nfor"))
    window.editor.setTextCursor(cursor)
    assert window.editor.cell_bounds(1) == (0, 3)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: "0\n1\n" in window.console.toPlainText(), timeout=5000)
    target = tmp_path / "cells.ipynb"
    window.document.ask_path = lambda saving: str(target)
    window.document.save_as()
    cells = json.loads(target.read_text())["cells"]
    assert len(cells) == 2 and "# %% not a marker" in "".join(cells[0]["source"])
    assert "0\n1\n" in "".join(cells[0]["outputs"][0]["text"])  # its output is kept


def test_graph_keys_stay_in_the_graph_and_esc_closes_completion(qtbot, window):
    type_code(qtbot, window, ["import torch", "x = torch.ones(2, requires_grad=True)",
                              "(x * 3).sum().backward()"])
    run_all(qtbot, window)
    qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)
    window.console.setFocus()
    qtbot.keyClick(window.console, Qt.Key.Key_Space)
    qtbot.keyClick(window.console, Qt.Key.Key_Right)
    assert window.player.playback is None and not window.player.timer.isActive()
    window.graph_view.setFocus()
    qtbot.keyClick(window.graph_view, Qt.Key.Key_Right)
    assert window.view_state.position == 1
    qtbot.keyClick(window.graph_view, Qt.Key.Key_Escape)
    assert window.player.playback is None
    editor = window.editor
    editor.setFocus()
    popup = editor.completer.popup()
    qtbot.keyClicks(editor, "x.requ", delay=PERSON_MS)
    qtbot.waitUntil(popup.isVisible, timeout=20_000)
    assert editor.completer.currentCompletion() == "requires_grad"  # chosen, as in VS Code
    qtbot.keyClick(popup, Qt.Key.Key_Escape)
    assert not popup.isVisible() and editor.toPlainText().endswith("x.requ")


def test_backspace_in_an_indent_goes_back_one_level(qtbot, window):
    editor = window.editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    qtbot.keyClicks(editor, "for step in range(3):")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "if step:")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "print(step)")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)  # out of the if: one press
    qtbot.keyClicks(editor, "total = step")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    qtbot.keyClicks(editor, "print('done')")
    assert editor.toPlainText() == ("for step in range(3):\n    if step:\n        print(step)\n"
                                    "    total = step\nprint('done')")
    qtbot.keyClicks(editor, "x")  # not in an indent: one character, as ever
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    assert editor.toPlainText().endswith("print('done')")


def test_switching_live_on_runs_the_script(qtbot, window):
    window.editor.setPlainText("import torch\nw = torch.ones(2, requires_grad=True)\n")
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        window.runs.live_action.trigger()
    assert window.runs.live_action.isChecked()
    qtbot.waitUntil(lambda: window.graph_view.current is not None, timeout=60_000)
    window.runs.live_action.trigger()


def test_ctrl_h_opens_replace_with_the_selection_as_the_search(qtbot, window):
    """As in VS Code: Ctrl+H opens the bar for replacing (it did nothing)."""
    window.editor.setPlainText("value = 1\nprint(value)\n")
    cursor = window.editor.textCursor()
    cursor.setPosition(0)
    cursor.setPosition(5, cursor.MoveMode.KeepAnchor)
    window.editor.setTextCursor(cursor)
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier)
    bar = window.find_bar
    assert bar.isVisible() and bar.query.text() == "value" and bar.replacement.hasFocus()
    qtbot.keyClicks(bar.replacement, "count")
    assert bar.replace_all() == 2
    assert window.editor.toPlainText() == "count = 1\nprint(count)\n"
