"""The window with a live kernel: type, run, see output; errors marked; stop keeps the UI alive."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QEvent, QObject, Qt

from playground.ui.formatting import duration_text
from playground.ui.main_window import MainWindow
from playground.ui.run_control import BUSY_LOOK_MS
from tests.windows import RUN_MS, ran

# ``window``: the shown window of tests/conftest.py, its kernel started.


def test_typing_and_running_shows_the_output(qtbot, window):
    window.editor.clear()
    qtbot.keyClicks(window.editor, "import torch")
    qtbot.keyClick(window.editor, "\r")
    qtbot.keyClicks(window.editor, "print((torch.ones(2) * 3).sum())")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        window.runs.run_action.trigger()
    qtbot.waitUntil(lambda: "tensor(6.)" in window.console.toPlainText(), timeout=5000)
    # a quick run says how quick in milliseconds, not "0.00 s" (which reads as nothing ran)
    assert re.fullmatch(r"Done in (\d+ ms|under 1 ms)", window.statusBar().currentMessage())
    assert re.search(r"\[done in (\d+ ms|under 1 ms)\]", window.console.toPlainText())


@pytest.mark.parametrize("seconds, text", [
    (0.0004, "under 1 ms"), (0.0031, "3 ms"), (0.25, "250 ms"), (0.9996, "1.0 s"),
    (1.24, "1.2 s"), (12.4, "12 s"), (59.4, "59 s"), (125, "2 min 5 s"), (120, "2 min")])
def test_durations_read_in_their_unit(seconds, text):
    assert duration_text(seconds) == text


def test_an_exception_marks_its_line_and_shows_the_traceback(qtbot, window):
    result = ran(qtbot, window, "import torch\nx = torch.ones(3)\ny = x @ torch.ones(2)\n")
    assert result.error.line == 3 and window.editor.error_line == 3
    console = window.console.toPlainText()
    assert "Traceback (most recent call last)" in console and "line 3" in console
    assert "(line 3)" in window.statusBar().currentMessage()


def test_the_error_mark_stays_through_a_quick_rerun_and_goes_in_a_long_or_good_one(
        qtbot, window):
    failing = "import torch\nx = torch.ones(3)\ny = x @ torch.ones(2)\n"
    ran(qtbot, window, failing)
    marks = []  # every change of the mark, as the editor is told it (each one a repaint)
    window.editor.mark_error_line = lambda line, mark=window.editor.mark_error_line: (
        marks.append(line), mark(line))
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.error_line == 3 and None not in marks
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):  # long: the mark goes
        window.editor.setPlainText("import time\ntime.sleep(0.8)\n" + failing)
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: window.editor.error_line is None, timeout=600)
    assert window.editor.error_line == 5
    ran(qtbot, window, "print('fine')\n")
    assert window.editor.error_line is None


def test_stop_ends_an_endless_loop_while_the_window_stays_responsive(qtbot, window):
    ticks = []
    from PySide6.QtCore import QTimer

    timer = QTimer(interval=20, timeout=lambda: ticks.append(1))
    timer.start()
    window.editor.setPlainText("while True:\n    pass\n")
    window.runs.run_all()
    qtbot.wait(600)
    assert window.runs.stop_action.isEnabled() and len(ticks) > 10
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        window.runs.stop_action.trigger()
    timer.stop()
    assert finished.args[0].error.kind == "interrupted"
    assert window.runs.run_action.isEnabled()


def test_run_and_stop_look_busy_only_once_a_run_takes_a_while(qtbot, window):
    """A quick run leaves the run actions alone (toggling them lays the window's chrome out
    again and repaints it twice per run); a run that takes longer than a glance disables
    Run all and enables Stop, and its end brings them back."""
    ran(qtbot, window, "print('warm')\n")
    runs = window.runs
    changes = []
    for action in (runs.run_action, runs.cell_action, runs.cells_action, runs.stop_action):
        action.changed.connect(lambda action=action: changes.append(action.text()))
    runs._busy_look.setInterval(5_000)  # ("quick" even on a machine that is busy meanwhile)
    ran(qtbot, window, "x = 1\n")
    assert changes == []
    runs._busy_look.setInterval(BUSY_LOOK_MS)
    window.editor.setPlainText("import time\ntime.sleep(1.5)\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        runs.run_all()
        qtbot.waitUntil(lambda: runs.stop_action.isEnabled(), timeout=RUN_MS)
        assert not runs.run_action.isEnabled() and not runs.cells_action.isEnabled()
    assert runs.run_action.isEnabled() and not runs.stop_action.isEnabled()


def test_switching_engine_restarts_the_kernel_and_reruns(qtbot, window):
    window.editor.setPlainText("import torch\nprint(torch.__name__)\n")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        window.runs.engine_box.setCurrentIndex(1)
    assert window.runner.kernel.engine == "torch"
    assert window.runs.engine_label.text().startswith("torch ")
    qtbot.waitUntil(lambda: "torch\n" in window.console.toPlainText(), timeout=5000)


def test_opening_a_file_shows_it_and_never_runs_it(qtbot, tmp_path):
    script = tmp_path / "lesson.py"
    script.write_text("raise SystemExit('must not run')\n")
    from playground.ui.recovery import RecoveryStore
    from playground.ui.settings import Settings

    main = MainWindow(str(script),
                      settings=Settings(tmp_path / "s.json"),
                      recovery=RecoveryStore(tmp_path / "recovery.json"))
    qtbot.addWidget(main)
    assert main.editor.toPlainText() == "raise SystemExit('must not run')\n"
    assert main.windowTitle().startswith("lesson.py")
    qtbot.wait(300)
    assert main.console.toPlainText() == ""
    main.close()


@pytest.fixture
def isolated(tmp_path):
    """Settings and recovery file of a window under test, kept out of the user's own."""
    from playground.ui.recovery import RecoveryStore
    from playground.ui.settings import Settings

    settings = Settings(tmp_path / "settings.json")
    return settings, RecoveryStore(tmp_path / "recovery.json")


