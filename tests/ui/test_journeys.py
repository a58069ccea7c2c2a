"""A newcomer's first minutes in the real window, driven with key events, checked on screen.

Each test follows what a person does (type, Ctrl+Enter, read the graph and the plots, step the
replay, open a notebook, Run all cells, switch engine, export, open another file) and asserts
what the window shows: the text on the nodes, the points in the plots, what is inside the
viewport, what is gone after New or Open.
"""

from __future__ import annotations

import json
import re
import time

import nbformat
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QFontInfo, QWheelEvent
from PySide6.QtWidgets import QApplication

from playground.ui.document import EXAMPLES
from playground.ui.graph_fit import READABLE_TEXT_PX
from playground.ui.graph_items import Callout, NodeItem
from playground.ui.graph_look import label_fonts
from tests.windows import RUN_MS
from tools.tour import TYPED

KEY_DELAY_MS = 3  # between typed characters: a fast typist, still one event at a time


def type_code(qtbot, window, lines: list[str]) -> None:
    """Select all, then type the lines as a person would (no indented lines: the editor
    indents after a colon by itself)."""
    editor = window.editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    for line in lines:
        qtbot.keyClicks(editor, line, delay=KEY_DELAY_MS)
        qtbot.keyClick(editor, Qt.Key.Key_Return)


def settled(window) -> bool:
    """The run is over and every view shows it: the graph, the player's calls and the plots
    (drawn in the frame after the graph's)."""
    return (not window.runner.busy and window.runs.run_action.isEnabled()
            and window.graph_view.current is not None and not window.graph_view.busy
            and window.plots is not None and not window.plots.drawing_due
            and not window.view_state.traces_coming)


def press_run_all(qtbot, window) -> None:
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)


def run_on(qtbot, window, engine: str, code: str) -> None:
    """``code`` in the editor, run on ``engine`` (the numpy engine by Ctrl+Enter; choosing
    the torch engine runs the text again by itself)."""
    window.editor.setPlainText(code)
    if engine == "torch":
        pytest.importorskip("torch")
        with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
            window.runs.engine_box.setCurrentIndex(window.runs.engine_box.findData("torch"))
        qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)
    else:
        press_run_all(qtbot, window)


def open_with_dialog(qtbot, window, path, monkeypatch) -> None:
    """File → Open, the dialog answered with ``path``."""
    monkeypatch.setattr(window.document, "ask_path", lambda saving: str(path))
    qtbot.keyClick(window.editor, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)


def leaf_lines(window) -> dict[str, list[str]]:
    """Each leaf's text on screen, by its variable name."""
    view = window.graph_view
    return {item.look.lines[0]: list(item.look.lines) for item in view.current.nodes.values()
            if item.look.kind == "leaf"}


def inside_viewport(window, item) -> bool:
    return window.graph_view.visible_rect().contains(item.sceneBoundingRect())


FIRST_SCRIPT = TYPED  # the tour's first script: the screenshots show this journey


