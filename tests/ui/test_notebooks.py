"""Notebooks in the window: seeds cell by cell on both engines, and a tutorial's figure."""

import json

import numpy as np
from PySide6.QtCore import Qt

from playground.kernel.client import Kernel
from playground.model import notebook
from playground.model.notebook import Cell, Notebook
from tests.seeds import TUTORIALS, tutorial_files
from tests.windows import RUN_MS, ran

LESSON = Notebook([
    Cell("markdown", "# Accumulation\nEach backward() adds into .grad."),
    Cell("code", "import torch\nw = torch.tensor([1.0, -1.0], requires_grad=True)"),
    Cell("code", "(w * 3).sum().backward()\nprint(w.grad)"),
    Cell("code", "print(undefined_name)"),
    Cell("code", "print('never reached')"),
])


def run_cells(qtbot, window) -> None:
    window.runs.run_all_cells()
    # the last cell's result has reached the window (Run all is enabled again only then)
    qtbot.waitUntil(lambda: not window.runs._cell_queue and not window.runner.busy
                    and window.runs.run_action.isEnabled(), timeout=RUN_MS)


def test_an_ipynb_opens_as_cells_without_running(qtbot, window, tmp_path):
    path = tmp_path / "lesson.ipynb"
    path.write_text(notebook.to_ipynb(LESSON))
    window.runs.live_action.setChecked(True)  # Live never runs what a file brings
    window.document.open_file(str(path))
    qtbot.wait(1200)
    assert not window.runner.busy and window.console.toPlainText() == ""
    text = window.editor.toPlainText()
    assert text.startswith("# %% [markdown]\n# # Accumulation\n# Each backward() adds")
    assert [kind for _, _, kind in window.runs.cells()] == ["markdown"] + ["code"] * 4
    # markdown lines are drawn as prose, not as code comments
    block = window.editor.document().findBlockByNumber(2)
    formats = block.layout().formats()
    assert any("Sans" in " ".join(f.format.fontFamilies() or []) for f in formats)


def test_run_all_cells_stops_at_the_first_error_and_marks_it(qtbot, window, tmp_path):
    path = tmp_path / "lesson.ipynb"
    path.write_text(notebook.to_ipynb(LESSON))
    window.document.open_file(str(path))
    run_cells(qtbot, window)
    console = window.console.toPlainText()
    assert "Cell 1 of 4" in console and "Cell 3 of 4" in console and "Cell 4 of 4" not in console
    assert "tensor([3., 3.])" in console and "never reached" not in console
    error_line = window.editor.error_line
    assert window.editor.document().findBlockByNumber(error_line - 1).text() == \
        "print(undefined_name)"
    assert "Stopped at cell 3 of 4" in window.statusBar().currentMessage()


def _quick_cells(count: int) -> str:
    return "".join(f"# %%\nx{n} = {n}\n" for n in range(count))


def test_stop_ends_run_all_cells_of_quick_cells(qtbot, window):
    """Quick cells finish before Stop lands: Stop must end the sequence, not the one cell
    (four Stops left 2,721 of 3,000 cells queued)."""
    window.editor.setPlainText(_quick_cells(3000))
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: (window.runs._cells_run or 0) >= 20, timeout=RUN_MS)
    qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.runner.busy and window.runs.run_action.isEnabled(),
                    timeout=RUN_MS)
    stopped_at = window.runs._cells_run
    qtbot.wait(300)
    assert not window.runs._cell_queue and window.runs._cells_run == stopped_at < 3000
    assert window.statusBar().currentMessage() == f"Stopped at cell {stopped_at} of 3000."


def test_restart_ends_run_all_cells_too(qtbot, window):
    window.editor.setPlainText(_quick_cells(3000))
    window.runs.run_all_cells()
    qtbot.waitUntil(lambda: (window.runs._cells_run or 0) >= 20, timeout=RUN_MS)
    window.runs.restart_action.trigger()
    qtbot.waitUntil(lambda: not window.runner.is_starting and not window.runner.busy,
                    timeout=RUN_MS)
    stopped_at = window.runs._cells_run
    qtbot.wait(300)
    assert not window.runs._cell_queue and window.runs._cells_run == stopped_at < 3000
    result = ran(qtbot, window, "print(x0)\n")
    assert result.error is not None  # the new kernel never ran the cells that were to come


def test_saving_an_ipynb_keeps_cells_and_what_each_printed(qtbot, window, tmp_path):
    path = tmp_path / "lesson.ipynb"
    path.write_text(notebook.to_ipynb(LESSON))
    window.document.open_file(str(path))
    run_cells(qtbot, window)
    assert window.document.save()
    saved = notebook.from_ipynb(path.read_text())
    assert [(c.kind, c.source) for c in saved.cells] == [(c.kind, c.source)
                                                       for c in LESSON.cells]
    assert saved.cells[2].output == "tensor([3., 3.])\n"
    assert json.loads(path.read_text())["nbformat"] == 4
    percent = tmp_path / "lesson.py"
    window.document.path = percent
    assert window.document.save()
    assert notebook.from_percent(percent.read_text()).cells[1].source == LESSON.cells[1].source


