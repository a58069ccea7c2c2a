"""The main window: editor and console on the left, graph, plots and inspector on the right."""

from __future__ import annotations

import sys
import time
from importlib.resources import files
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QIcon, QKeySequence, QPalette, QShortcut
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from playground.kernel.client import KernelError
from playground.model import RunResult, notebook
from playground.model.source_file import SourceError, read_source
from playground.ui.console import Console
from playground.ui.editor import CodeEditor
from playground.ui.files import RecoveryStore, atomic_write
from playground.ui.graph_view import GraphView, legend_html
from playground.ui.inspector import Inspector
from playground.ui.memory import release_free_memory
from playground.ui.player import PlayerBar
from playground.ui.runner import KernelRunner
from playground.ui.settings import Settings, default_settings_path

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
AUTOSAVE_MS = 3000
RELEASE_MEMORY_MS = 1000  # after a run, when its graph is built (a trim costs ~4 ms)
LIVE_DELAY_MS = 600
PLOTS_DELAY_MS = 400
EXAMPLES = Path(str(files("playground.resources") / "examples"))
ICON = Path(str(files("playground.resources") / "icon.svg"))
# The name of resources/autograd-playground.desktop: lets the desktop match windows to the entry.
DESKTOP_FILE_NAME = "autograd-playground"
RECENT_LIMIT = 8

ENGINES = (("NumPy", "numpy"), ("Torch", "torch"))
NOTEBOOK_SUFFIXES = (".ipynb", ".md", ".markdown", ".txt")
STARTER = '''import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
'''


def is_dark(application: QApplication) -> bool:
    return application.palette().window().color().lightness() < 128


