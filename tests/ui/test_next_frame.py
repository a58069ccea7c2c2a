"""Work that waits one frame (ui/next_frame.py): it comes after the window's next paint pass,
so the graph's frame is not held back by the plots; in the window, a run's graph is painted
before its plots."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from playground.ui.next_frame import after_next_frame
from tests.ui.test_journeys import press_run_all, type_code


class Moments(QObject):
    """The order of the watched widgets' paints and of the calls made, as they happen."""

    def __init__(self, widgets: dict[str, QWidget]) -> None:
        super().__init__()
        self.seen: list[str] = []
        self._names = {widget: name for name, widget in widgets.items()}
        for widget in widgets.values():
            widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint:
            self.seen.append(f"paint {self._names[watched]}")
        return False


def _shown_label(qtbot) -> tuple[QWidget, QLabel]:
    window = QWidget()
    label = QLabel("before", window)
    QVBoxLayout(window).addWidget(label)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)  # the first paints are over
    return window, label


def test_a_call_comes_after_the_paint_pass_of_what_changed_before_it(qtbot):
    _window, label = _shown_label(qtbot)
    moments = Moments({"label": label})
    label.setText("after")
    after_next_frame(label, "key", lambda: moments.seen.append("call"))
    assert moments.seen == []  # not at once
    qtbot.waitUntil(lambda: "call" in moments.seen, timeout=1000)
    assert moments.seen[:2] == ["paint label", "call"]


def test_with_nothing_to_paint_the_call_still_comes_within_a_frame_or_two(qtbot):
    _window, label = _shown_label(qtbot)
    calls = []
    after_next_frame(label, "key", lambda: calls.append("call"))
    qtbot.waitUntil(lambda: calls == ["call"], timeout=100)


def test_a_newer_call_of_the_same_key_replaces_the_older_and_other_keys_stay(qtbot):
    _window, label = _shown_label(qtbot)
    calls = []
    after_next_frame(label, "plots", lambda: calls.append("old plots"))
    after_next_frame(label, "plots", lambda: calls.append("new plots"))
    after_next_frame(label, "other", lambda: calls.append("other"))
    qtbot.waitUntil(lambda: len(calls) == 2, timeout=1000)
    qtbot.wait(50)
    assert calls == ["new plots", "other"]


def test_a_view_deleted_before_the_frame_is_not_called(qtbot):
    window, label = _shown_label(qtbot)
    calls = []
    label.setText("after")
    after_next_frame(label, "key", lambda: calls.append("call"))
    label.deleteLater()
    qtbot.wait(100)
    assert calls == [] and window.isVisible()


def test_a_window_not_on_screen_has_the_call_made_at_once(qtbot):
    window = QWidget()
    qtbot.addWidget(window)
    calls = []
    after_next_frame(window, "key", lambda: calls.append("call"))
    assert calls == ["call"]


def test_a_runs_graph_is_painted_in_a_frame_before_its_plots(qtbot, window):
    """Run all: the graph (and the console) reach the screen in one paint pass, and the
    plots, which take as long to paint as the rest of the window, in the pass after."""
    type_code(qtbot, window, ["import torch", "w = torch.tensor([1., 2., 3.], requires_grad=True)",
                              "(w * w).sum().backward()"])
    press_run_all(qtbot, window)
    moments = Moments({"graph": window.graph_view.viewport(),
                       "plots": window.plots.canvas.viewport()})
    type_code(qtbot, window, ["import torch", "v = torch.tensor([5., 1.], requires_grad=True)",
                              "(v * 3).sum().backward()"])
    # what is painted from the result on (the views follow it before any paint)
    window.runner.finished.connect(lambda _result: moments.seen.clear())
    press_run_all(qtbot, window)
    qtbot.waitUntil(lambda: "paint plots" in moments.seen, timeout=1000)
    assert "paint graph" in moments.seen
    assert moments.seen.index("paint graph") < moments.seen.index("paint plots")
    assert [s.name for s in window.plots.series] == ["v"]