def test_after_a_run_leaves_show_the_grads_the_console_printed(qtbot, window, tmp_path,
                                                               monkeypatch):
    type_code(qtbot, window, FIRST_SCRIPT)
    press_run_all(qtbot, window)
    console = window.console.toPlainText()
    assert "tensor([12., -6.,  3.]) tensor([3.])" in console
    leaves = leaf_lines(window)
    assert leaves["w"][-1] == "grad [12.0, -6.0, 3.0]"
    assert leaves["b"][-1] == "grad [3.0]"
    # nothing washed out: no node is in a replay state, so colours match the legend
    assert window.graph_view.snapshot()["states"] == {}
    assert window.player.playback is None
    # the plots hold every point: values against the final gradients
    series = {s.name: s for s in window.plots.series}
    points = window.plots.items[series["w"].node_id].getData()
    assert points[0].tolist() == [2.0, -1.0, 0.5] and points[1].tolist() == [12.0, -6.0, 3.0]
    # the inspector agrees with the node
    window.graph_view.select([window.view_state.graph.by_name("w").id])
    assert "[12., -6.,  3.]" in window.inspector.toPlainText().replace("\n", " ") or \
        "12." in window.inspector.toPlainText()
    # File → Export graph writes what is on screen: the final gradients
    target = tmp_path / "graph.json"
    monkeypatch.setattr(window.exports, "ask_export_path", lambda *a: str(target))
    qtbot.keyClick(window.editor, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    exported = json.loads(target.read_text())
    grads = {n["names"][0]: n["grad"] for n in exported["nodes"] if n.get("names")}
    assert grads["w"]["values"] == [12.0, -6.0, 3.0]


def test_the_replay_starts_when_asked_follows_the_running_node_and_ends_final(qtbot, window):
    window.document.open_example(EXAMPLES / "04_chain_rule.py")
    press_run_all(qtbot, window)
    view = window.graph_view
    final = leaf_lines(window)
    assert final["w1"][-1] == "grad [-36.0]"
    view.setFocus()
    count = window.view_state.calls_count_of_current()
    nodes = [i for i in view.current.nodes.values() if isinstance(i, NodeItem)]
    for step in range(1, count + 1):
        qtbot.keyClick(view, Qt.Key.Key_Right)
        qtbot.wait(20)
        state = window.view_state.step_state()
        assert state.position == step
        running = view.node_item(state.running)
        assert inside_viewport(window, running), f"step {step}: the running node is off screen"
        callouts = [label for label in view._labels if isinstance(label, Callout)]
        assert callouts and inside_viewport(window, callouts[0])
        box = callouts[0].mapRectToScene(callouts[0].box())
        covered = [n.look.lines[0] for n in nodes if box.intersects(n.sceneBoundingRect())]
        assert not covered, f"step {step}: the explanation covers {covered}"
    # one more → ends the replay: the final state is back
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert window.player.playback is None and leaf_lines(window) == final
    assert view.snapshot()["states"] == {}


def test_a_new_graph_is_fitted_whole_and_a_rerun_keeps_the_users_zoom(qtbot, window):
    type_code(qtbot, window, ["import torch", "x = torch.ones(2, requires_grad=True)",
                              "y = (x * 3).sum()", "y.backward()"])
    press_run_all(qtbot, window)
    view = window.graph_view
    assert all(inside_viewport(window, item) for item in view.current.nodes.values())
    # the user zooms in with the wheel, and runs the same code again: the zoom stays
    centre = QPointF(view.viewport().rect().center())
    wheel = QWheelEvent(centre, view.mapToGlobal(centre), QPoint(0, 0), QPoint(0, 480),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), wheel)
    zoomed = view.transform().m11()
    press_run_all(qtbot, window)
    assert view.transform().m11() == pytest.approx(zoomed)
    # new code, a new structure: the whole graph again, leaves included
    type_code(qtbot, window, ["import torch", "x = torch.ones(2, requires_grad=True)",
                              "w = torch.ones(2, requires_grad=True)",
                              "y = (x * w + x).sum()", "y.backward()"])
    press_run_all(qtbot, window)
    assert all(inside_viewport(window, item) for item in view.current.nodes.values())
    assert {"x", "w"} <= set(leaf_lines(window))


SEQUENTIAL = [
    "import torch",
    "from torch import nn",
    "torch.manual_seed(0)",
    "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), "
    "nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 8), nn.ReLU(), "
    "nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))",
    "x = torch.randn(16, 4)",
    "hidden = [model[:k](x) for k in range(1, len(model) + 1)]",
    "loss = (model(x) ** 2).mean() + sum(h.abs().mean() for h in hidden)",
    "loss.backward()",
]


def test_a_large_graph_has_readable_text_on_every_node_in_view(qtbot, window):
    type_code(qtbot, window, SEQUENTIAL)
    press_run_all(qtbot, window)
    view = window.graph_view
    assert len(view.current.nodes) >= 80  # its modules collapsed (model.0 … model.14)
    shown = view.text_on_screen()
    assert shown and all(lines for lines in shown.values()), "a node in view has no text"
    # a graph too large to read whole says there is more: the overview frames the view
    if not view.visible_rect().contains(view.current.bounds()):
        assert view.overview.isVisible()


def test_the_deep_network_example_shows_labels_overview_and_follows_the_player(qtbot, window):
    window.document.open_example(EXAMPLES / "08_deep_network.py")
    press_run_all(qtbot, window)
    view = window.graph_view
    assert len(view.current.nodes) > 250
    shown = view.text_on_screen()
    assert len(shown) > 10 and all(len(lines) >= 3 or item_is_function(view, node)
                                   for node, lines in shown.items())
    assert view.overview.isVisible()
    loss = view.node_item(window.view_state.graph.by_name("loss").id)
    assert inside_viewport(window, loss)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_End)  # the last step: an AccumulateGrad far down
    state = window.view_state.step_state()
    assert state.position == state.count
    assert inside_viewport(window, view.node_item(state.running))


def item_is_function(view, node_id: str) -> bool:
    return view.node_item(node_id).look.kind in ("function", "accumulate")


def _notebook(path, cells: list[str]) -> None:
    book = nbformat.v4.new_notebook()
    book.cells = [nbformat.v4.new_markdown_cell("Two backward calls, one per cell.")] + \
        [nbformat.v4.new_code_cell(source) for source in cells]
    path.write_text(nbformat.writes(book), encoding="utf-8")


