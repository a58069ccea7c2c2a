"""Graph ↔ code in the window: a clicked node marks the line that made it, the cursor's line
outlines its nodes, the inspector quotes the line and an unnamed node shows its expression."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.engines.test_graph_and_trace import PROGRAMS
from tests.ui.test_journeys import press_run_all, run_on
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
    run_on(qtbot, window, engine, CHAIN)
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


SEED_CHAIN = PROGRAMS["seed-style weights"].lstrip("\n")  # the seed's chain rule


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_f10_says_each_step_in_the_users_names_and_numbers(qtbot, window, engine, tmp_path):
    """The seed's chain rule: each step's box reads as the tutorial writes it."""
    run_on(qtbot, window, engine, SEED_CHAIN)
    said = []
    window.editor.setFocus()
    for _ in range(10):
        qtbot.keyClick(window.editor, Qt.Key.Key_F10)
        qtbot.waitUntil(lambda: window.view_state.step_state() is not None and
                        window.view_state.step_state().position == len(said) + 1,
                        timeout=RUN_MS)
        said.append(window.view_state.step_state().explanation)
        if len(said) == 5:  # MulBackward0 for w3 * b: its callout on screen, both terms,
            assert window.editor.linked_line == 7  # and its line marked in the editor
            callout = [text for text, *_ in window.graph_view.snapshot()["labels"]]
            inspector = window.inspector.toPlainText()
            window.grab().save(str(tmp_path / f"step5_{engine}.png"))
    assert said[0] == ["line 8 · RsubBackward1 for L: it receives dL/dL = 1",
                       "dL/dd = -dL/dL = -1 → d"]
    assert "dL/dw3 = dL/d(w3·b) · b = (-1) · 8 = -8 → w3.grad" in said[4]
    assert "dL/db = dL/d(w3·b) · w3 = (-1) · 9 = -9 → b" in said[4]
    assert any("dL/dw3 = dL/d(w3·b) · b" in text for text in callout)
    assert "In your code" in inspector and "grad_self = grad · other" in inspector
    assert "dL/dw2 = dL/dc · a = (-7) · 4 = -28 → w2.grad" in said[6]
    assert said[9] == ["w1.grad = None + (-36) = -36  (dL/dw1 added to what w1.grad held)"]


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_ctrl_click_of_the_loss_and_a_leaf_writes_the_sum_over_paths(qtbot, window, engine,
                                                                      tmp_path):
    """Ctrl+click L, then a: the two paths' products in names and numbers, adding up to
    a.grad."""
    run_on(qtbot, window, engine, SEED_CHAIN.replace("torch.tensor([4.0])",
                                                    "torch.tensor([4.0], requires_grad=True)"))
    view = window.graph_view

    def centre(name: str):
        item = view.node_item(view.graph.by_name(name).id)
        view.ensureVisible(item)
        return view.mapFromScene(item.sceneBoundingRect().center())

    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre("L"))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.ControlModifier, pos=centre("a"))
    shown = window.inspector.toPlainText()
    window.grab().save(str(tmp_path / f"paths_{engine}.png"))
    assert "dL/da = dL/dd · dd/db · db/da + dL/dd · dd/dc · dc/da" in shown
    assert "= (-1) · w3 · w1 + (-1) · w4 · w2" in shown
    assert "= (-1) · 9 · 2 + (-1) · 7 · 5 = -53" in shown
    assert "a.grad = -53: the paths add up to the engine's gradient ✓" in shown