def test_save_and_open_round_trip(qtbot, tmp_path, isolated):
    settings, recovery = isolated
    main = MainWindow(settings=settings, recovery=recovery)
    qtbot.addWidget(main)
    main.editor.setPlainText("import torch\nprint(torch.ones(1))\n")
    target = tmp_path / "saved.py"
    main.document.ask_path = lambda saving: str(target)
    assert main.document.save() is True
    assert target.read_text() == "import torch\nprint(torch.ones(1))\n"
    assert not main.editor.document().isModified() and "•" not in main.windowTitle()
    main.document.new_file()
    assert main.editor.toPlainText() == ""
    main.document.open_file(str(target))
    assert main.editor.toPlainText() == target.read_text() and main.document.path == target
    assert str(target) in main.document.recent()
    main.close()


def test_unsaved_changes_are_asked_about(qtbot, isolated):
    settings, recovery = isolated
    main = MainWindow(settings=settings, recovery=recovery)
    qtbot.addWidget(main)
    main.editor.insertPlainText("precious work")  # typed: the document is modified
    questions = []
    main.document.ask_unsaved = lambda: questions.append(1) or "cancel"
    main.document.new_file()
    assert questions and "precious work" in main.editor.toPlainText()
    main.document.ask_unsaved = lambda: "discard"
    main.close()


def test_recovery_after_a_simulated_crash(qtbot, isolated):
    settings, recovery = isolated
    crashed = MainWindow(settings=settings, recovery=recovery)
    qtbot.addWidget(crashed)
    crashed.editor.clear()
    crashed.editor.insertPlainText("x = 'typed just before the crash'\n")
    crashed.document.save_recovery()  # what the autosave timer does every few seconds
    crashed.runner.close()  # the process dies here: no closeEvent, the recovery file stays
    crashed.document.ask_unsaved = lambda: "discard"  # (for the test's own teardown)
    crashed.document.recovery = type(recovery)(recovery.path.with_name("teardown.json"))
    assert recovery.load()["text"] == "x = 'typed just before the crash'\n"
    restarted = MainWindow(settings=settings, recovery=recovery)
    qtbot.addWidget(restarted)
    restarted.document.ask_restore = lambda saved: "restore"
    assert restarted.document.offer_recovery() is True
    assert restarted.editor.toPlainText() == "x = 'typed just before the crash'\n"
    restarted.document.ask_unsaved = lambda: "discard"
    restarted.close()
    assert recovery.load() is None