def test_run_all_cells_offers_every_backward_call_of_every_cell(qtbot, window, tmp_path,
                                                                  monkeypatch):
    lesson = tmp_path / "lesson.ipynb"
    _notebook(lesson, ["import torch\nx = torch.tensor([1.0, 2.0], requires_grad=True)",
                       "y = (x * x).sum()\ny.backward()\nx.grad",
                       "z = (x * 3).sum()\nz.backward()\nprint(x.grad)",
                       "q = x.exp().sum()\nq.backward()\nprint(x.grad)"])
    open_with_dialog(qtbot, window, lesson, monkeypatch)
    assert window.document.path == lesson and window.console.toPlainText() == ""
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: not window.runs._cell_queue and settled(window), timeout=RUN_MS)
    texts = [window.player.calls.itemText(i) for i in range(window.player.calls.count())]
    assert len(texts) == 3, texts
    assert ["cell 2" in texts[0], "cell 3" in texts[1], "cell 4" in texts[2]] == [True] * 3
    assert "no backward" not in window.player.counter.text()
    # the first call replays on the graph of its own cell
    window.player.calls.setCurrentIndex(0)
    window.graph_view.setFocus()
    qtbot.keyClick(window.graph_view, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: not window.graph_view.busy, timeout=RUN_MS)
    assert window.view_state.graph.by_name("y") is not None
    assert window.player.counter.text().startswith("step 1 of")


def test_a_training_loop_offers_its_first_latest_and_sampled_backward_calls(qtbot, window):
    type_code(qtbot, window, [
        "import torch",
        "w = torch.tensor([0.5, -0.3], requires_grad=True)",
        "for step in range(200):",
        "loss = ((w * 2 - 1) ** 2).sum()",
        "loss.backward()",
        "with torch.no_grad():",
        "w -= 0.1 * w.grad",
        "w.grad.zero_()",
    ])
    press_run_all(qtbot, window)
    listed = [window.player.calls.itemText(i) for i in range(window.player.calls.count())]
    numbers = [int(text.split(" of ")[0]) for text in listed]
    assert all(" of 200: backward() from " in text for text in listed)
    # the first iterations, a sample spread over the loop, and the last (a short loop is
    # recorded whole: the calls drawn on the graph the variables hold)
    assert numbers[:3] == [1, 2, 3] and numbers == sorted(set(numbers))
    assert 10 <= len(numbers) <= 25 and listed[-1].startswith("200 of 200: backward() from loss")
    assert max(b - a for a, b in zip(numbers[3:], numbers[4:], strict=False)) <= 40
    assert "sample" in window.player.calls.toolTip()
    # the 1st iteration's replay shows its own gradient, not the last one's
    window.player.calls.setCurrentIndex(0)
    window.graph_view.setFocus()
    qtbot.keyClick(window.graph_view, Qt.Key.Key_End)
    leaf = window.view_state.graph.by_name("w").id
    assert window.view_state.step_state().leaf_grads[leaf].values.tolist() == \
        pytest.approx([0.0, -6.4])


def test_new_open_and_examples_leave_nothing_of_the_previous_file(qtbot, window, tmp_path,
                                                                   monkeypatch):
    type_code(qtbot, window, FIRST_SCRIPT)
    press_run_all(qtbot, window)

    def nothing_left() -> None:
        assert window.graph_view.current is None and window.graph_view.message.isVisible()
        assert window.console.toPlainText() == ""
        assert window.plots.series == []
        assert window.player.calls.count() == 0 and window.player.playback is None
        assert not window.player.play_button.isEnabled()

    window.editor.document().setModified(False)
    qtbot.keyClick(window.editor, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    nothing_left()
    type_code(qtbot, window, FIRST_SCRIPT)
    press_run_all(qtbot, window)
    other = tmp_path / "other.py"
    other.write_text("print('never run on opening')\n")
    monkeypatch.setattr(window.document, "ask_unsaved", lambda: "discard")
    open_with_dialog(qtbot, window, other, monkeypatch)
    nothing_left()
    type_code(qtbot, window, FIRST_SCRIPT)
    press_run_all(qtbot, window)
    window.document.open_example(EXAMPLES / "01_basics.py")
    nothing_left()


def test_switching_engine_keeps_the_window_painting(qtbot, window):
    ticks: list[float] = []
    timer = QTimer(interval=50, timeout=lambda: ticks.append(time.monotonic()))
    timer.start()
    type_code(qtbot, window, ["import torch", "x = torch.ones(2, requires_grad=True)",
                              "(x * 2).sum().backward()", "print(x.grad)"])
    started = time.monotonic()
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        window.runs.engine_box.setCurrentIndex(window.runs.engine_box.findData("torch"))
        assert "Starting the torch engine" in window.runs.engine_label.text()
        assert not window.runs.engine_box.isEnabled()
    switched = time.monotonic() - started
    timer.stop()
    during = [t for t in ticks if t >= started]
    gaps = [b - a for a, b in zip([started, *during], during, strict=False)]
    assert len(during) >= switched / 0.05 * 0.5, "the window stopped painting"
    assert max(gaps) < 0.5, f"the window froze for {max(gaps):.2f} s"
    qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)
    assert window.runner.kernel.engine == "torch" and window.runs.engine_box.isEnabled()
    assert window.runs.engine_label.text().startswith("torch ")
    assert leaf_lines(window)["x"][-1] == "grad [2.0, 2.0]"


