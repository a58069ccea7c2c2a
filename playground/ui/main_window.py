"""The main window: builds the panes and arranges them; the views follow one ViewState.

Its jobs live in mixins of their own modules: documents and recovery (document.py), runs and
the kernel (running.py), menus and toolbar (menus.py), exports (export_actions.py); the theme
and the application are in app.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QVBoxLayout, QWidget

from playground.engines.registry import DEFAULT_ENGINE, entry
from playground.model import collector
from playground.model.view_state import ViewState
from playground.ui import relay, ui_collector
from playground.ui.app import is_dark
from playground.ui.console import Console
from playground.ui.document import STARTER, DocumentMixin, default_recovery_folder
from playground.ui.editor import CodeEditor
from playground.ui.export_actions import ExportActionsMixin
from playground.ui.files import RecoveryStore
from playground.ui.find_bar import FindBar
from playground.ui.graph_pane import GraphPane
from playground.ui.graph_scene import PREPARED_IN_PLACE
from playground.ui.memory import release_free_memory
from playground.ui.menus import MenusMixin
from playground.ui.panes import TabbedViews
from playground.ui.runner import KernelRunner
from playground.ui.running import LIVE_DELAY_MS, RunningMixin
from playground.ui.settings import Settings, default_settings_path

AUTOSAVE_MS = 3000
RELEASE_MEMORY_MS = 1000  # after a run, when its graph is built (a trim costs ~4 ms)
ZOOM_SETTLE_MS = 120  # a zoom is drawn once the presses stop for this long
LAZY_VIEWS_MS = 400  # after the first paint, once their modules are imported (panes.py)


class MainWindow(DocumentMixin, RunningMixin, MenusMixin, ExportActionsMixin, QMainWindow):
    """One document, one kernel: write tensor code, run it, see what autograd did."""

    def __init__(self, path: str | None = None, engine: str | None = None,
                 settings: Settings | None = None, recovery: RecoveryStore | None = None,
                 launched: subprocess.Popen | None = None) -> None:
        """``launched``: a NumPy kernel process already starting (the app's head start)."""
        super().__init__()
        relay.install()  # on the UI thread, before any worker hands a result back
        ui_collector.install()  # and before any worker could collect the window's garbage
        self.settings = settings or Settings(default_settings_path())
        self.recovery = recovery or RecoveryStore.for_window(default_recovery_folder())
        self.path = Path(path) if path else None
        self.view_state = ViewState()
        self._init_run_state()
        self.runner = self._start_runner(
            engine or str(self.settings.value("engine", DEFAULT_ENGINE)), launched)
        self.editor = CodeEditor(dark=is_dark(QApplication.instance()))
        self.editor.completion_source = self._complete
        self.editor.file_dropped.connect(self.open_file)
        self.editor.loaded.connect(self._text_loaded)
        self.find_bar = FindBar(self.editor)
        self.console = Console(self.view_state)
        self.graph_pane = GraphPane(self.view_state)
        self.tabs = TabbedViews(self.view_state)
        # the graph pane's actions are in the window's View menu too
        pane = self.graph_pane
        self.fit_action, self.upward_action = pane.fit_action, pane.upward_action
        self.fold_action = pane.fold_action
        self._build_layout()
        self._build_menus()
        self._build_toolbar()
        self._make_export_bar()
        self._connect_runner()
        self._load_text(STARTER)
        self.editor.moveCursor(QTextCursor.MoveOperation.End)  # typing adds to the starter
        if self.path is not None:
            self._read_into_editor(self.path)
        self.editor.modificationChanged.connect(self._update_title)
        self.editor.textChanged.connect(self._typed)
        self.resize(1280, 800)
        self._restore_settings()
        self._autosave = QTimer(self, interval=AUTOSAVE_MS, timeout=self._save_recovery)
        self._autosave.start()
        # once the views of a run have been rebuilt and things are quiet, give freed memory back
        self._release_memory = QTimer(self, singleShot=True, interval=RELEASE_MEMORY_MS,
                                      timeout=self._settle_memory)
        self._zoom_settle = QTimer(self, singleShot=True, interval=ZOOM_SETTLE_MS,
                                   timeout=self._apply_text_scale)
        self._update_title()
        self.statusBar().showMessage("Ready: Ctrl+Enter runs the script")
        QTimer.singleShot(LAZY_VIEWS_MS, self._make_lazy_views)

    def _init_run_state(self) -> None:
        self._elapsed = QTimer(self, interval=100, timeout=self._tick)
        self._started_at = 0.0
        self._live_timer = QTimer(self, singleShot=True, interval=LIVE_DELAY_MS,
                                  timeout=self._live_run)
        self._live_pending = self._loading = self._rerun_when_ready = False
        self._pending_read: tuple[int, bool] | None = None  # a large file being read
        self._reads_started = 0
        self._file_reader = None  # made for the first large file
        self._said_when_loaded = ""  # the status bar's line once a long text is all in
        # what each cell printed, for .ipynb, by its key (notebook.cell_keys)
        self.cell_outputs: dict[tuple[str, int], str] = {}
        self._running_cell: tuple[str, int] | None = None
        self._cell_queue: list[tuple[int, int, tuple[str, int]]] = []
        self._cell_total = 0
        self._cells_run: int | None = None  # the cell number of a Run all cells under way
        self._cells_stopped = False  # Stop or Restart ended a Run all cells
        self._front_matter, self._file_format, self._opened_suffix = "", "percent", ""
        self._cell_ids: dict[tuple[str, int], str] = {}
        self._notebook_metadata: dict = {}
        self._cell_extras: dict[tuple[str, int], dict] = {}
        self._file_style = {"newline": "\n", "bom": False}
        self._kernel_starts = 0
        self._recovery_warned = False
        # Each New/Open counts: a run of the document before is not shown on this one.
        self._document_number = self._run_document = 0
        self._run_text = ""  # the editor's text when the last run started
        self.view_state.events.reset.connect(self._count_document)

    def _settle_memory(self) -> None:
        """Quiet after a run: freed pages back to the system, and with a small graph on screen
        the objects frozen for a large one back to the collector (model/collector.py)."""
        graph = self.view_state.graph
        if not self.graph_view.busy and (graph is None or len(graph.nodes) <= PREPARED_IN_PLACE):
            collector.thaw()
        release_free_memory()

    def _count_document(self) -> None:
        self._document_number += 1

    def _start_runner(self, engine: str, launched: subprocess.Popen | None) -> KernelRunner:
        """The remembered engine, started in the background (a failure falls back to NumPy)."""
        engine = entry(engine).name
        if launched is not None and engine != DEFAULT_ENGINE:
            launched.kill()  # the head start was the default engine's; this window runs another
            launched.wait()
            launched = None
        return KernelRunner(engine, background=True, launched=launched)

    def _connect_runner(self) -> None:
        self.runner.output.connect(self.console.write)
        self.runner.finished.connect(self._finished)
        self.runner.starting.connect(self._kernel_starting)
        self.runner.ready.connect(self._kernel_ready)
        self.runner.failed.connect(self._kernel_failed)
        self.console.line_clicked.connect(self.go_to_line)
        self._kernel_starting(f"Starting the {self.runner._name(self.runner.kernel.engine)} "
                              "engine…")

    # ----- the views ----------------------------------------------------------------------------
    @property
    def graph_view(self):
        return self.graph_pane.view

    @property
    def player(self):
        return self.graph_pane.player

    @property
    def inspector(self):
        return self.tabs.view("Inspector")

    @property
    def plots(self):
        return self.tabs.view("Plots")

    @property
    def figures(self):
        return self.tabs.view("Figures")

    @property
    def figures_page(self):
        return self.tabs.pages["Figures"]

    @property
    def views(self):
        return self.tabs

    def _make_lazy_views(self) -> None:
        if self.tabs.importing:  # not on this thread: it would freeze the window meanwhile
            QTimer.singleShot(LAZY_VIEWS_MS // 8, self._make_lazy_views)
            return
        self.tabs.build_lazy()

    def _build_layout(self) -> None:
        code = QSplitter(Qt.Orientation.Vertical)
        editing = QWidget()
        column = QVBoxLayout(editing)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.editor, 1)
        column.addWidget(self.find_bar)
        code.addWidget(editing)
        code.addWidget(self.console)
        views = QSplitter(Qt.Orientation.Vertical)
        views.addWidget(self.graph_pane)
        views.addWidget(self.tabs)
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(code)
        main.addWidget(views)
        for splitter, stretch in ((code, (3, 2)), (views, (3, 2)), (main, (1, 1))):
            splitter.setStretchFactor(0, stretch[0])
            splitter.setStretchFactor(1, stretch[1])
        main.setSizes([640, 640])  # the editor keeps half the width
        views.setSizes([540, 260])  # the graph is the point: most of the height
        code.setSizes([470, 300])
        self.splitters = {"main": main, "code": code, "views": views}
        self.setCentralWidget(main)

    # ----- settings ---------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):  # anything else in a hand-edited file: defaults
            self.restoreGeometry(geometry)
        for name, splitter in self.splitters.items():
            state = self.settings.value(f"splitter/{name}")
            if isinstance(state, QByteArray):
                splitter.restoreState(state)
        self.upward_action.setChecked(self.settings.value("leaves_on_top", False)
                                      in (True, "true"))
        self.live_action.setChecked(self.settings.value("live", False) in (True, "true"))
        try:
            self.text_scale = min(max(float(self.settings.value("text_scale", 1.0)), 0.5), 3.0)
        except (TypeError, ValueError):
            self.text_scale = 1.0
        self._apply_text_scale()

    def _save_settings(self) -> None:
        self.settings.setValue("geometry", self.saveGeometry())
        for name, splitter in self.splitters.items():
            self.settings.setValue(f"splitter/{name}", splitter.saveState())
        self.settings.setValue("leaves_on_top", self.upward_action.isChecked())
        self.settings.setValue("live", self.live_action.isChecked())
        self.settings.setValue("text_scale", self.text_scale)
        self.settings.setValue("engine", self.runner.kernel.engine)
        self.settings.sync()

    # ----- text size ----------------------------------------------------------------------------
    def zoom_text(self, step: int) -> None:
        """Larger (1), smaller (-1) or normal (0) text in the editor, console and graph; a
        quick run of presses is drawn once, at its end (each press laid out a 100,000-line
        text and the graph again: 65 s for fifteen)."""
        scale = 1.0 if step == 0 else self.text_scale * (1.1 if step > 0 else 1 / 1.1)
        self.text_scale = round(min(max(scale, 0.5), 3.0), 3)
        self._zoom_settle.start()
        self.statusBar().showMessage(f"Text at {self.text_scale:.0%}")

    def _apply_text_scale(self) -> None:
        base = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        base.setPointSizeF(base.pointSizeF() * self.text_scale)
        self.editor.setFont(base)
        self.console.setFont(base)
        self.graph_view.set_text_scale(self.text_scale)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.may_discard():
            event.ignore()
            return
        self._save_settings()
        self._autosave.stop()
        self.recovery.clear()
        self.runner.close()
        while QApplication.overrideCursor() is not None:
            QApplication.restoreOverrideCursor()
        super().closeEvent(event)