def test_saves_are_atomic(tmp_path, monkeypatch):
    import os

    from playground.ui.recovery import atomic_write

    target = tmp_path / "script.py"
    target.write_text("old version\n")

    def fail(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError):
        atomic_write(target, "new version\n")
    assert target.read_text() == "old version\n"
    assert [p.name for p in tmp_path.iterdir()] == ["script.py"]


def test_run_cell_runs_one_cell_in_the_shared_namespace_and_moves_on(qtbot, window):
    window.editor.setPlainText("# %% first\nimport torch\nw = torch.ones(2, requires_grad=True)\n"
                               "# %% second\n(w * 5).sum().backward()\nprint(w.grad)\n")
    cursor = window.editor.textCursor()
    cursor.setPosition(0)
    window.editor.setTextCursor(cursor)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        window.runs.cell_action.trigger()
    assert window.editor.textCursor().blockNumber() == 3
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        window.runs.cell_action.trigger()
    assert finished.args[0].output == "tensor([5., 5.])\n"


def test_an_error_in_a_cell_marks_the_editor_line(qtbot, window):
    window.editor.setPlainText("# %% a\nx = 1\n# %% b\ny = 2\nundefined_name\n")
    cursor = window.editor.textCursor()
    cursor.setPosition(window.editor.document().findBlockByNumber(3).position())
    window.editor.setTextCursor(cursor)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        window.runs.cell_action.trigger()
    assert finished.args[0].error.line == 5 and window.editor.error_line == 5


def test_clicking_a_traceback_line_moves_the_editor_there(qtbot, window):
    from PySide6.QtCore import QPoint, Qt

    ran(qtbot, window, "x = 1\ny = 2\nz = x / 0\n")
    console = window.console
    block = next(b for b in _blocks(console.document()) if 'line 3' in b.text())
    rect = console.blockBoundingGeometry(block).translated(console.contentOffset())
    point = QPoint(20, round(rect.center().y()))
    qtbot.mouseClick(console.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert window.editor.textCursor().blockNumber() == 2


def _blocks(document):
    block = document.firstBlock()
    while block.isValid():
        yield block
        block = block.next()


def test_examples_open_as_untitled_documents(qtbot, window):
    from playground.ui.document import EXAMPLES

    example = sorted(EXAMPLES.glob("*.py"))[0]
    window.document.open_example(example)
    assert window.document.path is None and window.editor.toPlainText() == example.read_text()
    menus = {a.text(): a.menu() for a in window.menuBar().actions()}
    names = [a.text() for a in menus["&Examples"].actions()]
    # named by what they teach, in their order, as their first lines say
    assert names[0] == "&1  Basics" and len(names) == len(list(EXAMPLES.glob("*.py")))
    assert "&7  A small model from torch.nn, trained with torch.optim" in names


def test_ctrl_q_closes_the_window(qtbot, window):
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)


def test_plot_axes_say_the_numbers_not_a_unit_scale(qtbot, window):
    ran(qtbot, window, "import torch\nx = torch.tensor([1e-3, 2e-3, 3e-3], requires_grad=True)\n"
                       "(x * 1e-4).sum().backward()\n")
    window._make_lazy_views()  # (pyqtgraph may still be importing: they come after it)
    qtbot.waitUntil(lambda: window.plots is not None and bool(window.plots.plots),
                    timeout=RUN_MS)
    for plot in window.plots.plots:
        for side in ("bottom", "left"):
            # pyqtgraph's own scale reads "value (x0.001)": ticks then show 1, 2, 3
            assert not re.search(r"\(x[\d.e+-]+\)", plot.getAxis(side).labelString())


def test_live_mode_cancels_a_stale_run_and_runs_the_latest_text(qtbot, window):
    results = []
    window.runner.finished.connect(results.append)
    window.runs.live_action.setChecked(True)
    window.editor.clear()
    qtbot.keyClicks(window.editor, "while True: pass")
    qtbot.waitUntil(lambda: window.runner.busy, timeout=5000)  # debounced, then started
    window.editor.selectAll()
    qtbot.keyClicks(window.editor, "print('latest')")
    qtbot.waitUntil(lambda: len(results) >= 2, timeout=RUN_MS)
    assert results[0].error.kind == "interrupted"
    assert results[-1].output == "latest\n"


def test_opening_a_file_in_live_mode_does_not_run_it(qtbot, window, tmp_path):
    script = tmp_path / "opened.py"
    script.write_text("print('should not run')\n")
    window.runs.live_action.setChecked(True)
    window.document.open_file(str(script))
    qtbot.wait(1200)
    assert not window.runner.busy and "should not run" not in window.console.toPlainText()