def test_a_syntax_error_quotes_the_editor_not_the_file_on_disk(qtbot, window, tmp_path,
                                                                 monkeypatch):
    script = tmp_path / "saved.py"
    script.write_text("import torch\nx = torch.ones(2)\nprint(x)\n")
    open_with_dialog(qtbot, window, script, monkeypatch)
    cursor = window.editor.textCursor()
    cursor.movePosition(cursor.MoveOperation.End)
    window.editor.setTextCursor(cursor)
    qtbot.keyClicks(window.editor, "y = (x +", delay=KEY_DELAY_MS)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert finished.args[0].error.kind == "syntax"
    console = window.console.toPlainText()
    assert "y = (x +" in console and "print(x)\n    ^" not in console
    # a notebook: the cell's line, never a line of the notebook's JSON
    book = tmp_path / "broken.ipynb"
    _notebook(book, ["import torch", "z = torch.ones(2) *"])
    open_with_dialog(qtbot, window, book, monkeypatch)
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS) as finished:
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert "z = torch.ones(2) *" in window.console.toPlainText()
    assert '"source"' not in finished.args[0].error.traceback


def test_rerunning_all_cells_quickly_raises_nothing(qtbot, window):
    window.document.open_example(EXAMPLES / "04_chain_rule.py")
    for _ in range(4):  # each re-run lands while the last graph's nodes still glide
        with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
            qtbot.keyClick(window.editor, Qt.Key.Key_Return,
                           Qt.KeyboardModifier.ControlModifier
                           | Qt.KeyboardModifier.ShiftModifier)
        qtbot.waitUntil(lambda: not window.runs._cell_queue and not window.runner.busy,
                        timeout=RUN_MS)
        qtbot.wait(30)
    qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)  # pytest-qt fails on any error
    assert re.search(r"grad \[-36\.0\]", " ".join(" ".join(v) for v in
                                                   leaf_lines(window).values()))


def test_every_point_of_a_tensor_is_plotted_and_a_million_as_a_density(qtbot, window):
    type_code(qtbot, window, [
        "import torch",
        "small = torch.linspace(-2, 2, 5000, requires_grad=True)",
        "big = torch.randn(1000000, requires_grad=True)",
        "(small ** 2).sum().backward()",
        "(big * big * big).sum().backward()",
    ])
    press_run_all(qtbot, window)
    qtbot.waitUntil(lambda: window.plots is not None and len(window.plots.series) == 2,
                    timeout=RUN_MS)
    plots = window.plots
    small, big = plots.series
    # 5,000 elements: each one a point, value against gradient (2x)
    x, y = plots.items[small.node_id].getData()
    assert len(x) == 5000 and y == pytest.approx(2 * x, rel=1e-5)
    # a million: a density image of all of them, in the plot's view
    assert big.title == "big (1000000) · density of 1,000,000 points"
    assert int(big.density.counts.sum()) == 1_000_000
    image = plots.images[big.node_id]
    assert (image.image[..., 3] > 0).sum() == (big.density.counts > 0).sum()

    def density_in_view() -> bool:  # the view fits the image once it is drawn
        (left, right), (bottom, top) = plots.plots[1].viewRange()
        return left <= big.density.x_range[0] and right >= big.density.x_range[1] and \
            bottom <= big.density.y_range[0] and top >= big.density.y_range[1]

    qtbot.waitUntil(density_in_view, timeout=5000)
    # the gradient of w³ is 3w²: never negative, largest at the ends
    assert big.density.y_range[0] >= 0.0


