"""The main window: a thin shell that builds the panes and composes the parts that own state.

The parts, each a plain object with its own attributes, built here in the order their
constructors ask for: the document (document.py: file, format, recovery, recent files), the
runs (run_control.py: runs, cells, Live, engine and device), the exports
(export_actions.py), and the menus and toolbar that bind actions to their methods
(menus.py). The views follow one ViewState; the theme and the application are in app.py.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication, QMainWindow, QSplitter, QVBoxLayout, QWidget

from playground.engines.registry import DEFAULT_ENGINE, entry
from playground.model import gc_policy
from playground.model.view_state import ViewState
from playground.ui import gc_timer, relay
from playground.ui.app import flat_scroll_bars, is_dark
from playground.ui.code_links import CodeLinks
from playground.ui.console import Console
from playground.ui.document import STARTER, Document, default_recovery_folder
from playground.ui.editor import CodeEditor
from playground.ui.export_actions import ExportActions
from playground.ui.find_bar import FindBar
from playground.ui.graph_pane import GraphPane
from playground.ui.kernel_runner import KernelRunner
from playground.ui.memory import release_free_memory
from playground.ui.menus import Menus
from playground.ui.panes import RoomForFigures, TabbedViews
from playground.ui.recovery import RecoveryStore
from playground.ui.run_control import RunControl
from playground.ui.settings import Settings, default_settings_path

AUTOSAVE_MS = 3000
# after a run, when its graph is built (a trim takes the UI thread a few milliseconds)
RELEASE_MEMORY_MS = 1000
ZOOM_SETTLE_MS = 120  # a zoom is drawn once the presses stop for this long
LAZY_VIEWS_MS = 400  # after the first paint, once their modules are imported (panes.py)


class MainWindow(QMainWindow):
    """One document, one kernel: write tensor code, run it, see what autograd did."""

    def __init__(self, path: str | None = None, engine: str | None = None,
                 settings: Settings | None = None, recovery: RecoveryStore | None = None,
                 launched: subprocess.Popen | None = None) -> None:
        """``launched``: a NumPy kernel process already starting (the app's head start)."""
        super().__init__()
        relay.install()  # on the UI thread, before any worker hands a result back
        gc_timer.install()  # and before any worker could collect the window's garbage
        self.settings = settings or Settings(default_settings_path())
        self.view_state = ViewState()
        self.runner = _start_runner(
            engine or str(self.settings.value("engine", DEFAULT_ENGINE)), launched)
        # the panes
        self.editor = CodeEditor(dark=is_dark(QApplication.instance()))
        self.find_bar = FindBar(self.editor)
        self.console = Console(self.view_state)
        self.graph_pane = GraphPane(self.view_state)
        self.tabs = TabbedViews(self.view_state)
        # the parts
        self.document = Document(
            self, self.editor, self.view_state, self.settings,
            recovery or RecoveryStore.for_window(default_recovery_folder()),
            Path(path) if path else None)
        self.runs = RunControl(self, self.runner, self.editor, self.view_state, self.document)
        self.code_links = CodeLinks(self, self.editor, self.graph_pane.view, self.view_state)
        self.view_state.code_line = self._code_line
        self.exports = ExportActions(self, self.graph_pane.view, self.tabs, self.view_state,
                                     self.document, self.settings)
        self.menus = Menus(self, self.document, self.runs, self.exports, self.editor,
                           self.find_bar, self.console, self.graph_pane)
        self._build_layout()
        self.runner.output.connect(self.view_state.add_output)
        self.runner.traces.connect(self.view_state.add_traces)
        self.runner.pictures.connect(self.view_state.add_pictures)
        self.runner.vectors.connect(self.view_state.add_vectors)
        self.view_state.events.failure.connect(self._view_failed)
        self.runner.finished.connect(self._after_run)
        self.console.line_clicked.connect(self.document.go_to_line)
        self.document.start(STARTER)
        self.resize(1280, 800)
        self.text_scale = 1.0
        self._zoom_settle = QTimer(self, singleShot=True, interval=ZOOM_SETTLE_MS,
                                   timeout=self._apply_text_scale)
        self._restore_settings()
        self._autosave = QTimer(self, interval=AUTOSAVE_MS,
                                timeout=self.document.save_recovery)
        self._autosave.start()
        # once the views of a run have been rebuilt and things are quiet, give freed memory back
        self._release_memory = QTimer(self, singleShot=True, interval=RELEASE_MEMORY_MS,
                                      timeout=self._settle_memory)
        self.document.update_title()
        self.statusBar().showMessage("Ready: Ctrl+Enter runs the script")
        flat_scroll_bars(self)
        QTimer.singleShot(LAZY_VIEWS_MS, self._make_lazy_views)

    def _code_line(self, line: int) -> str:
        block = self.editor.document().findBlockByNumber(line - 1)
        return block.text() if block.isValid() else ""

    def _view_failed(self, line: str) -> None:
        """A view's handler raised: said where the user looks, not only on a terminal."""
        self.statusBar().showMessage(f"A view failed to update: {line}")
        self.view_state.remark(f"A view failed to update: {line}")

    def _after_run(self) -> None:
        if not self._release_memory.isActive():  # at most once a second, even run after run
            self._release_memory.start()

    def _settle_memory(self) -> None:
        """Quiet after a run: freed pages back to the system, and the collector's frozen
        objects back to it once the graph on screen is small (model/gc_policy.py)."""
        graph = self.view_state.graph
        gc_policy.settle(len(graph.nodes) if graph is not None else 0, self.graph_view.busy)
        release_free_memory()

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
        self.tabs.start_importing()
        if self.tabs.importing:  # not on this thread: it would freeze the window meanwhile
            QTimer.singleShot(LAZY_VIEWS_MS // 8, self._make_lazy_views)
            return
        self.tabs.build_lazy()
        flat_scroll_bars(self)  # the plots' and figures' scroll areas too

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
        views.setSizes([600, 200])  # the graph is the point: most of the height
        code.setSizes([470, 300])
        self.splitters = {"main": main, "code": code, "views": views}
        self.room_for_figures = RoomForFigures(views, self.view_state)
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
        self.graph_pane.upward_action.setChecked(self.settings.value("leaves_on_top", False)
                                                 in (True, "true"))
        self.runs.live_action.setChecked(self.settings.value("live", False) in (True, "true"))
        try:
            self.text_scale = min(max(float(self.settings.value("text_scale", 1.0)), 0.5), 3.0)
        except (TypeError, ValueError):
            self.text_scale = 1.0
        self._apply_text_scale()

    def _save_settings(self) -> None:
        self.settings.setValue("geometry", self.saveGeometry())
        for name, splitter in self.splitters.items():
            self.settings.setValue(f"splitter/{name}", splitter.saveState())
        self.settings.setValue("leaves_on_top", self.graph_pane.upward_action.isChecked())
        self.settings.setValue("live", self.runs.live_action.isChecked())
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
        self.statusBar().showMessage(f"Text at {self.text_scale:.0%}", 3000)  # news, not state

    def _apply_text_scale(self) -> None:
        base = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        base.setPointSizeF(base.pointSizeF() * self.text_scale)
        self.editor.setFont(base)
        self.console.setFont(base)
        self.graph_view.set_text_scale(self.text_scale)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.document.may_discard():
            event.ignore()
            return
        self._save_settings()
        self._autosave.stop()
        self.document.recovery.clear()
        self.runner.close()
        while QApplication.overrideCursor() is not None:
            QApplication.restoreOverrideCursor()
        super().closeEvent(event)


def _start_runner(engine: str, launched: subprocess.Popen | None) -> KernelRunner:
    """The remembered engine, started in the background (a failure falls back to NumPy)."""
    engine = entry(engine).name
    if launched is not None and engine != DEFAULT_ENGINE:
        launched.kill()  # the head start was the default engine's; this window runs another
        launched.wait()
        launched = None
    return KernelRunner(engine, background=True, launched=launched)