class MainWindow(QMainWindow):
    """One document, one kernel: write tensor code, run it, read what it printed."""

    def __init__(self, path: str | None = None, engine: str | None = None,
                 settings: Settings | None = None, recovery: RecoveryStore | None = None) -> None:
        super().__init__()
        self.settings = settings or Settings(default_settings_path())
        self.recovery = recovery or RecoveryStore(default_recovery_path())
        self.path = Path(path) if path else None
        self.runner = self._start_runner(engine or str(self.settings.value("engine", "numpy")))
        self.editor = CodeEditor(dark=is_dark(QApplication.instance()))
        self.console = Console()
        self.graph_view = GraphView()
        self.inspector = Inspector()
        self.player = PlayerBar()
        self.step_state = None
        self.plots = None  # made just after the first paint: pyqtgraph takes ~0.8 s to import
        self.figures = None
        self.last_result: RunResult | None = None
        self.editor.completion_source = self._complete
        self._build_layout()
        self._build_menus()
        self._build_toolbar()
        self._elapsed = QTimer(self, interval=100, timeout=self._tick)
        self._started_at = 0.0
        self.runner.output.connect(self.console.write)
        self.console.line_clicked.connect(self.go_to_line)
        self.runner.finished.connect(self._finished)
        self._live_timer = QTimer(self, singleShot=True, interval=LIVE_DELAY_MS,
                                  timeout=self._live_run)
        self._live_pending = False
        self._loading = False
        self._last_search = ""
        self.cell_outputs: dict[str, str] = {}  # cell source -> what it printed, for .ipynb
        self._running_cell: str | None = None
        self._cell_queue: list[tuple[int, int]] = []
        self._cell_total = 0
        self._front_matter = ""
        self._load_text(STARTER)
        if self.path is not None:
            self._read_into_editor(self.path)
        self.editor.modificationChanged.connect(self._update_title)
        self.editor.textChanged.connect(self._typed)
        self.resize(1280, 800)
        self._restore_settings()
        self._autosave = QTimer(self, interval=AUTOSAVE_MS, timeout=self._save_recovery)
        # once the views of a run have been rebuilt and things are quiet, give freed memory back
        self._release_memory = QTimer(self, singleShot=True, interval=RELEASE_MEMORY_MS,
                                      timeout=release_free_memory)
        self._autosave.start()
        self._update_title()
        self.engine_label.setText(self.runner.kernel.description)
        self.statusBar().showMessage("Ready: Ctrl+Enter runs the script")
        # after the first paint: pyqtgraph costs ~0.8 s of import that the window need not wait for
        QTimer.singleShot(PLOTS_DELAY_MS, self._make_plots)

    def _start_runner(self, engine: str) -> KernelRunner:
        """The remembered engine, or the NumPy one when it cannot start (torch uninstalled)."""
        try:
            return KernelRunner(engine if engine in ("numpy", "torch") else "numpy")
        except KernelError:
            return KernelRunner("numpy")

    # ----- building -------------------------------------------------------------------------
    def _build_layout(self) -> None:
        code = QSplitter(Qt.Orientation.Vertical)
        code.addWidget(self.editor)
        code.addWidget(self.console)
        code.setStretchFactor(0, 3)
        code.setStretchFactor(1, 2)
        self.views = QTabWidget()
        self.views.setDocumentMode(True)
        self.plots_page = QWidget()
        QVBoxLayout(self.plots_page).setContentsMargins(0, 0, 0, 0)
        self.views.addTab(self.plots_page, "Plots")
        self.views.addTab(self.inspector, "Inspector")
        self.figures_page = QWidget()  # what user code drew with matplotlib.pyplot
        QVBoxLayout(self.figures_page).setContentsMargins(0, 0, 0, 0)
        self.views.addTab(self.figures_page, "Figures")
        views = QSplitter(Qt.Orientation.Vertical)
        views.addWidget(self._graph_pane())
        views.addWidget(self.views)
        views.setStretchFactor(0, 3)
        views.setStretchFactor(1, 2)
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(code)
        main.addWidget(views)
        main.setStretchFactor(0, 1)
        main.setStretchFactor(1, 1)
        main.setSizes([560, 720])
        views.setSizes([470, 300])
        code.setSizes([470, 300])
        self.splitters = {"main": main, "code": code, "views": views}
        self.setCentralWidget(main)
        self.graph_view.node_selected.connect(self._node_selected)
        self.graph_view.paths_selected.connect(self._paths_selected)

    def _graph_pane(self) -> QWidget:
        """The graph with its own small toolbar and the colour legend."""
        pane = QWidget()
        layout = QVBoxLayout(pane)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        bar = QToolBar("Graph")
        bar.setStyleSheet("QToolBar { border: 0; padding: 0 4px; }")
        title = QLabel("<b>Graph</b>")
        title.setContentsMargins(4, 0, 8, 0)
        bar.addWidget(title)
        self.fit_action = QAction("Fit", self, shortcut=QKeySequence("Ctrl+0"),
                                  triggered=self.graph_view.fit)
        self.fit_action.setToolTip("Fit the whole graph in view (Ctrl+0, or F in the graph)")
        self.upward_action = QAction("Leaves on top", self, checkable=True,
                                     toggled=self.graph_view.set_upward)
        self.upward_action.setToolTip("Draw the leaves at the top and the output at the bottom")
        self.fold_action = QAction("Fold repeats", self, triggered=self._fold_all)
        self.fold_action.setToolTip("Fold runs of identical nodes into one ×N node again "
                                    "(double-click a ×N node to unfold it)")
        legend = QToolButton(text="Legend", popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        legend_menu = QMenu(legend)
        key = QLabel(legend_html())
        key.setContentsMargins(8, 8, 8, 8)
        holder = QWidgetAction(legend_menu)
        holder.setDefaultWidget(key)
        legend_menu.addAction(holder)
        legend.setMenu(legend_menu)
        for action in (self.fit_action, self.upward_action, self.fold_action):
            bar.addAction(action)
        bar.addWidget(legend)
        layout.addWidget(bar)
        layout.addWidget(self.graph_view, 1)
        layout.addWidget(self.player)
        keys = ((Qt.Key.Key_Right, lambda: self.player.go(self.player.position + 1)),
                (Qt.Key.Key_Left, lambda: self.player.go(self.player.position - 1)),
                (Qt.Key.Key_Space, self.player.toggle_play),
                (Qt.Key.Key_Home, lambda: self.player.go(0)),
                (Qt.Key.Key_End, self.player.go_to_end))
        for key, slot in keys:  # only while the graph pane has the focus: the editor keeps them
            QShortcut(QKeySequence(key), pane, slot,
                      context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.player.state_changed.connect(self._step_shown)
        self.graph_view.graph_ready.connect(self._redraw_step)
        return pane

    def _step_shown(self, state) -> None:
        """The player moved: graph, plots and inspector follow its step."""
        self.step_state = state
        self.graph_view.show_step(state, self.player.travel_ms())
        if self.plots is not None:
            self.plots.follow(state.leaf_grads if state is not None else None)
        if state is not None and state.position > 0:
            self.inspector.show_step(state)

    def _redraw_step(self) -> None:
        """A graph finished drawing: put the player's state back on it."""
        if self.step_state is not None:
            self.graph_view.show_step(self.step_state)

    def _make_plots(self) -> None:
        from playground.ui.plots import PlotsPanel, install_defaults

        if self.plots is not None:
            return
        from playground.ui.figures import FiguresPanel

        install_defaults()
        self.plots = PlotsPanel()
        self.plots_page.layout().addWidget(self.plots)
        self.figures = FiguresPanel()
        self.figures_page.layout().addWidget(self.figures)
        if self.last_result is not None:
            self.plots.show_graph(self.last_result.graph)
            self.figures.show_figures(self.last_result.figures)

    def _node_selected(self, node_id: str) -> None:
        graph = self.graph_view.graph
        display = self.graph_view.current.display if self.graph_view.current else None
        node = display.node(node_id) if display is not None and node_id else None
        self.inspector.show_node(graph, node)
        if node is not None:
            self.views.setCurrentWidget(self.inspector)
        if self.plots is not None:
            self.plots.select(node_id)

    def _paths_selected(self, paths) -> None:
        if paths is not None and self.graph_view.graph is not None:
            self.inspector.show_paths(self.graph_view.graph, paths)
            self.views.setCurrentWidget(self.inspector)

    def _fold_all(self) -> None:
        self.graph_view.expanded.clear()
        self.graph_view.show_graph(self.graph_view.graph)

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
        file_menu.addAction(QAction("&Quit", self, shortcut=QKeySequence.StandardKey.Quit,
                                    triggered=self.close))
        examples_menu = self.menuBar().addMenu("&Examples")
        for example in sorted(EXAMPLES.glob("*.py")):
            title = example.stem.split("_", 1)[-1].replace("_", " ").capitalize()
            examples_menu.addAction(title, lambda example=example: self.open_example(example))

    def _build_toolbar(self) -> None:
        toolbar = QToolBar("Run", self)
        toolbar.setMovable(False)
        self.addToolBar(toolbar)
        self.run_action = QAction("▶ Run all", self, shortcut=QKeySequence("Ctrl+Return"),
                                  triggered=self.run_all)
        self.run_action.setToolTip("Run the whole script in a fresh namespace (Ctrl+Enter)")
        self.stop_action = QAction("■ Stop", self, shortcut=QKeySequence("Ctrl+."),
                                   triggered=self.runner.stop, enabled=False)
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
        toolbar.addAction(self.run_action)
        toolbar.addAction(self.cell_action)
        toolbar.addAction(self.stop_action)
        toolbar.addAction(self.live_action)
        toolbar.addSeparator()
        insert = QToolButton(text="Insert",
                             popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        insert.setToolTip("Insert a common step at the cursor")
        palette_menu = QMenu(insert)
        for title, snippet in SNIPPETS:
            palette_menu.addAction(title, lambda snippet=snippet: self.insert_snippet(snippet))
        insert.setMenu(palette_menu)
        toolbar.addWidget(insert)
        run_menu = self.menuBar().addMenu("&Run")
        for action in (self.run_action, self.cell_action, self.cells_action, self.stop_action,
                       self.restart_action, self.live_action):
            run_menu.addAction(action)
        edit_menu = self.menuBar().addMenu("&Edit")
        edit_menu.addAction(QAction("&Undo", self, shortcut=QKeySequence.StandardKey.Undo,
                                    triggered=self.editor.undo))
        edit_menu.addAction(QAction("&Redo", self, shortcut=QKeySequence.StandardKey.Redo,
                                    triggered=self.editor.redo))
        edit_menu.addSeparator()
        edit_menu.addAction(QAction("Toggle &comment", self, shortcut=QKeySequence("Ctrl+/"),
                                    triggered=self.editor.toggle_comment))
        edit_menu.addAction(QAction("&Find…", self, shortcut=QKeySequence.StandardKey.Find,
                                    triggered=self.ask_find))
        edit_menu.addAction(QAction("Find &next", self,
                                    shortcut=QKeySequence.StandardKey.FindNext,
                                    triggered=lambda: self.editor.find(self._last_search)))
        view_menu = self.menuBar().addMenu("&View")
        for action in (self.fit_action, self.upward_action, self.fold_action):
            view_menu.addAction(action)
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(QAction("&About Autograd Playground", self, triggered=self.about))
        toolbar.addSeparator()
        toolbar.addWidget(QLabel(" Engine: "))
        self.engine_box = QComboBox()
        for label, name in ENGINES:
            self.engine_box.addItem(label, name)
        self.engine_box.setCurrentIndex([n for _, n in ENGINES].index(self.runner.kernel.engine))
        self.engine_box.currentIndexChanged.connect(self._engine_chosen)
        toolbar.addWidget(self.engine_box)
        self.device_box = QComboBox()
        for label, device in (("auto", "auto"), ("CPU", "cpu"), ("CUDA", "cuda")):
            self.device_box.addItem(label, device)
        self.device_box.setToolTip("Where the torch engine runs: auto picks CUDA when present")
        self.device_box.setEnabled(self.runner.kernel.engine == "torch")
        self.device_box.currentIndexChanged.connect(self._device_chosen)
        toolbar.addWidget(self.device_box)
        self.engine_label = QLabel()
        self.engine_label.setContentsMargins(10, 0, 0, 0)
        toolbar.addWidget(self.engine_label)

    def _complete(self, code: str, line: int, column: int) -> list:
        """Completions from the kernel's live namespace; none while code is running."""
        if self.runner.busy:
            return []
        return self.runner.kernel.complete(code, line, column)

    def ask_find(self) -> None:
        text, accepted = QInputDialog.getText(self, "Find", "Find:", text=self._last_search)
        if accepted and text:
            self._last_search = text
            if not self.editor.find(text):
                self.statusBar().showMessage(f"'{text}' is not in the script")

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

    def _update_title(self, _modified: bool = False) -> None:
        name = self.path.name if self.path else "untitled"
        mark = " •" if self.editor.document().isModified() else ""
        self.setWindowTitle(f"{name}{mark} — Autograd Playground")

    # ----- running --------------------------------------------------------------------------
    def run_all(self) -> None:
        self._start(self.editor.toPlainText(), fresh=True,
                    title=f"Run all · {self.path.name if self.path else 'untitled'}")

    def run_cell(self) -> None:
        """Run the cell under the cursor in the kernel's current namespace, then move on."""
        line = self.editor.textCursor().blockNumber()
        first, last = self.editor.cell_bounds(line)
        lines = self.editor.toPlainText().split("\n")
        number = sum(1 for f, _, kind in self.cells() if kind == "code" and f <= first)
        if self._start(self._cell_code(first, last), fresh=False,
                       title=f"Cell {max(number, 1)} · lines {first + 1}-{last + 1}",
                       cell=self._cell_source(first, last)):
            block = self.editor.document().findBlockByNumber(min(last + 1, len(lines) - 1))
            cursor = self.editor.textCursor()
            cursor.setPosition(block.position())
            self.editor.setTextCursor(cursor)

    def cells(self) -> list[tuple[int, int, str]]:
        """(first line, last line, "code" or "markdown") of each ``# %%`` cell (0-based)."""
        lines = self.editor.toPlainText().split("\n")
        found, line = [], 0
        while line < len(lines):
            first, last = self.editor.cell_bounds(line)
            marker = lines[first].lstrip()
            kind = "markdown" if marker.startswith("# %%") and "[markdown]" in marker else "code"
            found.append((first, last, kind))
            line = last + 1
        return found

    def _cell_code(self, first: int, last: int) -> str:
        lines = self.editor.toPlainText().split("\n")
        # Blank lines in front keep the traceback's line numbers those of the editor.
        return "\n" * first + "\n".join(lines[first:last + 1]) + "\n"

    def _cell_source(self, first: int, last: int) -> str:
        """The cell's source as a saved notebook holds it (the key of its output)."""
        lines = self.editor.toPlainText().split("\n")
        cells = notebook.from_percent("\n".join(lines[first:last + 1])).cells
        return cells[0].source if cells else ""

    def run_all_cells(self) -> None:
        """Every code cell in order, each a run of its own in one fresh namespace, so the
        console shows what each printed; the first error stops the rest and is marked."""
        queue = [(first, last) for first, last, kind in self.cells() if kind == "code"
                 and self._cell_source(first, last).strip()]
        if not queue or self.runner.busy:
            return
        self._cell_queue = queue
        self._cell_total = len(queue)
        self._next_cell(fresh=True)

    def _next_cell(self, fresh: bool = False) -> None:
        first, last = self._cell_queue.pop(0)
        number = self._cell_total - len(self._cell_queue)
        if not self._start(self._cell_code(first, last), fresh=fresh,
                           title=f"Cell {number} of {self._cell_total} · lines "
                                 f"{first + 1}-{last + 1}",
                           cell=self._cell_source(first, last), continues=not fresh):
            self._cell_queue = []

    def _start(self, code: str, fresh: bool, title: str, cell: str | None = None,
               continues: bool = False) -> bool:
        self._save_recovery()
        filename = str(self.path) if self.path else "<untitled>"
        if not self.runner.run(code, filename, fresh=fresh):
            self.statusBar().showMessage("A run is in progress: Stop it first")
            return False
        self._running_cell = cell
        self.editor.mark_error_line(None)
        self.console.begin_run(title, continues)
        self.run_action.setEnabled(False)
        self.stop_action.setEnabled(True)
        self._started_at = time.perf_counter()
        self._elapsed.start()
        return True

    def go_to_line(self, filename: str, line: int) -> None:
        """Jump to a traceback's line when it is in this document."""
        current = str(self.path) if self.path else "<untitled>"
        if filename != current:
            return
        block = self.editor.document().findBlockByNumber(line - 1)
        if block.isValid():
            cursor = self.editor.textCursor()
            cursor.setPosition(block.position())
            self.editor.setTextCursor(cursor)
            self.editor.setFocus()

    def restart_kernel(self) -> None:
        self.runner.kernel.restart()
        self.console.begin_run("Kernel restarted: the namespace is empty")
        self.statusBar().showMessage("Kernel restarted")

    def about(self) -> None:
        import numpy
        from PySide6 import __version__ as pyside_version

        from playground import __version__

        QMessageBox.about(self, "About Autograd Playground",
                          f"<b>Autograd Playground</b> {__version__}<br>Write PyTorch-style code, "
                          "see what autograd builds and does.<br><br>"
                          f"Engine: {self.runner.kernel.description}<br>NumPy {numpy.__version__}"
                          f" · PySide6 {pyside_version} · Python {sys.version.split()[0]}")

    def _tick(self) -> None:
        self.statusBar().showMessage(f"Running… {time.perf_counter() - self._started_at:.1f} s")

    # ----- live mode ----------------------------------------------------------------------
    def _typed(self) -> None:
        if not self._loading:
            self.player.reset()  # the recorded backward no longer matches the text
        if self.live_action.isChecked() and not self._loading:
            self._live_timer.start()  # restarts the wait: debounced

    def _live_run(self) -> None:
        """Run the latest text; a run still going is cancelled (interrupted), not queued."""
        if self.runner.busy:
            self._live_pending = True
            self.runner.stop()
            return
        self._live_pending = False
        self.run_all()

    def _finished(self, result: RunResult) -> None:
        self._elapsed.stop()
        if not self._release_memory.isActive():  # at most once a second, even run after run
            self._release_memory.start()
        self.run_action.setEnabled(True)
        self.stop_action.setEnabled(False)
        self.console.finish_run(result)
        if result.error is not None:
            self.editor.mark_error_line(result.error.line)
            self.statusBar().showMessage(result.error.message)
        else:
            self.statusBar().showMessage(f"Done in {result.elapsed:.2f} s")
        self.last_result = result
        if self._running_cell is not None:
            self.cell_outputs[self._running_cell] = result.output
        if self._cell_queue and result.error is None:
            QTimer.singleShot(0, self._next_cell)
        elif self._cell_queue:
            failed = self._cell_total - len(self._cell_queue)
            self._cell_queue = []
            self.statusBar().showMessage(f"Stopped at cell {failed} of {self._cell_total}: "
                                         f"{result.error.message}")
        self.graph_view.show_graph(result.graph)
        self.inspector.show_node(None, None)
        if self.plots is not None:
            self.plots.show_graph(result.graph)
            self.figures.show_figures(result.figures)
            if result.figures:
                self.views.setCurrentWidget(self.figures_page)
        self._write_saved_figures(result)
        self.player.load(result)
        if self._live_pending:
            self._live_run()

    def _write_saved_figures(self, result: RunResult) -> None:
        """The files user code asked for with plt.savefig(), drawn here after the run."""
        if not any(figure.saved for figure in result.figures):
            return
        from playground.ui.exporters import ExportError, render_figures

        try:
            written = render_figures(result.figures)
        except (ExportError, OSError) as error:
            self.console.write("stderr", f"savefig: {error}\n")
            return
        self.console.write("stdout", "".join(f"[saved {path}]\n" for path in written))

    def _engine_chosen(self, index: int) -> None:
        name = self.engine_box.itemData(index)
        if name != self.runner.kernel.engine:
            self._switch(name, self.device_box.currentData())

    def _device_chosen(self, index: int) -> None:
        if self.runner.kernel.engine == "torch":
            self._switch("torch", self.device_box.itemData(index))

    def _switch(self, engine: str, device: str) -> None:
        """Restart the kernel on ``engine``; if it cannot start, say why and keep the old one."""
        try:
            description = self.runner.switch(engine, device)
        except KernelError as error:
            for box, value in ((self.engine_box, self.runner.kernel.engine),
                               (self.device_box, self.runner.kernel.device)):
                box.blockSignals(True)
                box.setCurrentIndex(box.findData(value))
                box.blockSignals(False)
            self.engine_box.setToolTip(str(error))  # e.g. how to install torch
            self.statusBar().showMessage(str(error))
            return
        self.device_box.setEnabled(engine == "torch")
        self.engine_label.setText(description)
        self.run_all()

    # ----- exports ----------------------------------------------------------------------------
    def ask_export_path(self, title: str, filters: str, suggested: str) -> str | None:
        """A file to export to, or None (tests replace this)."""
        folder = self.path.parent if self.path else Path.home()
        path, _ = QFileDialog.getSaveFileName(self, title, str(folder / suggested), filters)
        return path or None

    def export_graph(self) -> None:
        from playground.ui.exporters import ExportError, export_graph

        path = self.ask_export_path(
            "Export graph", "SVG (*.svg);;PNG image (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)"
            ";;JSON (*.json)", self._export_stem() + "-graph.svg")
        if not path:
            return
        try:
            export_graph(self.graph_view, path)
        except (ExportError, OSError) as error:
            self.statusBar().showMessage(f"Could not export the graph: {error}")
            return
        self.statusBar().showMessage(f"Exported the graph to {path}")

    def export_plots(self) -> None:
        from playground.ui.exporters import ExportError, export_plots

        self._make_plots()
        path = self.ask_export_path("Export plots", "PNG image (*.png);;SVG (*.svg);;"
                                    "CSV points (*.csv)", self._export_stem() + "-plots.png")
        if not path:
            return
        try:
            export_plots(self.plots, path)
        except (ExportError, OSError) as error:
            self.statusBar().showMessage(f"Could not export the plots: {error}")
            return
        self.statusBar().showMessage(f"Exported the plots to {path}")

    def export_animation(self) -> None:
        """An animated GIF of every backward call, or (a folder chosen) one PNG per step."""
        from playground.ui.animation import AnimationError, export_gif, export_png_sequence

        path = self.ask_export_path("Export backward animation", "Animated GIF (*.gif);;"
                                    "Folder of PNG frames (*)",
                                    self._export_stem() + "-backward.gif")
        if not path:
            return
        traces = self.last_result.traces if self.last_result is not None else []
        self.player.stop()
        try:
            if path.lower().endswith(".gif"):
                export_gif(self.graph_view, traces, path)
            else:
                export_png_sequence(self.graph_view, traces, path)
        except (AnimationError, OSError) as error:
            self.statusBar().showMessage(f"Could not export the animation: {error}")
            return
        finally:
            self._redraw_step()
        self.statusBar().showMessage(f"Exported the backward animation to {path}")

    def _export_stem(self) -> str:
        return self.path.stem if self.path else "untitled"

    # ----- files ----------------------------------------------------------------------------
    def _load_text(self, text: str, modified: bool = False) -> None:
        self._loading = True  # text that a file brings never triggers Live
        try:
            self.editor.setPlainText(text)
        finally:
            self._loading = False
        self.editor.mark_error_line(None)
        self.editor.document().setModified(modified)
        self._update_title()

    def ask_unsaved(self) -> str:
        """'save', 'discard' or 'cancel' for a modified document (tests replace this)."""
        answer = QMessageBox.question(
            self, "Unsaved changes", "Save the changes to "
            f"{self.path.name if self.path else 'this untitled script'} first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        return {QMessageBox.StandardButton.Save: "save",
                QMessageBox.StandardButton.Discard: "discard"}.get(answer, "cancel")

    def ask_path(self, saving: bool) -> str | None:
        """A file chosen in a dialog, or None (tests replace this)."""
        chooser = QFileDialog.getSaveFileName if saving else QFileDialog.getOpenFileName
        path, _ = chooser(self, "Save script" if saving else "Open script",
                          str(self.path.parent if self.path else Path.home()),
                          "Scripts and notebooks (*.py *.ipynb *.md *.txt);;Python scripts (*.py)"
                          ";;Jupyter notebooks (*.ipynb);;Markdown notebooks (*.md *.txt)"
                          ";;All files (*)")
        return path or None

    def may_discard(self) -> bool:
        """True when the current text may be replaced (saved, or the user agreed)."""
        if not self.editor.document().isModified():
            return True
        answer = self.ask_unsaved()
        return answer == "discard" or (answer == "save" and self.save())

    def open_example(self, example: Path) -> None:
        """An example opens as a new untitled document (saving it asks where)."""
        if self.may_discard():
            self.path = None
            self.cell_outputs, self._front_matter = {}, ""
            self._load_text(example.read_text(encoding="utf-8"))

    def new_file(self) -> None:
        if self.may_discard():
            self.path = None
            self.cell_outputs, self._front_matter = {}, ""
            self._load_text("")

    def open_file(self, path: str | None = None) -> None:
        if not self.may_discard():
            return
        path = path or self.ask_path(saving=False)
        if not path:
            return
        if self._read_into_editor(Path(path)):
            self._remember(self.path)

    def _read_into_editor(self, path: Path) -> bool:
        """Show a file (a notebook as cells); on failure say why and keep the text shown."""
        try:
            text, front_matter = read_source(path)
        except SourceError as error:
            self.statusBar().showMessage(f"Could not open: {error}")
            self.path = None if self.path == path else self.path
            return False
        self.path = path
        self.cell_outputs = {}
        self._front_matter = front_matter
        self._load_text(text)  # opening never runs the file, notebooks included
        return True

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        try:
            atomic_write(self.path, self._file_text(self.path))
        except (OSError, ValueError) as error:
            self.statusBar().showMessage(f"Could not save {self.path}: {error}")
            return False
        self.editor.document().setModified(False)
        self.statusBar().showMessage(f"Saved {self.path}")
        self._remember(self.path)
        return True

    def _file_text(self, path: Path) -> str:
        """The editor's text as the file's format: a notebook gets its cells (and what each
        printed when last run); a .py file is the text itself."""
        text = self.editor.toPlainText()
        if path.suffix.lower() not in NOTEBOOK_SUFFIXES:
            return text
        book = notebook.from_percent(text)
        for cell in book.cells:
            cell.output = self.cell_outputs.get(cell.source, "")
        if self._front_matter and path.suffix.lower() != ".ipynb":
            book.front_matter = self._front_matter
        return notebook.write(book, path.name)

    def save_as(self) -> bool:
        path = self.ask_path(saving=True)
        if not path:
            return False
        self.path = Path(path)
        return self.save()

    def _remember(self, path: Path) -> None:
        recent = [str(path)] + [p for p in self._recent() if p != str(path)]
        self.settings.setValue("recent_files", recent[:RECENT_LIMIT])
        self._fill_recent()

    def _recent(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        return [value] if isinstance(value, str) else list(value or [])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self._recent():
            self.recent_menu.addAction(path, lambda path=path: self.open_file(path))
        self.recent_menu.setEnabled(bool(self._recent()))

    # ----- never losing work -----------------------------------------------------------------
    def _save_recovery(self) -> None:
        if self.editor.document().isModified():
            self.recovery.save(self.editor.toPlainText(), self.path)

    def offer_recovery(self) -> bool:
        """After a crash or a kill, offer the text autosaved a few seconds before."""
        saved = self.recovery.load()
        if saved is None or saved["text"] == self.editor.toPlainText():
            return False
        if self.ask_restore(saved) != "restore":
            self.recovery.clear()
            return False
        self.path = Path(saved["path"]) if saved.get("path") else None
        self._load_text(saved["text"], modified=True)
        self.statusBar().showMessage("Restored the text you were editing")
        return True

    def ask_restore(self, saved: dict) -> str:
        """'restore' or 'discard' (tests replace this)."""
        answer = QMessageBox.question(
            self, "Restore unsaved work?", "Autograd Playground did not close normally. "
            "Restore the text you were editing?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        return "restore" if answer == QMessageBox.StandardButton.Yes else "discard"

    # ----- settings ---------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        geometry = self.settings.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        for name, splitter in self.splitters.items():
            state = self.settings.value(f"splitter/{name}")
            if state is not None:
                splitter.restoreState(state)
        self.upward_action.setChecked(self.settings.value("leaves_on_top", False)
                                      in (True, "true"))
        self.live_action.setChecked(self.settings.value("live", False) in (True, "true"))

    def _save_settings(self) -> None:
        self.settings.setValue("geometry", self.saveGeometry())
        for name, splitter in self.splitters.items():
            self.settings.setValue(f"splitter/{name}", splitter.saveState())
        self.settings.setValue("leaves_on_top", self.upward_action.isChecked())
        self.settings.setValue("live", self.live_action.isChecked())
        self.settings.setValue("engine", self.runner.kernel.engine)
        self.settings.sync()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.may_discard():
            event.ignore()
            return
        self._save_settings()
        self._autosave.stop()
        self.recovery.clear()
        self.runner.close()
        super().closeEvent(event)


def default_recovery_path() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(folder or Path.home() / ".autograd-playground") / "recovery.json"


def dark_palette() -> QPalette:
    palette = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#1f232a", QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#181b20", QPalette.ColorRole.AlternateBase: "#262b33",
        QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#2a2f38",
        QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#3d6fb6",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#2a2f38",
        QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.PlaceholderText: "#7f8a99",
    }
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText,
                 QPalette.ColorRole.Text):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b7380"))
    return palette


def make_application(theme: str = "system") -> QApplication:
    """The application, in Fusion style, dark when the system (or ``theme``) says so."""
    application = QApplication.instance() or QApplication([])
    application.setApplicationName("Autograd Playground")
    application.setDesktopFileName(DESKTOP_FILE_NAME)
    application.setWindowIcon(QIcon(str(ICON)))
    application.setStyle("Fusion")
    scheme = application.styleHints().colorScheme()
    if theme == "dark" or (theme == "system" and scheme == Qt.ColorScheme.Dark):
        application.setPalette(dark_palette())
    return application


def launch(path: str | None = None, theme: str = "system") -> int:
    application = make_application(theme)
    window = MainWindow(path)
    window.show()
    window.offer_recovery()
    return application.exec()


def screenshot(output: str, script: str | None = None, theme: str = "system") -> int:
    """Open ``script``, run it, wait for the run and the views, save a PNG of the window."""
    application = make_application(theme)
    window = MainWindow(script)
    window.resize(1400, 860)
    window.show()
    finished = []
    window.runner.finished.connect(finished.append)
    if script:
        window.run_all()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (
            (script and not finished) or window.plots is None or window.graph_view.busy):
        application.processEvents()
        time.sleep(0.01)
    for _ in range(40):  # let the views settle and paint (the graph's glide included)
        application.processEvents()
        time.sleep(0.01)
    saved = window.grab().save(output)
    window.editor.document().setModified(False)
    window.close()
    return 0 if saved else 1