def test_matplotlib_figures_come_to_the_figures_pane_to_zoom_copy_and_save(qtbot, window,
                                                                          tmp_path):
    """A person types a script that plots tanh and its gradient, shows it, then plots a
    million points: the Figures tab comes forward with both figures, in order, fitted to the
    pane; 1:1 shows the first at its own size; Copy puts it on the clipboard; it saves as the
    kernel's PNG and SVG."""
    type_code(qtbot, window, [
        "import torch",
        "import matplotlib.pyplot as plt",
        "x = torch.linspace(-3, 3, 100, requires_grad=True)",
        "torch.tanh(x).sum().backward()",
        "fig, ax = plt.subplots(1, 2, figsize=(12, 4))",
        "ax[0].plot(x.detach(), torch.tanh(x).detach())",
        "ax[1].plot(x.detach(), x.grad)",
        "plt.show()",
        "plt.plot(range(1000000))",
    ])
    press_run_all(qtbot, window)
    qtbot.waitUntil(lambda: window.figures is not None and len(window.figures.cards) == 2,
                    timeout=RUN_MS)
    assert window.views.currentWidget() is window.figures_page
    first, second = window.figures.cards
    qtbot.waitUntil(lambda: not first.image.isNull() and not second.image.isNull(),
                    timeout=5000)
    assert [card.figure.title for card in (first, second)] == ["Figure 1", "Figure 2"]
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Figures (2)"
    pane = window.figures.viewport()
    width, height = first.figure.pixel_size
    natural = round(width / first.figure.scale)
    fitted = first.shown_size
    assert natural > pane.width()  # a 12-inch figure is wider than the pane: shrunk to fit
    assert fitted[0] <= pane.width() and fitted[1] <= pane.height()  # seen whole
    assert fitted[0] > pane.width() // 3
    qtbot.mouseClick(first.zoom_button, Qt.MouseButton.LeftButton)
    assert first.shown_size == (natural, round(height / first.figure.scale))
    assert first.zoom_button.isChecked()
    qtbot.mouseClick(first.zoom_button, Qt.MouseButton.LeftButton)
    assert first.shown_size == fitted and not first.zoom_button.isChecked()
    qtbot.mouseClick(first.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().image().size() == first.image.size()
    assert first.save(tmp_path / "tanh.png").read_bytes() == first.figure.png
    # the SVG comes from the kernel after the result (drawing it would delay the picture)
    qtbot.waitUntil(lambda: first.figure.svg is not None, timeout=RUN_MS)
    first._offer_svg()
    assert first.svg_action.isEnabled() and first.svg_action.text() == "Save as SVG…"
    assert first.save(tmp_path / "tanh.svg").read_bytes().startswith(b"<?xml")
    second._offer_svg()  # a million points: PNG only, and the menu says why
    assert not second.svg_action.isEnabled()
    assert second.svg_action.text() == ("SVG: with 1,000,000 points its SVG would take "
                                        "long to make")
    window.figures_page.grab().save(str(tmp_path / "figures.png"))
    # a run that draws no figure: the plots come back to the front, the tab says none
    type_code(qtbot, window, ["import torch", "x = torch.ones(3, requires_grad=True)",
                              "(x * 2).sum().backward()"])
    press_run_all(qtbot, window)
    qtbot.waitUntil(lambda: window.tabs.currentIndex() == 0, timeout=5000)
    assert window.tabs.tabText(window.tabs.indexOf(window.figures_page)) == "Figures"



def test_the_graph_comes_before_the_figures_and_stop_ends_their_drawing(qtbot, window):
    """matplotlib draws after the script: the graph and the console are there while a slow
    figure is still being drawn, the status bar says so, Run stays on and Stop ends the
    drawing, saying so; the Figures tab then shows none."""
    type_slow_figure(qtbot, window, "Slow", ["time.sleep(60)"], ["print('plotted')"])
    press_run_all(qtbot, window)
    assert leaf_lines(window)["w"][-1] == "grad [2.0, 4.0]"
    assert "plotted" in window.console.toPlainText()
    assert window.statusBar().currentMessage().endswith("· drawing 1 figure…")
    assert window.runs.stop_action.isEnabled() and window.runs.run_action.isEnabled()
    qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.runs.stop_action.isEnabled(), timeout=RUN_MS)
    assert "(stopped: the figures were not drawn)" in window.console.toPlainText()
    assert window.statusBar().currentMessage().startswith("Done in ")
    assert window.tabs.tabText(window.tabs.indexOf(window.figures_page)) == "Figures"
    press_run_all(qtbot, window)  # the kernel is free again: the same script runs at once
    assert window.statusBar().currentMessage().endswith("· drawing 1 figure…")
    qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.runs.stop_action.isEnabled(), timeout=RUN_MS)


