"""The window's menus and toolbar: their actions, the Insert palette, Find, About, devices."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QToolBar,
    QToolButton,
)

from playground.engines.registry import ENGINES, entry
from playground.kernel.client import cuda_driver_found
from playground.ui.document import EXAMPLES

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
DEVICES = (("auto", "auto"), ("CPU", "cpu"), ("CUDA", "cuda"))


class MenusMixin:
    """MainWindow's menus and toolbar."""

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        for text, shortcut, slot in (("&New", QKeySequence.StandardKey.New, self.new_file),
                                     ("&Open…", QKeySequence.StandardKey.Open, self.open_file),
                                     ("&Save", QKeySequence.StandardKey.Save, self.save),
                                     ("Save &As…", QKeySequence.StandardKey.SaveAs, self.save_as)):
            file_menu.addAction(QAction(text, self, shortcut=shortcut, triggered=slot))
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self._fill_recent()
        file_menu.addSeparator()
        file_menu.addAction(QAction("Export &graph…", self, shortcut=QKeySequence("Ctrl+E"),
                                    triggered=self.export_graph))
        file_menu.addAction(QAction("Export &plots…", self,
                                    shortcut=QKeySequence("Ctrl+Shift+E"),
                                    triggered=self.export_plots))
        file_menu.addAction(QAction("Export backward &animation…", self,
                                    triggered=self.export_animation))
        file_menu.addSeparator()
        # Ctrl+Q spelled out: the standard Quit key is empty on some Linux desktops
        file_menu.addAction(QAction("&Quit", self, shortcut=QKeySequence("Ctrl+Q"),
                                    triggered=self.close))
        examples_menu = self.menuBar().addMenu("&Examples")
        for number, example in enumerate(sorted(EXAMPLES.glob("*.py")), start=1):
            examples_menu.addAction(f"&{number}  {example_title(example)}",
                                    lambda example=example: self.open_example(example))

    def _build_toolbar(self) -> None:
        toolbar = QToolBar("Run", self)
        toolbar.setMovable(False)
        self.addToolBar(toolbar)
        self._build_run_actions()
        for action in (self.run_action, self.cell_action, self.stop_action, self.live_action):
            toolbar.addAction(action)
        toolbar.addSeparator()
        toolbar.addWidget(self._insert_button())
        run_menu = self.menuBar().addMenu("&Run")
        for action in (self.run_action, self.cell_action, self.cells_action, self.stop_action,
                       self.restart_action, self.live_action):
            run_menu.addAction(action)
        self._build_edit_menu()
        view_menu = self.menuBar().addMenu("&View")
        for action in (self.fit_action, self.upward_action, self.fold_action):
            view_menu.addAction(action)
        self._build_replay_menu()
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(QAction("&Keyboard shortcuts", self, triggered=self.show_shortcuts,
                                    shortcut=QKeySequence("F1")))
        help_menu.addAction(QAction("&About Autograd Playground", self, triggered=self.about))
        toolbar.addSeparator()
        self._build_engine_boxes(toolbar)

    def _build_run_actions(self) -> None:
        self.run_action = QAction("▶ Run all", self, shortcut=QKeySequence("Ctrl+Return"),
                                  triggered=self.run_all)
        self.run_action.setToolTip("Run the whole script in a fresh namespace (Ctrl+Enter)")
        self.stop_action = QAction("■ Stop", self, shortcut=QKeySequence("Ctrl+."),
                                   triggered=self.stop, enabled=False)
        self.stop_action.setToolTip("Interrupt the running code (Ctrl+.)")
        self.cell_action = QAction("▶ Run cell", self, shortcut=QKeySequence("Shift+Return"),
                                   triggered=self.run_cell)
        self.cell_action.setToolTip("Run the # %% cell under the cursor in the current "
                                    "namespace, then move to the next (Shift+Enter)")
        self.cells_action = QAction("Run all cells", self,
                                    shortcut=QKeySequence("Ctrl+Shift+Return"),
                                    triggered=self.run_all_cells)
        self.cells_action.setToolTip("Run every cell in order in a fresh namespace, each with "
                                     "its own output; stop at the first error "
                                     "(Ctrl+Shift+Enter)")
        self.restart_action = QAction("Restart kernel", self, triggered=self.restart_kernel)
        self.live_action = QAction("Live", self, checkable=True)
        self.live_action.setToolTip("Re-run the whole script shortly after you stop typing")
        # switched on by the user (not by restored settings): the script runs at once
        self.live_action.triggered.connect(
            lambda on: self._live_timer.start() if on and not self._loading else None)

    def _build_replay_menu(self) -> None:
        """Stepping keys that work wherever the focus is, and never type into the editor
        (as a debugger's step keys); in the graph, → ← Space Home End Esc do the same."""
        player = self.player
        menu = self.menuBar().addMenu("Re&play")
        for text, keys, slot in (("Step &forward", "F10", lambda: player.step(1)),
                                 ("Step &back", "Shift+F10", lambda: player.step(-1)),
                                 ("&Play / pause", "F8", player.toggle_play),
                                 ("&Final state", "Shift+F8", player.finish)):
            menu.addAction(QAction(text, self, shortcut=QKeySequence(keys), triggered=slot))

    def show_shortcuts(self) -> None:
        """Help → Keyboard shortcuts: every action's keys, and the graph's own."""
        from playground.ui.shortcuts import ShortcutSheet

        sheet = ShortcutSheet(self.menuBar(), self)
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
        edit_menu = self.menuBar().addMenu("&Edit")
        edit_menu.addAction(QAction("&Undo", self, shortcut=QKeySequence.StandardKey.Undo,
                                    triggered=self.editor.undo))
        edit_menu.addAction(QAction("&Redo", self, shortcut=QKeySequence.StandardKey.Redo,
                                    triggered=self.editor.redo))
        edit_menu.addSeparator()
        edit_menu.addAction(QAction("Toggle &comment", self, shortcut=QKeySequence("Ctrl+/"),
                                    triggered=self.editor.toggle_comment))
        bar = self.find_bar
        for text, keys, slot in (
                ("&Find / replace…", QKeySequence.StandardKey.Find, bar.open_bar),
                ("Find &next", QKeySequence.StandardKey.FindNext, bar.find_next),
                ("Find &previous", QKeySequence.StandardKey.FindPrevious, bar.find_previous),
                ("&Go to line…", QKeySequence("Ctrl+G"), self.ask_go_to_line),
                ("C&lear the console", QKeySequence("Ctrl+L"), self.console.clear_all)):
            edit_menu.addAction(QAction(text, self, shortcut=keys, triggered=slot))
        self._build_zoom_actions(edit_menu)

    def _build_engine_boxes(self, toolbar: QToolBar) -> None:
        toolbar.addWidget(QLabel(" Engine: "))
        self.engine_box = QComboBox()
        for name, engine in ENGINES.items():
            label = engine.label
            self.engine_box.addItem(label, name)
        self.engine_box.setCurrentIndex(self.engine_box.findData(self.runner.kernel.engine))
        self.engine_box.currentIndexChanged.connect(self._engine_chosen)
        toolbar.addWidget(self.engine_box)
        self.device_box = QComboBox()
        for label, device in DEVICES:
            self.device_box.addItem(label, device)
        self.device_box.setCurrentIndex(self.device_box.findData(self.runner.kernel.device))
        self.device_box.setToolTip("Where the torch engine runs: auto picks CUDA when present")
        self.device_box.setEnabled(entry(self.runner.kernel.engine).has_devices)
        self.device_box.currentIndexChanged.connect(self._device_chosen)
        toolbar.addWidget(self.device_box)
        self.engine_label = QLabel()
        self.engine_label.setContentsMargins(10, 0, 0, 0)
        toolbar.addWidget(self.engine_label)
        self._offer_devices()

    def _offer_devices(self) -> None:
        """CUDA can be chosen only where it exists; the item's tooltip says why not."""
        kernel = self.runner.kernel
        why = ""
        if not cuda_driver_found():
            why = "No NVIDIA GPU driver on this machine: torch runs on the CPU"
        elif "cuda" in entry(kernel.engine).devices and kernel.description and not kernel.cuda:
            why = "This torch finds no CUDA device (a CPU-only build?): it runs on the CPU"
        model: QStandardItemModel = self.device_box.model()
        item = model.item(self.device_box.findData("cuda"))
        item.setEnabled(not why)
        item.setToolTip(why or "Run on the GPU")

    def ask_go_to_line(self) -> None:
        line = self.ask_line()
        if line is not None and not self.editor.go_to_line(line):
            self.statusBar().showMessage(f"The script has no line {line}")
        self.editor.setFocus()

    def ask_line(self) -> int | None:
        """A line number from a small dialog, or None (tests replace this)."""
        count = self.editor.document().blockCount()
        line, accepted = QInputDialog.getInt(self, "Go to line", f"Line (1–{count}):",
                                             self.editor.textCursor().blockNumber() + 1, 1,
                                             count)
        return line if accepted else None

    def _build_zoom_actions(self, menu) -> None:
        """Ctrl+= / Ctrl+- / Ctrl+0: the editor's, console's and graph's text, remembered."""
        menu.addSeparator()
        for text, keys, step in (("&Larger text", ("Ctrl+=", "Ctrl++"), 1),
                                 ("&Smaller text", ("Ctrl+-",), -1),
                                 ("&Normal text size", ("Ctrl+0",), 0)):
            action = QAction(text, self, triggered=lambda _=False, step=step: self.zoom_text(step))
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

        QMessageBox.about(self, "About Autograd Playground",
                          f"<b>Autograd Playground</b> {__version__}<br>Write PyTorch-style code, "
                          "see what autograd builds and does.<br><br>"
                          f"Engine: {self.runner.kernel.description}<br>NumPy {numpy.__version__}"
                          f" · PySide6 {pyside_version} · Python {sys.version.split()[0]}")


def example_title(path: Path) -> str:
    """The menu's name for an example: its description's first phrase ("A small model from
    torch.nn, trained with torch.optim"), else its file name ("chain rule")."""
    for line in path.read_text(encoding="utf-8").splitlines()[:4]:
        text = line.lstrip("#").strip()
        if text and not text.startswith("%%"):
            return re.split(r": |\. ", text, maxsplit=1)[0].rstrip(".")
    return path.stem.split("_", 1)[-1].replace("_", " ").capitalize()
