"""The window's exports: the graph, the plots and the backward animation, as a user sees them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QMainWindow,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from playground.model.view_state import ViewState
from playground.ui.document import Document
from playground.ui.panes import TabbedViews
from playground.ui.settings import Settings


class ExportActions(QObject):
    """File → Export: the graph, the plots and the backward animation as they are on screen
    (the final state, or the replay's step while it is on), and the status bar's progress of
    an animation being written."""

    def __init__(self, window: QMainWindow, graph_view, tabs: TabbedViews,
                 view_state: ViewState, document: Document, settings: Settings) -> None:
        super().__init__(window)
        self.window, self.graph_view, self.tabs = window, graph_view, tabs
        self.view_state, self.document, self.settings = view_state, document, settings
        self.animation_job = None
        self._make_export_bar()

    def _say(self, message: str) -> None:
        self.window.statusBar().showMessage(message)

    def ask_export_path(self, title: str, filters: str, suggested: str) -> str | None:
        """A file to export to, or None (tests replace this). The dialog opens in the folder
        of the last export (else the document's), its format chosen as the suggestion's."""
        folder = Path(str(self.settings.value("export_folder", "")) or ".")
        if not folder.is_dir() or folder == Path("."):
            folder = self.document.path.parent if self.document.path else Path.home()
        chosen = next((entry for entry in filters.split(";;")
                       if f"*{Path(suggested).suffix})" in entry), "")
        path, _ = QFileDialog.getSaveFileName(self.window, title, str(folder / suggested), filters,
                                              chosen)
        return path or None

    def export_graph(self) -> None:
        from playground.ui.exporters import dialog_filters, export_graph

        self._export("graph", lambda path: export_graph(self.graph_view, path),
                     dialog_filters("graph"), ".svg")

    def export_plots(self) -> None:
        from playground.ui.exporters import dialog_filters, export_plots

        self.tabs.build_lazy()
        self._export("plots", lambda path: export_plots(self.tabs.view("Plots"), path),
                     dialog_filters("plots"), ".png")

    def _export(self, what: str, write, filters: str, first_suffix: str) -> None:
        """Ask where (suggesting the format last used for ``what``), write, and say in the
        status bar how it went."""
        from playground.ui.exporters import ExportError

        suffix = str(self.settings.value(f"export_suffix/{what}", first_suffix))
        path = self.ask_export_path(f"Export {what}", filters,
                                    f"{self._export_stem()}-{what}{suffix}")
        if not path:
            return
        try:
            write(path)
        except (ExportError, OSError) as error:
            self._say(f"Could not export the {what}: {error}")
            return
        self.settings.setValue(f"export_suffix/{what}", Path(path).suffix.lower())
        self.settings.setValue("export_folder", str(Path(path).parent))
        self._say(f"Exported the {what} to {path}")

    def export_animation(self) -> None:
        """An animated GIF of every backward call drawn on the graph shown, or (a folder
        chosen) one PNG per step; written in the background, with progress and Cancel."""
        from playground.ui.animation_job import AnimationJob

        if self.animation_job is not None:
            self._say("An animation is being exported: wait, or Cancel it")
            return
        if self.view_state.when_traces_come(self.export_animation):
            return  # (the run's backward calls are a moment away)
        path = self.ask_export_path("Export backward animation", "Animated GIF (*.gif);;"
                                    "Folder of PNG frames (*)",
                                    self._export_stem() + "-backward.gif")
        if not path:
            return
        state = self.view_state
        traces = [call.trace for call in state.calls if call.graph is state.graph]
        job = AnimationJob(self.graph_view, traces, path, parent=self.window)
        job.progress.connect(self._animation_progress)
        job.finished.connect(lambda written: self._animation_ended(
            f"Exported the backward animation to {written}"))
        job.failed.connect(lambda message: self._animation_ended(
            f"Could not export the animation: {message}"))
        self.animation_job = job
        self.export_progress.setRange(0, 0)  # laying out: busy until the frames are counted
        self.export_bar.show()
        self._say("Exporting the backward animation…")
        job.start()

    def _make_export_bar(self) -> None:
        """The status bar's progress of a background export, with its Cancel button."""
        self.export_bar = QWidget()
        row = QHBoxLayout(self.export_bar)
        row.setContentsMargins(0, 0, 0, 0)
        self.export_progress = QProgressBar()
        self.export_progress.setMaximumWidth(180)
        self.export_progress.setFormat("frame %v of %m")
        cancel = QPushButton("Cancel")
        cancel.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        cancel.setToolTip("Stop exporting the animation; nothing is written")
        cancel.clicked.connect(self.cancel_animation_export)
        self.export_cancel = cancel
        row.addWidget(self.export_progress)
        row.addWidget(cancel)
        self.window.statusBar().addPermanentWidget(self.export_bar)
        self.export_bar.hide()

    def _animation_progress(self, done: int, total: int) -> None:
        self.export_progress.setRange(0, total)
        self.export_progress.setValue(done)

    def cancel_animation_export(self) -> None:
        if self.animation_job is not None:
            self.animation_job.cancel()
            self._animation_ended("Exporting the animation was cancelled: nothing was written")

    def _animation_ended(self, message: str) -> None:
        if self.animation_job is not None:
            self.animation_job.deleteLater()
        self.animation_job = None
        self.export_bar.hide()
        self._say(message)

    def _export_stem(self) -> str:
        return self.document.path.stem if self.document.path else "untitled"