def test_a_figure_that_ignores_stop_ends_its_kernel_and_the_next_run_starts_anew(qtbot,
                                                                                 window):
    """A figure whose drawing blocks every signal (a C call that never checks): two seconds
    after Stop the kernel is ended, the console says why, Stop goes off, and Run works on a
    new kernel."""
    type_slow_figure(qtbot, window, "Deaf", [
        "signal.pthread_sigmask(signal.SIG_BLOCK, set(signal.Signals))", "time.sleep(60)"])
    press_run_all(qtbot, window)
    assert window.statusBar().currentMessage().endswith("· drawing 1 figure…")
    qtbot.wait(1000)  # a person reads the result: the drawing has begun (a Stop before it
    started = time.monotonic()  # begins ends it at once, test_the_graph_comes_before_...)
    qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.runs.stop_action.isEnabled(), timeout=RUN_MS)
    assert 2 <= time.monotonic() - started < 20
    said = window.console.toPlainText()
    assert "(the figures did not stop drawing within 2 seconds of Stop, so the kernel was " \
           "ended: the next run starts a new one)" in said
    assert "(stopped: the figures were not drawn)" in said
    assert window.editor.toPlainText().startswith("import signal, time")  # nothing lost
    window.editor.setPlainText("import torch\nw = torch.ones(2, requires_grad=True)\n"
                               "(3 * w).sum().backward()\nprint('a new kernel')\n")
    press_run_all(qtbot, window)
    after = window.console.toPlainText().split("(stopped: the figures were not drawn)")[-1]
    assert "\na new kernel\n[done in " in after
    assert leaf_lines(window)["w"][-1] == "grad [3.0, 3.0]"


def type_slow_figure(qtbot, window, name: str, drawing: list[str],
                     after: tuple[str, ...] = ()) -> None:
    """Type a script whose one figure holds a line of class ``name`` that draws by running
    ``drawing``, after a backward pass over a leaf ``w``; then the ``after`` lines."""
    type_code(qtbot, window, ["import signal, time", "import torch",
                              "import matplotlib.pyplot as plt",
                              "from matplotlib.lines import Line2D",
                              f"class {name}(Line2D):", "def draw(self, renderer):", *drawing])
    qtbot.keyClick(window.editor, Qt.Key.Key_Backspace)  # out of the method
    qtbot.keyClick(window.editor, Qt.Key.Key_Backspace)  # and the class
    type_code_here(qtbot, window, ["w = torch.tensor([1.0, 2.0], requires_grad=True)",
                                   "(w * w).sum().backward()",
                                   f"plt.gca().add_line({name}([0, 1], [0, 1]))", *after])


def type_code_here(qtbot, window, lines: list[str]) -> None:
    """Type the lines where the cursor is, as a person would."""
    for line in lines:
        qtbot.keyClicks(window.editor, line, delay=KEY_DELAY_MS)
        qtbot.keyClick(window.editor, Qt.Key.Key_Return)


def test_what_the_numpy_engine_lacks_runs_on_torch_in_one_click(qtbot, window, monkeypatch):
    """A script stops on what the NumPy engine lacks (computing with meta tensors): a button offers
    torch; one click switches the engine and runs the script there. Without torch
    installed, the console names what is missing and the command that installs torch."""
    from playground.engines.registry import EngineEntry

    type_code(qtbot, window, ["import torch", "x = torch.arange(5.0, requires_grad=True)",
                              "shape_only = x.to('meta')", "print(shape_only.sum())"])
    offer = window.runs.torch_offer
    with monkeypatch.context() as without_torch:
        without_torch.setattr(EngineEntry, "installed", property(lambda entry: False))
        press_run_all(qtbot, window)
    assert not offer.isVisible()
    said = window.console.toPlainText()
    assert ("The NumPy engine lacks computing with meta tensors (device='meta': a shape "
            "without values), and torch is not installed: ") in said
    assert "pip install" in said
    press_run_all(qtbot, window)
    assert offer.isVisible() and "meta tensors" in offer.toolTip()
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.mouseClick(offer, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)
    assert window.runs.engine_box.currentData() == "torch" and not offer.isVisible()
    assert "tensor(..., device='meta', size=(), grad_fn=<SumBackward0>)" in \
        window.console.toPlainText()
    assert window.graph_view.current is not None

CUSTOM_FUNCTION = '''import torch

class Clip(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad):
        x, = ctx.saved_tensors
        out = grad.clone()
        out[x < 0] = 0
        return out

x = torch.tensor([-1.0, 2.0, 3.0], requires_grad=True)
y = Clip.apply(x)
loss = (y * y).sum()
loss.backward()
print(x.grad)
'''


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_a_custom_functions_node_shows_the_backward_the_user_wrote(qtbot, window, engine):
    run_on(qtbot, window, engine, CUSTOM_FUNCTION)
    assert "tensor([0., 4., 6.])" in window.console.toPlainText()
    view = window.graph_view
    item = next(i for i in view.current.nodes.values()
                if isinstance(i, NodeItem) and i.look.lines[0] == "ClipBackward")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(item.sceneBoundingRect().center()))
    shown = window.inspector.toPlainText()
    assert "Clip.backward, as written:" in shown
    assert "out[x < 0] = 0" in shown and "return out" in shown
    # the replay names the node as torch does and says what it sent on
    view.setFocus()
    for _ in range(3):
        qtbot.keyClick(view, Qt.Key.Key_Right)
    assert window.view_state.step_state().title.endswith("ClipBackward")