def test_a_broken_notebook_says_why_and_keeps_the_text(qtbot, window, tmp_path):
    window.editor.setPlainText("x = 1\n")
    window.editor.document().setModified(False)
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{ this is not json")
    window.document.open_file(str(broken))
    assert window.editor.toPlainText() == "x = 1\n"
    assert "not valid JSON" in window.statusBar().currentMessage()


def test_every_seed_runs_cell_by_cell_on_both_engines_alike():
    """No cell fails on either engine, and each prints the same text on both, random
    numbers aside (a cell that draws random numbers prints different ones)."""
    printed = {}
    for engine in ("numpy", "torch"):
        with Kernel(engine, "cpu") as kernel:
            for path in tutorial_files():
                book = notebook.read(path.name, path.read_text(encoding="utf-8"))
                for number, code in enumerate(c for c in book.code() if c.strip()):
                    result = kernel.run(code, str(path), fresh=number == 0)
                    assert result.error is None, (engine, path.name, number, result.error)
                    printed[engine, path.name, number] = (code, result.output)
    compared, random_from = 0, {}
    for (_, name, number), (code, _) in printed.items():
        if "rand" in code:  # from here on the notebook shows random numbers
            random_from.setdefault(name, number)
    for (engine, name, number), (code, output) in printed.items():
        if engine == "numpy" and number < random_from.get(name, 10**6) and "0x" not in output:
            assert output == printed["torch", name, number][1], (name, number, code)
            compared += 1
    assert compared > 20


def test_a_tutorials_plot_cell_shows_matplotlibs_figure_labelled_by_its_cell(qtbot, window):
    """The tutorial's last cell plots with matplotlib in the kernel: the Figures pane comes
    forward with one figure, labelled by its cell, the green points of m on the left and the
    magenta squares of u on the right, as matplotlib draws 'go' and 'ms'."""
    tutorial = TUTORIALS / "02_vector_outputs.txt"
    window.document.open_file(str(tutorial))
    qtbot.waitUntil(lambda: window.figures is not None, timeout=RUN_MS)
    run_cells(qtbot, window)
    # drawn by the kernel after the cell's result: the pane comes forward when it comes
    qtbot.waitUntil(lambda: window.views.currentWidget() is window.figures_page,
                    timeout=RUN_MS)
    (card,) = window.figures.cards
    qtbot.waitUntil(lambda: not card.image.isNull(), timeout=5000)
    cells = len([c for c in window.runs.cells() if c[2] == "code"])
    assert card.figure.title == f"Cell {cells} · Figure 1"
    assert card.title.text().startswith(f"<b>Cell {cells} · Figure 1</b>")
    pixels = qimage_array(card.image)
    half = pixels.shape[1] // 2
    green = np.all(pixels[..., :3] == (0, 128, 0), axis=-1)
    magenta = np.all(pixels[..., :3] == (191, 0, 191), axis=-1)
    assert green[:, :half].sum() > 100 and green[:, half:].sum() == 0
    assert magenta[:, half:].sum() > 100 and magenta[:, :half].sum() == 0
    shown_width, _ = card.shown_size
    assert 0 < shown_width <= window.figures.viewport().width()  # fitted to the pane


def qimage_array(image) -> np.ndarray:
    """A QImage's pixels as an (height, width, 4) RGBA array."""
    from PySide6.QtGui import QImage

    image = image.convertToFormat(QImage.Format.Format_RGBA8888)
    data = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    rows = data.reshape(image.height(), image.bytesPerLine())[:, :image.width() * 4]
    return rows.reshape(image.height(), image.width(), 4).copy()  # (the image goes now)


def test_stop_between_two_cells_ends_run_all_cells(qtbot, window):
    """Between a cell's end and the next cell's start, Stop is still on: pressed there, it
    ends the sequence (it was off for that moment, and a press was lost under load)."""
    window.editor.setPlainText(_quick_cells(50))
    stopped = []

    def stop_between_cells(_result) -> None:
        if window.runs._cells_run == 5 and not stopped:
            stopped.append(window.runs.stop_action.isEnabled())
            window.runs.stop_action.trigger()

    window.runner.finished.connect(stop_between_cells)
    window.runs.run_all_cells()
    qtbot.waitUntil(lambda: bool(stopped) and window.runs.run_action.isEnabled(),
                    timeout=RUN_MS)
    qtbot.wait(300)
    assert stopped == [True] and window.runs._cells_run == 5
    assert not window.runs.stop_action.isEnabled()
    assert window.statusBar().currentMessage() == "Stopped at cell 5 of 50."
