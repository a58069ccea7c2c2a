"""The window's menus and toolbar: each action bound to the part that does it; the Insert
palette, Go to line, About."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QToolBar,
    QToolButton,
)

from playground.ui.console import Console
from playground.ui.document import EXAMPLES, Document
from playground.ui.editor import CodeEditor
from playground.ui.export_actions import ExportActions
from playground.ui.find_bar import FindBar
from playground.ui.graph_pane import GraphPane
from playground.ui.run_control import RunControl

# The palette: the common steps of an autograd script, for users who don't know the API yet.
SNIPPETS = (
    ("A tensor that requires grad", "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"),
    ("An operation", "y = (x * x + 2 * x).sum()\n"),
    ("Backward", "y.backward()\n"),
    ("Print the gradient", "print(x.grad)\n"),
    ("Without recording", "with torch.no_grad():\n    x -= 0.1 * x.grad\n"),
    ("Zero the gradient", "x.grad.zero_()\n"),
    ("A small model", "model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), "
                      "torch.nn.Linear(4, 1))\n"),
    ("A training step", "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n"
                        "loss = model(torch.randn(8, 3)).pow(2).mean()\n"
                        "optimizer.zero_grad()\nloss.backward()\noptimizer.step()\n"),
)


class Menus:
    """The menu bar and the toolbar: each action bound to the method of the part that owns
    what it does (the document, the runs, the exports, the editor, the graph's player)."""

    def __init__(self, window: QMainWindow, document: Document, runs: RunControl,
                 exports: ExportActions, editor: CodeEditor, find_bar: FindBar,
                 console: Console, graph_pane: GraphPane) -> None:
        self.window, self.document, self.runs, self.exports = window, document, runs, exports
        self.editor, self.find_bar, self.console = editor, find_bar, console
        self.graph_pane = graph_pane
        self._build_file_menu()
        self._build_toolbar()

    def _action(self, text: str, slot, keys=None) -> QAction:
        action = QAction(text, self.window, triggered=slot)
        if keys is not None:
            action.setShortcut(keys)
        return action

    def _build_file_menu(self) -> None:
        document, exports = self.document, self.exports
        file_menu = self.window.menuBar().addMenu("&File")
        for text, keys, slot in (("&New", QKeySequence.StandardKey.New, document.new_file),
                                 ("&Open…", QKeySequence.StandardKey.Open,
                                  lambda: document.open_file()),
                                 ("&Save", QKeySequence.StandardKey.Save, document.save),
                                 ("Save &As…", QKeySequence.StandardKey.SaveAs,
                                  document.save_as)):
            file_menu.addAction(self._action(text, slot, keys))
        file_menu.addMenu(document.recent_menu)
        file_menu.addSeparator()
        file_menu.addAction(self._action("Export &graph…", exports.export_graph,
                                         QKeySequence("Ctrl+E")))
        file_menu.addAction(self._action("Export &plots…", exports.export_plots,
                                         QKeySequence("Ctrl+Shift+E")))
        file_menu.addAction(self._action("Export backward &animation…",
                                         exports.export_animation))
        file_menu.addSeparator()
        # Ctrl+Q spelled out: the standard Quit key is empty on some Linux desktops
        file_menu.addAction(self._action("&Quit", self.window.close, QKeySequence("Ctrl+Q")))
        examples_menu = self.window.menuBar().addMenu("&Examples")
        for number, example in enumerate(sorted(EXAMPLES.glob("*.py")), start=1):
            examples_menu.addAction(f"&{number}  {example_title(example)}",
                                    lambda example=example: document.open_example(example))

    def _build_toolbar(self) -> None:
        window, runs = self.window, self.runs
        toolbar = QToolBar("Run", window)
        toolbar.setMovable(False)
        window.addToolBar(toolbar)
        for action in (runs.run_action, runs.cell_action, runs.stop_action, runs.live_action):
            toolbar.addAction(action)
        toolbar.addSeparator()
        toolbar.addWidget(self._insert_button())
        run_menu = window.menuBar().addMenu("&Run")
        for action in (runs.run_action, runs.cell_action, runs.cells_action, runs.stop_action,
                       runs.restart_action, runs.live_action):
            run_menu.addAction(action)
        self._build_edit_menu()
        view_menu = window.menuBar().addMenu("&View")
        pane = self.graph_pane
        for action in (pane.fit_action, pane.upward_action, pane.fold_action):
            view_menu.addAction(action)
        self._build_replay_menu()
        help_menu = window.menuBar().addMenu("&Help")
        help_menu.addAction(self._action("&Keyboard shortcuts", self.show_shortcuts,
                                         QKeySequence("F1")))
        help_menu.addAction(self._action("&About Autograd Playground", self.about))
        toolbar.addSeparator()
        toolbar.addWidget(QLabel(" Engine: "))
        for widget in (runs.engine_box, runs.device_box, runs.engine_label):
            toolbar.addWidget(widget)

    def _build_replay_menu(self) -> None:
        """Stepping keys that work wherever the focus is, and never type into the editor
        (as a debugger's step keys); in the graph, → ← Space Home End Esc do the same."""
        player = self.graph_pane.player
        menu = self.window.menuBar().addMenu("Re&play")
        for text, keys, slot in (("Step &forward", "F10", lambda: player.step(1)),
                                 ("Step &back", "Shift+F10", lambda: player.step(-1)),
                                 ("&Play / pause", "F8", player.toggle_play),
                                 ("&Final state", "Shift+F8", player.finish)):
            menu.addAction(self._action(text, slot, QKeySequence(keys)))

    def show_shortcuts(self) -> None:
        """Help → Keyboard shortcuts: every action's keys, and the graph's own."""
        from playground.ui.shortcuts import ShortcutSheet

        sheet = ShortcutSheet(self.window.menuBar(), self.window)
        sheet.show()

    def _insert_button(self) -> QToolButton:
        insert = QToolButton(text="Insert",
                             popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        insert.setToolTip("Insert a common step at the cursor")
        palette_menu = QMenu(insert)
        for title, snippet in SNIPPETS:
            palette_menu.addAction(title, lambda snippet=snippet: self.insert_snippet(snippet))
        insert.setMenu(palette_menu)
        return insert

    def _build_edit_menu(self) -> None:
        editor, bar = self.editor, self.find_bar
        edit_menu = self.window.menuBar().addMenu("&Edit")
        edit_menu.addAction(self._action("&Undo", editor.undo, QKeySequence.StandardKey.Undo))
        edit_menu.addAction(self._action("&Redo", editor.redo, QKeySequence.StandardKey.Redo))
        edit_menu.addSeparator()
        edit_menu.addAction(self._action("Toggle &comment", editor.toggle_comment,
                                         QKeySequence("Ctrl+/")))
        for text, keys, slot in (
                ("&Find / replace…", QKeySequence.StandardKey.Find, bar.open_bar),
                ("&Replace…", QKeySequence("Ctrl+H"), bar.open_replace),
                ("Find &next", QKeySequence.StandardKey.FindNext, bar.find_next),
                ("Find &previous", QKeySequence.StandardKey.FindPrevious, bar.find_previous),
                ("&Go to line…", QKeySequence("Ctrl+G"), self.ask_go_to_line),
                ("C&lear the console", QKeySequence("Ctrl+L"), self.console.clear_all)):
            edit_menu.addAction(self._action(text, slot, keys))
        self._build_zoom_actions(edit_menu)

    def ask_go_to_line(self) -> None:
        line = self.ask_line()
        if line is not None and not self.editor.go_to_line(line):
            self.window.statusBar().showMessage(f"The script has no line {line}")
        self.editor.setFocus()

    def ask_line(self) -> int | None:
        """A line number from a small dialog, or None (tests replace this)."""
        count = self.editor.document().blockCount()
        line, accepted = QInputDialog.getInt(self.window, "Go to line", f"Line (1–{count}):",
                                             self.editor.textCursor().blockNumber() + 1, 1,
                                             count)
        return line if accepted else None

    def _build_zoom_actions(self, menu) -> None:
        """Ctrl+= / Ctrl+- / Ctrl+0: the editor's, console's and graph's text, remembered."""
        menu.addSeparator()
        for text, keys, step in (("&Larger text", ("Ctrl+=", "Ctrl++"), 1),
                                 ("&Smaller text", ("Ctrl+-",), -1),
                                 ("&Normal text size", ("Ctrl+0",), 0)):
            action = self._action(text, lambda _=False, step=step: self.window.zoom_text(step))
            action.setShortcuts([QKeySequence(key) for key in keys])
            menu.addAction(action)

    def insert_snippet(self, snippet: str) -> None:
        """Insert on a line of its own at the cursor, keeping the cursor line's indent."""
        cursor = self.editor.textCursor()
        line = cursor.block().text()
        indent = line[: len(line) - len(line.lstrip())]
        if line.strip():
            cursor.movePosition(cursor.MoveOperation.EndOfBlock)
            cursor.insertText("\n")
        cursor.insertText("".join(indent + part for part in snippet.splitlines(True)))
        self.editor.setTextCursor(cursor)
        self.editor.setFocus()

    def about(self) -> None:
        import numpy
        from PySide6 import __version__ as pyside_version

        from playground import __version__

        QMessageBox.about(self.window, "About Autograd Playground",
                          f"<b>Autograd Playground</b> {__version__}<br>Write PyTorch-style code, "
                          "see what autograd builds and does.<br><br>"
                          f"Engine: {self.runs.runner.kernel.description}<br>NumPy "
                          f"{numpy.__version__} · PySide6 {pyside_version} · Python "
                          f"{sys.version.split()[0]}")


def example_title(path: Path) -> str:
    """The menu's name for an example: its description's first phrase ("A small model from
    torch.nn, trained with torch.optim"), else its file name ("chain rule")."""
    for line in path.read_text(encoding="utf-8").splitlines()[:4]:
        text = line.lstrip("#").strip()
        if text and not text.startswith("%%"):
            return re.split(r": |\. ", text, maxsplit=1)[0].rstrip(".")
    return path.stem.split("_", 1)[-1].replace("_", " ").capitalize()
