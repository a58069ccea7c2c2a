"""The main window: editor above the console, a toolbar to run, stop and pick the engine."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QLabel,
    QMainWindow,
    QSplitter,
    QToolBar,
)

from playground.kernel.client import KernelError
from playground.model import RunResult
from playground.ui.console import Console
from playground.ui.editor import CodeEditor
from playground.ui.runner import KernelRunner

ENGINES = (("NumPy", "numpy"), ("Torch", "torch"))
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

    def __init__(self, path: str | None = None, engine: str = "numpy") -> None:
        super().__init__()
        self.path = Path(path) if path else None
        self.runner = KernelRunner(engine)
        self.editor = CodeEditor(dark=is_dark(QApplication.instance()))
        self.console = Console()
        self._build_layout()
        self._build_toolbar()
        self._elapsed = QTimer(self, interval=100, timeout=self._tick)
        self._started_at = 0.0
        self.runner.output.connect(self.console.write)
        self.runner.finished.connect(self._finished)
        self.editor.setPlainText(self.path.read_text(encoding="utf-8") if self.path else STARTER)
        self.editor.document().setModified(False)
        self.editor.modificationChanged.connect(self._update_title)
        self._update_title()
        self.engine_label.setText(self.runner.kernel.description)
        self.statusBar().showMessage("Ready: Ctrl+Enter runs the script")
        self.resize(1100, 760)

    # ----- building -------------------------------------------------------------------------
    def _build_layout(self) -> None:
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.editor)
        splitter.addWidget(self.console)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        self.setCentralWidget(splitter)

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
        toolbar.addAction(self.run_action)
        toolbar.addAction(self.stop_action)
        toolbar.addSeparator()
        toolbar.addWidget(QLabel(" Engine: "))
        self.engine_box = QComboBox()
        for label, name in ENGINES:
            self.engine_box.addItem(label, name)
        self.engine_box.setCurrentIndex([n for _, n in ENGINES].index(self.runner.kernel.engine))
        self.engine_box.currentIndexChanged.connect(self._engine_chosen)
        toolbar.addWidget(self.engine_box)
        self.engine_label = QLabel()
        self.engine_label.setContentsMargins(10, 0, 0, 0)
        toolbar.addWidget(self.engine_label)

    def _update_title(self, _modified: bool = False) -> None:
        name = self.path.name if self.path else "untitled"
        mark = " •" if self.editor.document().isModified() else ""
        self.setWindowTitle(f"{name}{mark} — Autograd Playground")

    # ----- running --------------------------------------------------------------------------
    def run_all(self) -> None:
        filename = str(self.path) if self.path else "<untitled>"
        if not self.runner.run(self.editor.toPlainText(), filename, fresh=True):
            self.statusBar().showMessage("A run is in progress: Stop it first")
            return
        self.editor.mark_error_line(None)
        self.console.begin_run(f"Run all · {self.path.name if self.path else 'untitled'}")
        self.run_action.setEnabled(False)
        self.stop_action.setEnabled(True)
        self._started_at = time.perf_counter()
        self._elapsed.start()

    def _tick(self) -> None:
        self.statusBar().showMessage(f"Running… {time.perf_counter() - self._started_at:.1f} s")

    def _finished(self, result: RunResult) -> None:
        self._elapsed.stop()
        self.run_action.setEnabled(True)
        self.stop_action.setEnabled(False)
        self.console.finish_run(result)
        if result.error is not None:
            self.editor.mark_error_line(result.error.line)
            self.statusBar().showMessage(result.error.message)
        else:
            self.statusBar().showMessage(f"Done in {result.elapsed:.2f} s")
        self.last_result = result

    def _engine_chosen(self, index: int) -> None:
        name = self.engine_box.itemData(index)
        if name == self.runner.kernel.engine:
            return
        try:
            description = self.runner.switch(name)
        except KernelError as error:
            self.engine_box.blockSignals(True)
            self.engine_box.setCurrentIndex([n for _, n in ENGINES].index(
                self.runner.kernel.engine))
            self.engine_box.blockSignals(False)
            self.statusBar().showMessage(str(error))
            return
        self.engine_label.setText(description)
        self.run_all()

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.runner.close()
        super().closeEvent(event)


def launch(path: str | None = None) -> int:
    application = QApplication.instance() or QApplication([])
    application.setApplicationName("Autograd Playground")
    window = MainWindow(path)
    window.show()
    return application.exec()