def test_settings_are_remembered(qtbot, tmp_path):
    from playground.ui.recovery import RecoveryStore
    from playground.ui.settings import Settings

    settings = Settings(tmp_path / "kept.json")
    first = MainWindow(settings=settings, recovery=RecoveryStore(tmp_path / "r.json"))
    qtbot.addWidget(first)
    first.runs.live_action.setChecked(True)
    first.graph_pane.upward_action.setChecked(True)
    first.show()
    first.splitters["main"].setSizes([300, 900])
    sizes = first.splitters["main"].sizes()
    first.close()
    # (window geometry is saved too; the offscreen platform does not apply it faithfully)
    assert settings.value("geometry") is not None
    second = MainWindow(settings=settings, recovery=RecoveryStore(tmp_path / "r.json"))
    qtbot.addWidget(second)
    second.show()
    assert second.runs.live_action.isChecked() and second.graph_pane.upward_action.isChecked()
    left, right = second.splitters["main"].sizes()  # the window's width may differ offscreen
    assert abs(left / (left + right) - sizes[0] / sum(sizes)) < 0.02


def test_the_palette_builds_a_working_script(qtbot, window):
    from playground.ui.menus import SNIPPETS

    window.editor.setPlainText("import torch\n")
    cursor = window.editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    window.editor.setTextCursor(cursor)
    for _, snippet in SNIPPETS[:4]:
        window.menus.insert_snippet(snippet)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        window.runs.run_all()
    assert finished.args[0].output == "tensor([4., 6., 8.])\n"


def test_the_palettes_model_and_training_step_run(qtbot, window):
    from playground.ui.menus import SNIPPETS

    window.editor.setPlainText("import torch\n")
    cursor = window.editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    window.editor.setTextCursor(cursor)
    for _, snippet in SNIPPETS[-2:]:
        window.menus.insert_snippet(snippet)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        window.runs.run_all()
    result = finished.args[0]
    assert result.error is None
    labels = {node.label for node in result.graph.nodes}
    assert {"AddmmBackward0", "model.0.weight", "model.2.bias", "loss"} <= labels


def test_completion_offers_the_live_namespace_and_torch(qtbot, window):
    ran(qtbot, window, "import torch\nweights = torch.ones(2, requires_grad=True)\n")
    qtbot.waitUntil(lambda: not window.runner.busy)

    def names() -> list[str]:
        return [name for name, _ in window.runs.complete("weights.requires_gr", 1, 19)]

    # completion is best effort: while jedi warms up (seconds on a cold cache) it may be []
    qtbot.waitUntil(lambda: "requires_grad" in names(), timeout=30000)
    assert "requires_grad_" in names()
    window.editor.setPlainText("torch")
    cursor = window.editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    window.editor.setTextCursor(cursor)
    qtbot.keyClick(window.editor, ".")
    qtbot.waitUntil(lambda: window.editor.completer.popup().isVisible(), timeout=15000)
    shown = window.editor.completion_model.stringList()
    assert "tensor" in shown and "autograd" in shown


def test_cuda_cannot_be_chosen_where_there_is_none(qtbot, window):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        window.runs.engine_box.setCurrentIndex(1)
    box = window.runs.device_box
    cuda = box.model().item(box.findData("cuda"))
    assert box.isEnabled() and not cuda.isEnabled()
    assert "CPU" in cuda.toolTip()  # says why, and where torch runs instead
    assert window.runner.kernel.engine == "torch" and box.currentData() == "auto"


def test_tab_comment_and_find_on_selections(qtbot, window):
    from PySide6.QtCore import Qt

    editor = window.editor
    editor.setPlainText("a = 1\nb = 2\nc = 3\n")
    editor.selectAll()
    qtbot.keyClick(editor, "\t")
    assert editor.toPlainText() == "    a = 1\n    b = 2\n    c = 3\n"
    editor.selectAll()
    qtbot.keyClick(editor, Qt.Key.Key_Backtab)
    assert editor.toPlainText() == "a = 1\nb = 2\nc = 3\n"
    editor.selectAll()
    editor.toggle_comment()
    assert editor.toPlainText() == "# a = 1\n# b = 2\n# c = 3\n"
    editor.toggle_comment()
    assert editor.toPlainText() == "a = 1\nb = 2\nc = 3\n"
    editor.undo()
    assert editor.toPlainText().startswith("# a")
    assert editor.find("c = 3") and editor.textCursor().selectedText() == "c = 3"