def test_exports_suggest_the_format_and_folder_used_last(qtbot, window, tmp_path, monkeypatch):
    window.document.open_example(EXAMPLES / "04_chain_rule.py")
    press_run_all(qtbot, window)
    asked = []

    def answer(title, filters, suggested):
        asked.append(suggested)
        return str(tmp_path / f"mine{len(asked)}.png")

    monkeypatch.setattr(window.exports, "ask_export_path", answer)
    qtbot.keyClick(window.editor, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked[0] == "untitled-graph.svg"  # an example is untitled; the first format
    assert (tmp_path / "mine1.png").stat().st_size > 0
    qtbot.keyClick(window.editor, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked[1] == "untitled-graph.png"  # then the one chosen last
    assert window.settings.value("export_folder") == str(tmp_path)


def test_stop_shows_the_graph_made_so_far_and_the_line_it_reached(qtbot, window):
    type_code(qtbot, window, [
        "import torch",
        "w = torch.tensor([1.0, 2.0], requires_grad=True)",
        "loss = (w * w).sum()",
        "loss.backward()",
        "print('looping')",
        "n = 0",
        "while True:",
        "n += 1",
    ])
    with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        # as a person would, Stop once the console says the loop is going (a fixed wait was
        # too short on a slow machine: a completion still held the kernel)
        qtbot.waitUntil(lambda: "looping" in window.console.toPlainText(), timeout=RUN_MS)
        # nothing else can be run meanwhile, Stop can
        assert not any(action.isEnabled() for action in
                       (window.runs.run_action, window.runs.cell_action, window.runs.cells_action))
        assert window.runs.stop_action.isEnabled()
        qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)
    # the tensors made before Stop are drawn, with their gradients
    assert leaf_lines(window)["w"][-1] == "grad [2.0, 4.0]"
    message = window.statusBar().currentMessage()
    assert re.fullmatch(r"The run was interrupted at line [78]\.", message), message
    assert window.runs.cell_action.isEnabled() and window.runs.run_action.isEnabled()


def test_stop_works_while_the_kernel_is_still_busy_completing(qtbot, window):
    """On a slow machine jedi's first completion (after typing ``w.``) takes seconds and holds
    the kernel; Run all then waits for it. Stop meanwhile must end that run, not let it start
    and loop for ever."""
    type_code(qtbot, window, ["import torch", "n = 0", "while True:", "n += 1"])
    with window.runner.kernel._control, \
            qtbot.waitSignal(window.runner.finished, timeout=5_000) as finished:
        # (the kernel's pipe is held as by a completion in progress)
        qtbot.keyClick(window.editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        qtbot.wait(300)
        assert window.runs.stop_action.isEnabled()
        qtbot.keyClick(window.editor, Qt.Key.Key_Period, Qt.KeyboardModifier.ControlModifier)
    assert finished.args[0].error.kind == "interrupted"
    qtbot.waitUntil(lambda: window.runs.run_action.isEnabled(), timeout=RUN_MS)
    assert window.statusBar().currentMessage() == "The run was interrupted."


def test_a_failed_backward_is_replayed_up_to_the_node_it_failed_in(qtbot, window):
    type_code(qtbot, window, [
        "import torch",
        "x = torch.ones(2, requires_grad=True)",
        "y = (x * x).sum()",
        "y.backward()",
        "y.backward()",
    ])
    press_run_all(qtbot, window)
    player = window.player
    calls = [player.calls.itemText(i) for i in range(player.calls.count())]
    assert calls == ["1 of 2: backward() from y", "2 of 2: backward() from y · failed"]
    assert player.counter.text() == "backward() failed at step 2 · F10 replays its 2 steps"
    window.graph_view.setFocus()
    for _ in range(2):  # F10 as a person steps through it
        qtbot.keyClick(window.graph_view, Qt.Key.Key_F10)
        qtbot.wait(150)
    assert player.counter.text() == "step 2 of 2 · MulBackward0 · the call failed here"
    states = {item.look.lines[0]: item.state for item in window.graph_view.current.nodes.values()
              if isinstance(item, NodeItem)}
    assert states["MulBackward0"] == "failed" and states["SumBackward0"] == "done"
    assert "Trying to backward through the graph a second time" in \
        window.inspector.toPlainText()


def test_the_replay_keeps_the_running_node_whole_on_screen_beside_a_long_rule(qtbot, window):
    type_code(qtbot, window, [
        "import torch",
        "from torch.func import grad",
        "def f(x):",
        "return (x ** 3).sum()",
    ])
    qtbot.keyClick(window.editor, Qt.Key.Key_Backspace)  # out of the def's body
    for line in ["x = torch.tensor([1.0, 2.0, 3.0])", "g = grad(f)(x)"]:
        qtbot.keyClicks(window.editor, line, delay=KEY_DELAY_MS)
        qtbot.keyClick(window.editor, Qt.Key.Key_Return)
    press_run_all(qtbot, window)
    view = window.graph_view
    view.setFocus()
    count = window.view_state.calls_count_of_current()
    assert count == 2
    for _ in range(count):
        qtbot.keyClick(view, Qt.Key.Key_F10)
        qtbot.wait(200)
        running = [i for i in view.current.nodes.values() if i.state == "running"]
        assert len(running) == 1 and inside_viewport(window, running[0])
        callout = next(label for label in view._labels if isinstance(label, Callout))
        assert callout.width <= 436  # a long rule wraps instead of running off screen


def test_one_plot_shows_the_replay_step_not_the_final_gradients(qtbot, window):
    window.document.open_example(EXAMPLES / "04_chain_rule.py")
    press_run_all(qtbot, window)
    window.graph_view.setFocus()
    qtbot.keyClick(window.graph_view, Qt.Key.Key_F10)  # step 1: no leaf has its .grad yet
    qtbot.wait(100)
    plots = window.plots

    def points() -> dict[str, int]:
        return {s.name: len(plots.items[s.node_id].getData()[0]) for s in plots.series
                if s.node_id in plots.items}

    separate = points()
    assert separate and not any(separate.values())
    qtbot.mouseClick(plots.combined, Qt.MouseButton.LeftButton)
    assert plots.combined.isChecked() and len(plots.plots) == 1
    assert points() == separate  # still the step's (none), not the final gradients
    window.graph_view.setFocus()  # as a person clicks back into the graph
    qtbot.keyClick(window.graph_view, Qt.Key.Key_Escape)  # the final state: every point back
    qtbot.wait(100)
    assert all(points().values())


def test_two_edges_between_the_same_nodes_are_drawn_apart(qtbot, window):
    type_code(qtbot, window, [
        "import torch",
        "x = torch.tensor([1.0, 2.0], requires_grad=True)",
        "(x * x).sum().backward()",
    ])
    press_run_all(qtbot, window)
    current = window.graph_view.current
    pairs = [items for items in current.edges_between.values() if len(items) == 2]
    assert len(pairs) == 1  # MulBackward0 -> AccumulateGrad, once for each factor
    first, second = pairs[0]
    assert first.route.boundingRect() != second.route.boundingRect()
    assert second.route.boundingRect().width() > 10  # bowed out, not on top of the first


@pytest.mark.parametrize("example", sorted(path.name for path in EXAMPLES.glob("*.py")))
def test_at_1280_by_800_every_examples_graph_is_drawn_with_readable_text(qtbot, window,
                                                                         example):
    window.resize(1280, 800)
    qtbot.waitUntil(lambda: window.width() == 1280, timeout=RUN_MS)
    window.document.open_example(EXAMPLES / example)
    press_run_all(qtbot, window)
    view = window.graph_view
    text_px = QFontInfo(label_fonts()[1]).pixelSize() * view.transform().m11()
    assert text_px >= READABLE_TEXT_PX - 0.01, (example, text_px)
    if example < "06":  # the tutorials' small graphs: all of it at once, leaves included
        assert all(inside_viewport(window, item) for item in view.current.nodes.values())


def test_an_opened_script_imports_its_neighbours_as_under_python(qtbot, window, tmp_path,
                                                                   monkeypatch):
    """A project split in files (nanoGPT's train.py imports model.py): opened and run in
    the window, it finds its neighbour and its own name, as ``python train.py`` would."""
    (tmp_path / "model_parts.py").write_text("import torch\nSCALE = torch.tensor(3.0)\n")
    script = tmp_path / "train.py"
    script.write_text("import os\nimport sys\nimport torch\nfrom model_parts import SCALE\n"
                      "w = torch.tensor(2.0, requires_grad=True)\n(w * SCALE).backward()\n"
                      "print(w.grad, os.path.basename(sys.argv[0]))\n")
    open_with_dialog(qtbot, window, script, monkeypatch)
    press_run_all(qtbot, window)
    assert "tensor(3.) train.py" in window.console.toPlainText()
    assert window.editor.toPlainText() == script.read_text()
