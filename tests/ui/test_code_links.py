"""Graph ↔ code in the window: a clicked node marks the line that made it, the cursor's line
outlines its nodes, the inspector quotes the line and an unnamed node shows its expression."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.ui.test_journeys import press_run_all, settled
from tests.windows import RUN_MS

CHAIN = """import torch

a = torch.tensor([2.0], requires_grad=True)
w1 = torch.tensor([3.0], requires_grad=True)
w2 = torch.tensor([-1.0], requires_grad=True)
w3 = torch.tensor([4.0], requires_grad=True)
w4 = torch.tensor([0.5], requires_grad=True)
b = w1 * a
c = w2 * a
d = w3 * b + w4 * c


def half_square(value):
    return (value ** 2).sum() / 2


L = half_square(d)
L.backward()
print(a.grad)
"""
LINE_OF_D = 10


def _item(view, first_line: str, second_line: str):
    return next(item for item in view.current.nodes.values()
                if item.look.lines[:2] == [first_line, second_line])


def _put_cursor_on(qtbot, window, line: int) -> None:
    """Ctrl+Home, then Down to the line, as a person would."""
    editor = window.editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(line - 1):
        qtbot.keyClick(editor, Qt.Key.Key_Down)


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_a_node_and_its_line_point_at_each_other(qtbot, window, engine, tmp_path):
    window.editor.setPlainText(CHAIN)
    if engine == "torch":  # switching runs the text again
        pytest.importorskip("torch")
        with qtbot.waitSignal(window.runner.finished, timeout=RUN_MS):
            window.runs.engine_box.setCurrentIndex(window.runs.engine_box.findData("torch"))
        qtbot.waitUntil(lambda: settled(window), timeout=RUN_MS)
    else:
        press_run_all(qtbot, window)
    assert "tensor([264.5000])" in window.console.toPlainText()  # d·(w3·w1 + w4·w2)
    view, editor = window.graph_view, window.editor
    # an unnamed intermediate says which expression made it
    product = _item(view, "MulBackward0", "w3 * b")
    assert _item(view, "PowBackward0", "value ** 2")  # made inside the user's function
    # click it: its line is marked in the editor, in view; the inspector quotes the line
    editor.verticalScrollBar().setValue(editor.verticalScrollBar().maximum())
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     pos=view.mapFromScene(product.sceneBoundingRect().center()))
    assert editor.linked_line == LINE_OF_D
    marked = [s.cursor.blockNumber() + 1 for s in editor.extraSelections()]
    assert LINE_OF_D in marked
    shown = window.inspector.toPlainText()
    assert "made at\nline 10: d = w3 * b + w4 * c\nexpression\nw3 * b" in shown
    block = editor.document().findBlockByNumber(LINE_OF_D - 1)
    top = editor.blockBoundingGeometry(block).translated(editor.contentOffset()).top()
    assert 0 <= top < editor.viewport().height()
    # the mouse over another node marks its line; leaving goes back to the selected one's
    other = _item(view, "MulBackward0", "w1 * a")
    qtbot.mouseMove(view.viewport(), view.mapFromScene(other.sceneBoundingRect().center()))
    qtbot.waitUntil(lambda: editor.linked_line == 8, timeout=2000)
    qtbot.mouseMove(view.viewport(), view.mapFromScene(view.current.bounds().topLeft()) -
                    view.mapFromScene(view.current.bounds().topLeft()) + view.rect().topLeft())
    qtbot.waitUntil(lambda: editor.linked_line in (LINE_OF_D, 8), timeout=2000)
    # the cursor on a line outlines the nodes it made: b and its MulBackward0
    _put_cursor_on(qtbot, window, 8)
    outlined = {item.look.lines[0] for item in view.current.nodes.values() if item.linked}
    assert outlined == {"b", "MulBackward0"}
    _put_cursor_on(qtbot, window, LINE_OF_D)
    outlined = sorted(tuple(item.look.lines[:2]) for item in view.current.nodes.values()
                      if item.linked)
    assert outlined == [("AddBackward0", "w3 * b + w4 * c"), ("MulBackward0", "w3 * b"),
                        ("MulBackward0", "w4 * c"), ("d", "(1)")]
    window.grab().save(str(tmp_path / f"code_links_{engine}.png"))
    # a run again keeps the outline of the cursor's line on the new graph
    press_run_all(qtbot, window)
    assert sum(item.linked for item in view.current.nodes.values()) == 4