def test_the_console_keeps_the_last_runs_and_a_run_all_cells_as_one(qtbot):
    from playground.ui.console import KEPT_RUNS, Console

    console = Console()
    qtbot.addWidget(console)
    for number in range(KEPT_RUNS + 5):
        console.begin_run(f"Run {number}")
        console.write("stdout", f"printed by run {number}\n")
    console.begin_run("Cell 1 of 3")
    for cell in (2, 3):
        console.begin_run(f"Cell {cell} of 3", continues=True)
        console.write("stdout", f"printed by cell {cell}\n")
    console.flush()
    text = console.toPlainText()
    assert console.run_count() == KEPT_RUNS
    assert text.startswith("── Run 6 ──\nprinted by run 6\n")
    assert "Run 5 ──" not in text
    assert text.endswith("── Cell 3 of 3 ──\nprinted by cell 3\n")


def test_a_view_that_fails_is_reported_in_the_window_and_the_others_go_on(qtbot, window):
    from playground.model import view_state

    def broken(_result) -> None:
        raise ValueError("drawing went wrong")

    window.view_state.events.result.connect(broken)
    with qtbot.waitSignal(window.runner.finished, timeout=60_000):
        window.runs.run_all()
    qtbot.waitUntil(lambda: "[done in" in window.console.toPlainText(), timeout=10_000)
    assert "A view failed to update: " in window.statusBar().currentMessage()
    assert "drawing went wrong" in window.console.toPlainText()
    assert any("drawing went wrong" in line for line in view_state.FAILURES)
    view_state.FAILURES.clear()  # expected here: the suite's own check must not fail it


def test_a_closed_view_is_no_longer_called(qtbot):
    from PySide6.QtWidgets import QApplication

    from playground.model import RunResult
    from playground.model.view_state import ViewState
    from playground.ui.console import Console

    state = ViewState()
    console = Console(state)
    followed = len(state.events.output._callbacks)
    console.deleteLater()
    qtbot.waitUntil(lambda: len(state.events.output._callbacks) == followed - 1)
    QApplication.processEvents()
    state.add_output("stdout", "nobody listens\n")  # a deleted console would raise here
    state.show_result(RunResult("numpy"))


class _Events(QObject):
    """Counts the events of some kinds that reach the widgets it watches."""

    def __init__(self, kinds, *widgets) -> None:
        super().__init__()
        self.kinds, self.seen = kinds, []
        for widget in widgets:
            widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() in self.kinds:
            self.seen.append((watched, event.type()))
        return False


def test_a_rerun_that_draws_the_same_graph_repaints_nothing_of_it(qtbot, window):
    """Run again, unchanged: the graph keeps its boxes, its zoom and its map, so nothing of
    it is painted again and the player's call selector stays put (it hid and showed at each
    run, laying out the graph's pane). An edit that changes a number repaints the graph with
    the new text, and leaves it its size (the player bar kept its height without the
    selector, which an edit hides until the run's calls come)."""
    code = ("import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
            "for _ in range(3):\n    (x * 3).sum().backward()\n")
    graph = window.graph_pane.view

    def settled() -> None:
        qtbot.waitUntil(lambda: not graph.busy and not window.view_state.traces_coming,
                        timeout=RUN_MS)
        qtbot.wait(100)

    ran(qtbot, window, code)
    settled()
    painted = _Events({QEvent.Type.Paint}, graph.viewport(), graph.overview)
    shown = _Events({QEvent.Type.Hide, QEvent.Type.Show}, window.graph_pane.player.calls)
    ran(qtbot, window)
    settled()
    assert painted.seen == [] and shown.seen == []
    assert window.graph_pane.player.calls.isVisible()
    resized = _Events({QEvent.Type.Resize}, graph)
    ran(qtbot, window, code.replace("x * 3", "x * 4"))
    settled()
    assert (graph.viewport(), QEvent.Type.Paint) in painted.seen and resized.seen == []
    assert any(line == "grad [12.0, 12.0]" for item in graph.current.nodes.values()
               for line in item.look.lines)
