"""Run all cells of a tutorial that shows its printed output: each cell gets ✓, ≈ or ≠ in the
gutter, and the console says why, the differing lines side by side."""

from __future__ import annotations

import nbformat
from PySide6.QtCore import Qt

from tests.ui.test_journeys import open_with_dialog, settled
from tests.windows import RUN_MS
from tools.tour import CHECKED_TUTORIAL


def test_run_all_cells_marks_each_cell_against_the_tutorials_output(qtbot, window, tmp_path,
                                                                    monkeypatch):
    lesson = tmp_path / "gradients.md"
    lesson.write_text(CHECKED_TUTORIAL, encoding="utf-8")
    open_with_dialog(qtbot, window, lesson, monkeypatch)
    qtbot.waitUntil(lambda: "import torch" in window.editor.toPlainText(), timeout=RUN_MS)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not window.runs._cell_queue and settled(window), timeout=RUN_MS)
    qtbot.waitUntil(lambda: len(window.editor.cell_marks) == 5, timeout=RUN_MS)
    lines = window.editor.toPlainText().split("\n")
    cells = [number for number, line in enumerate(lines) if line == "# %%"]
    marks = [window.editor.cell_mark(line) for line in cells]
    assert [mark for mark, _why in marks] == ["✓", "≈", "✓", "≈", "≠"]
    assert "AddBackward is AddBackward0" in marks[1][1] and "addresses" in marks[1][1]
    assert "MeanBackward1 is MeanBackward0" in marks[3][1]
    console = window.console.toPlainText()
    assert "cell 1: ✓ printed what the tutorial shows" in console
    assert "cell 5: ≠ printed other than the tutorial shows" in console
    # the tutorial's line beside the one printed now
    row = next(line for line in console.split("\n") if line.startswith("  tensor(18.)"))
    assert row.split("│") == [f"  {'tensor(18.)':<46} ", " tensor(0.)"]
    window.grab().save(str(tmp_path / "marks.png"))
    # Shift+Enter in a prose cell: nothing of it runs, so nothing is checked
    cursor = window.editor.textCursor()
    cursor.setPosition(window.editor.document().findBlockByNumber(1).position())
    window.editor.setTextCursor(cursor)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert len(window.editor.cell_marks) == 5 and "this cell:" not in \
        window.console.toPlainText()


def test_a_notebooks_stored_outputs_are_what_its_cells_are_checked_against(
        qtbot, window, tmp_path, monkeypatch):
    book = nbformat.v4.new_notebook()
    shown = [("import torch\nw = torch.tensor([1.0, 2.0], requires_grad=True)\n"
              "(w * w).sum().backward()\nprint(w.grad)", "tensor([2., 4.])\n"),
             ("print(w.grad * 10)", "tensor([20., 30.])\n")]  # a typo in the notebook
    book.cells = [nbformat.v4.new_code_cell(source, outputs=[nbformat.v4.new_output(
        "stream", name="stdout", text=text)]) for source, text in shown]
    lesson = tmp_path / "lesson.ipynb"
    lesson.write_text(nbformat.writes(book), encoding="utf-8")
    open_with_dialog(qtbot, window, lesson, monkeypatch)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: len(window.editor.cell_marks) == 2, timeout=RUN_MS)
    assert [mark for _cursor, mark, _why in window.editor.cell_marks] == ["✓", "≠"]
    assert "│ tensor([20., 40.])" in window.console.toPlainText()
