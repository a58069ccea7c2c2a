"""The window's runs: Run all, cells, Stop, Live mode, the kernel's engine and device, and what
becomes of a run's result (the ViewState gets it; the views follow)."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QStandardItemModel
from PySide6.QtWidgets import QApplication, QComboBox, QLabel, QMainWindow, QPushButton

from playground.engines.registry import DEFAULT_ENGINE, ENGINES, entry
from playground.kernel.launch import cuda_driver_found
from playground.model import RunResult, notebook
from playground.model.edits import moved_line
from playground.model.view_state import ViewState
from playground.ui.document import Document
from playground.ui.editor import CodeEditor
from playground.ui.following import follow
from playground.ui.formatting import duration_text
from playground.ui.kernel_runner import KernelRunner
from playground.ui.tutorial_outputs import TutorialOutputs

# after the last keystroke; the run's own time comes after (benchmarks/live_latency.py)
LIVE_DELAY_MS = 150
BUSY_LOOK_MS = 150  # a run's wait before Run and Stop look busy (run_control.RunControl)
UNMARK_AFTER_MS = 250  # a run's wait before the last run's error mark goes
DEVICES = (("auto", "auto"), ("CPU", "cpu"), ("CUDA", "cuda"))


def _incomplete_line(code: str) -> int | None:
    """The line where the code stops being Python (None when it parses); IPython's magic
    lines are allowed, as the kernel skips them."""
    from playground.kernel.notebook_lines import without_shell_lines

    code, _ = without_shell_lines(code)
    try:
        compile(code, "<live>", "exec", dont_inherit=True)
    except SyntaxError as error:
        return error.lineno or 1
    except ValueError:  # a NUL byte: let the run say so
        return None
    return None


class RunControl(QObject):
    """What runs and where: the run actions, the cells of Run all cells, Live mode, the
    engine and device boxes, and each run's result handed to the ViewState."""

    def __init__(self, window: QMainWindow, runner: KernelRunner, editor: CodeEditor,
                 view_state: ViewState, document: Document) -> None:
        super().__init__(window)
        self.window, self.runner, self.editor = window, runner, editor
        self.view_state, self.document = view_state, document
        self._elapsed = QTimer(self, interval=100, timeout=self._tick)
        # Run's and Stop's busy look comes once a run has taken this long: most runs end
        # sooner, and toggling the toolbar's actions made the whole window's chrome lay out
        # and repaint twice per run (QToolButton relayouts for any change of its action)
        self._busy_look = QTimer(self, singleShot=True, interval=BUSY_LOOK_MS,
                                 timeout=lambda: self._set_running(True))
        self._started_at = 0.0
        # The last run's error mark goes when the next run has taken this long, or when it
        # ends: a quick re-run that fails on the same line does not repaint the editor twice
        self._unmark_timer = QTimer(self, singleShot=True, interval=UNMARK_AFTER_MS,
                                    timeout=lambda: self.editor.mark_error_line(None))
        self._live_timer = QTimer(self, singleShot=True, interval=LIVE_DELAY_MS,
                                  timeout=self._live_run)
        self._live_pending = self._rerun_when_ready = False
        self._running_cell: notebook.CellKey | None = None
        self._cell_queue: list[tuple[int, int, notebook.CellKey]] = []
        self._cell_total = 0
        self._cells_run: int | None = None  # the cell number of a Run all cells under way
        self._cells_stopped = False  # Stop or Restart ended a Run all cells
        self._kernel_starts = 0
        self._run_generation = 0  # the document's generation when the last run started
        self._run_text = ""  # the editor's text when the last run started
        self.tutorial = TutorialOutputs(editor, document, view_state)
        self._cell_keys_now: dict[int, notebook.CellKey] = {}  # those of Run all cells
        follow(self, view_state.events.reset, self.tutorial.clear)  # a new document
        self._build_actions()
        self._build_engine_boxes()
        editor.textChanged.connect(self._typed)
        editor.completion_source = self.complete
        runner.finished.connect(self._finished)
        follow(self, view_state.events.figures, lambda _figures: self._figures_came())
        runner.starting.connect(self._kernel_starting)
        runner.ready.connect(self._kernel_ready)
        runner.failed.connect(self._kernel_failed)
        self._kernel_starting(f"Starting the {entry(runner.kernel.engine).noun} engine…")

    def _say(self, message: str) -> None:
        self.window.statusBar().showMessage(message)

    def _build_actions(self) -> None:
        window = self.window
        self.run_action = QAction("▶ Run all", window, shortcut=QKeySequence("Ctrl+Return"),
                                  triggered=self.run_all)
        self.run_action.setToolTip("Run the whole script in a fresh namespace (Ctrl+Enter)")
        self.stop_action = QAction("■ Stop", window, shortcut=QKeySequence("Ctrl+."),
                                   triggered=self.stop, enabled=False)
        self.stop_action.setToolTip("Interrupt the running code (Ctrl+.)")
        self.cell_action = QAction("▶ Run cell", window, shortcut=QKeySequence("Shift+Return"),
                                   triggered=self.run_cell)
        self.cell_action.setToolTip("Run the # %% cell under the cursor in the current "
                                    "namespace, then move to the next (Shift+Enter)")
        self.cells_action = QAction("Run all cells", window,
                                    shortcut=QKeySequence("Ctrl+Shift+Return"),
                                    triggered=self.run_all_cells)
        self.cells_action.setToolTip("Run every cell in order in a fresh namespace, each with "
                                     "its own output; stop at the first error "
                                     "(Ctrl+Shift+Enter)")
        self.restart_action = QAction("Restart kernel", window, triggered=self.restart_kernel)
        self.live_action = QAction("Live", window, checkable=True)
        self.live_action.setToolTip("Re-run the whole script shortly after you stop typing")
        # switched on by the user (not by restored settings): the script runs at once
        self.live_action.triggered.connect(
            lambda on: self._live_timer.start() if on and not self.document.loading_text
            else None)

    def _build_engine_boxes(self) -> None:
        kernel = self.runner.kernel
        self.engine_box = QComboBox()
        for name, engine in ENGINES.items():
            self.engine_box.addItem(engine.label, name)
        self.engine_box.setCurrentIndex(self.engine_box.findData(kernel.engine))
        self.engine_box.currentIndexChanged.connect(self._engine_chosen)
        self.device_box = QComboBox()
        for label, device in DEVICES:
            self.device_box.addItem(label, device)
        self.device_box.setCurrentIndex(self.device_box.findData(kernel.device))
        self.device_box.setToolTip("Where the torch engine runs: auto picks CUDA when present")
        self.device_box.setEnabled(entry(kernel.engine).has_devices)
        self.device_box.currentIndexChanged.connect(self._device_chosen)
        self.engine_label = QLabel()
        self.engine_label.setContentsMargins(10, 0, 0, 0)
        self._offer_devices()
        # shown when a run stopped on something the NumPy engine lacks: runs it on torch
        self.torch_offer = QPushButton("▶ Run on torch")
        self.torch_offer.setVisible(False)
        self.torch_offer.clicked.connect(self.run_on_torch)
        self.window.statusBar().addPermanentWidget(self.torch_offer)

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

    @property
    def busy(self) -> bool:
        return self.runner.busy

    # ----- what runs ----------------------------------------------------------------------------
    def run_all(self) -> None:
        self._cells_run = None
        self._start(self.editor.toPlainText(), fresh=True,
                    title=f"Run all · {Path(self.document.filename).name}")

    def run_cell(self) -> None:
        """Run the cell under the cursor in the kernel's current namespace, then move on."""
        line = self.editor.textCursor().blockNumber()
        first, last = self.editor.cell_bounds(line)
        lines = self.editor.toPlainText().split("\n")
        number = sum(1 for f, _, kind in self.cells() if kind == "code" and f <= first)
        self._cells_run = None
        keys = self._cell_keys()
        self.tutorial.cell_started(first, keys)
        if self._start(self._cell_code(first, last), fresh=False,
                       title=f"Cell {max(number, 1)} · lines {first + 1}-{last + 1}",
                       cell=keys.get(first, ("", 0))):
            if last >= len(lines) - 1 and len(self.cells()) > 1:
                self._add_cell_below()  # as Jupyter and VS Code do after the last cell
                return
            block = self.editor.document().findBlockByNumber(min(last + 1, len(lines) - 1))
            cursor = self.editor.textCursor()
            cursor.setPosition(block.position())
            self.editor.setTextCursor(cursor)

    def _add_cell_below(self) -> None:
        cursor = self.editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        ending = "" if self.editor.toPlainText().endswith("\n") else "\n"
        cursor.insertText(f"{ending}\n# %%\n")
        self.editor.setTextCursor(cursor)

    def cells(self) -> list[tuple[int, int, str]]:
        """(first line, last line, "code" or "markdown") of each ``# %%`` cell (0-based)."""
        return notebook.cell_spans(self.editor.toPlainText())

    def _cell_code(self, first: int, last: int) -> str:
        lines = self.editor.toPlainText().split("\n")
        # Blank lines in front keep the traceback's line numbers those of the editor.
        return "\n" * first + "\n".join(lines[first:last + 1]) + "\n"

    def _cell_keys(self) -> dict[int, notebook.CellKey]:
        """Each cell's key (its source as a saved notebook holds it, and how many cells
        before it have that source), by its first line: what it prints is kept under it."""
        lines = self.editor.toPlainText().split("\n")
        firsts, sources = [], []
        for first, last, _kind in self.cells():
            cells = notebook.from_percent("\n".join(lines[first:last + 1])).cells
            firsts.append(first)
            sources.append(cells[0].source if cells else "")
        return dict(zip(firsts, notebook.cell_keys(sources), strict=True))

    def run_all_cells(self) -> None:
        """Every code cell in order, each a run of its own in one fresh namespace, so the
        console shows what each printed; the first error stops the rest and is marked. The
        player offers the backward calls of every cell."""
        keys = self._cell_keys()
        queue = [(first, last, keys[first]) for first, last, kind in self.cells()
                 if kind == "code" and keys[first][0].strip()]
        if not queue or self.runner.busy:
            return
        self._cell_queue = queue
        self._cell_total = len(queue)
        self._cell_keys_now = keys
        self.tutorial.clear()
        self._next_cell(fresh=True)

    def stop(self) -> None:
        """Stop: the run going now, and the cells of Run all cells still to come."""
        self._end_cell_queue()
        self.runner.stop()

    def _end_cell_queue(self) -> None:
        if self._cell_queue:
            self._cell_queue = []
            self._cells_stopped = True

    def _say_cells_stopped(self) -> None:
        if self._cells_stopped:
            self._cells_stopped = False
            self._say(
                f"Stopped at cell {self._cells_run} of {self._cell_total}.")

    def _next_cell(self, fresh: bool = False) -> None:
        if not self._cell_queue:  # Stop came between two cells
            self._set_running(False)
            self._say_cells_stopped()
            return
        first, last, key = self._cell_queue.pop(0)
        number = self._cell_total - len(self._cell_queue)
        self._cells_run = number
        self.tutorial.cell_started(first, self._cell_keys_now)
        if not self._start(self._cell_code(first, last), fresh=fresh,
                           title=f"Cell {number} of {self._cell_total} · lines "
                                 f"{first + 1}-{last + 1}",
                           cell=key, continues=not fresh):
            self._cell_queue = []

    def _start(self, code: str, fresh: bool, title: str,
               cell: notebook.CellKey | None = None, continues: bool = False) -> bool:
        # the first run of a new document never sees the namespace of the one before
        fresh = fresh or self._run_generation != self.document.generation
        self.runner.figure_scale = self.editor.devicePixelRatioF()  # (the window's screen)
        if not self.runner.run(code, self.document.filename, fresh=fresh,
                               cell=cell is not None):
            self._say("A run is in progress: Stop it first")
            return False
        # the text is safe on disk before the run can do harm: written while the kernel
        # starts on it (on the run's way, the write delayed every run by a millisecond)
        self.document.save_recovery()
        self._running_cell = cell
        self.torch_offer.setVisible(False)
        self._run_generation = self.document.generation
        self._run_text = self.editor.toPlainText()  # the text its line numbers are of
        self._unmark_timer.start()
        self.view_state.begin_run(title, continues)
        if not self.stop_action.isEnabled():  # (between two cells it is on already)
            self._busy_look.start()
        self._started_at = time.perf_counter()
        self._elapsed.start()
        return True

    def _tick(self) -> None:
        waiting = " (waiting for the kernel to start)" if self.runner.is_starting else ""
        self._say(
            f"Running… {time.perf_counter() - self._started_at:.1f} s{waiting}")

    def complete(self, code: str, line: int, column: int) -> list:
        """Completions from the kernel's live namespace; none while code runs or it starts."""
        if self.runner.busy or self.runner.is_starting:
            return []
        return self.runner.kernel.complete(code, line, column)

    # ----- live mode ----------------------------------------------------------------------
    def _typed(self) -> None:
        if self.document.loading_text or self.editor.loading or \
                self.editor.highlighter.recolouring:
            return  # text a file brings, or colours: nothing was typed
        self.view_state.forget_replay("code changed: run to replay")  # it no longer matches
        if self.live_action.isChecked():
            self._live_timer.start()  # restarts the wait: debounced

    def _live_run(self) -> None:
        """Run the latest text; a run still going is cancelled (interrupted), not queued."""
        if self.runner.busy:
            self._live_pending = True
            self.runner.stop()
            return
        self._live_pending = False
        incomplete = _incomplete_line(self.editor.toPlainText())
        if incomplete is not None:  # mid-typing: the last good run stays on screen
            self._say(f"Live: not run, line {incomplete} is incomplete")
            return
        self.run_all()

    def _set_running(self, running: bool) -> None:
        """While a run (or Run all cells) is going: Stop, and none of Run all, Run cell and
        Run all cells."""
        for action in (self.run_action, self.cell_action, self.cells_action):
            if action.isEnabled() == running:  # (a change re-lays the toolbar out)
                action.setEnabled(not running)
        if self.stop_action.isEnabled() != running:
            self.stop_action.setEnabled(running)

    # ----- a run's result -----------------------------------------------------------------
    def _finished(self, result: RunResult) -> None:
        self._elapsed.stop()
        self._busy_look.stop()
        self._unmark_timer.stop()
        stale = self._run_generation != self.document.generation
        if stale:
            self._cell_queue = []  # a run of the document before New/Open: not this one's
        # between two cells of Run all cells, Stop stays on: a press then ends the sequence
        self._set_running(bool(self._cell_queue) and result.error is None and
                          not self._cells_stopped)
        if result.figures_due:  # while the kernel draws the run's figures, Stop ends that
            self.stop_action.setEnabled(True)
        if stale:
            return
        if result.error is None:
            self.editor.mark_error_line(None)
        if result.error is not None:
            self._mark_error(result.error)
            self._offer_torch(result.error)
        elif result.figures_due:
            plural = "s" if result.figures_due > 1 else ""
            self._say(f"Done in {duration_text(result.elapsed)} · drawing {result.figures_due} "
                      f"figure{plural}…")
        else:
            self._say(f"Done in {duration_text(result.elapsed)}")
        if self._running_cell is not None:
            self.document.keep_output(self._running_cell, result.output)
        cell = self._cells_run
        # the views follow: the console ends the run's output, the graph and plots redraw
        self.view_state.show_result(result, where=f"cell {cell}" if cell else "",
                                    continues=bool(cell and cell > 1))
        if self._running_cell is not None:  # after its output: how it compares
            self.tutorial.cell_finished(result.output, cell)
        if self._cells_stopped:  # Stop or Restart ended Run all cells
            self._say_cells_stopped()
        elif self._cell_queue and result.error is None:
            QTimer.singleShot(0, self._next_cell)
        elif self._cell_queue:
            failed = self._cell_total - len(self._cell_queue)
            self._cell_queue = []
            self._say(f"Stopped at cell {failed} of {self._cell_total}: "
                      f"{result.error.message}")
        if self._live_pending:
            self._live_run()

    def _figures_came(self) -> None:
        """The kernel drew the last run's figures: Stop is off again, unless a run goes on."""
        if self.runner.busy or self._cell_queue or self.view_state.figures_coming:
            return
        self.stop_action.setEnabled(False)
        result = self.view_state.result
        if result is not None and result.error is None:
            self._say(f"Done in {duration_text(result.elapsed)}")

    def _offer_torch(self, error) -> None:
        """The NumPy engine stopped on something it lacks: one click runs the script on
        torch; where torch is not installed, the console says how to install it."""
        missing = error.missing if error is not None else ""
        if not missing or self.runner.kernel.engine == "torch":
            return
        if ENGINES["torch"].installed:
            short = missing if len(missing) <= 40 else missing[:39] + "…"
            self.torch_offer.setText(f"▶ Run on torch: the NumPy engine lacks {short}")
            self.torch_offer.setToolTip(f"The NumPy engine lacks {missing}: run the script "
                                        "again on real torch (the engine box switches)")
            self.torch_offer.setVisible(True)
            return
        from playground.engines.torch_engine import install_hint

        self.view_state.remark(f"The NumPy engine lacks {missing}, and torch is not installed: "
                               f"{install_hint()} adds it; then choose Torch as the engine.")

    def run_on_torch(self) -> None:
        """Switch to the torch engine and run the script there (the offer's click)."""
        self.torch_offer.setVisible(False)
        self.engine_box.setCurrentIndex(self.engine_box.findData("torch"))

    def _mark_error(self, error) -> None:
        """Mark the traceback's line where it is now: typing during the run moved it, or
        changed it (then nothing is marked, and the message says the line was edited)."""
        line = error.line and moved_line(self._run_text, self.editor.toPlainText(), error.line)
        self.editor.mark_error_line(line or None)
        edited = " (that line was edited since it ran)" if error.line and not line else ""
        self._say(error.message + edited)

    # ----- the kernel and its engine -------------------------------------------------------------
    def restart_kernel(self) -> None:
        self._rerun_when_ready = False
        self._end_cell_queue()  # the cells to come would run in the new kernel
        self.runner.restart()

    def _engine_chosen(self, index: int) -> None:
        name = self.engine_box.itemData(index)
        if name != self.runner.kernel.engine:
            self._switch(name, self.device_box.currentData())

    def _device_chosen(self, index: int) -> None:
        if entry(self.runner.kernel.engine).has_devices:
            self._switch(self.runner.kernel.engine, self.device_box.itemData(index))

    def _switch(self, engine: str, device: str) -> None:
        """Restart the kernel on ``engine`` in the background, then re-run the script."""
        self.torch_offer.setVisible(False)
        self._rerun_when_ready = True
        self.view_state.reset()
        self.runner.switch_in_background(engine, device)

    def _kernel_starting(self, message: str) -> None:
        """A kernel is on its way: the window keeps painting and says so."""
        self.view_state.figures_lost()  # (the old kernel's drawing ends with it)
        self.engine_box.setEnabled(False)
        self.device_box.setEnabled(False)
        self.engine_label.setText(message)
        self._say(f"{message} A run waits for it.")
        if self._kernel_starts:  # the window's own first start is no news in the console
            self.view_state.remark(message)
        self._kernel_starts += 1
        if QApplication.overrideCursor() is None:
            QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)

    def _kernel_ready(self, description: str) -> None:
        self._kernel_settled()
        self.engine_label.setText(description)
        self._say(f"Ready: {description}")
        if self._kernel_starts > 1:
            self.view_state.remark(f"Kernel ready: {description}; the namespace is empty")
        if self._rerun_when_ready:
            self._rerun_when_ready = False
            if not self.runner.busy:
                self.run_all()

    def _kernel_failed(self, message: str) -> None:
        self._kernel_settled()
        self._rerun_when_ready = False
        self.engine_box.setToolTip(message)  # e.g. how to install torch
        self._say(message)
        self.view_state.remark(message)
        if self.runner.kernel.process is None:  # nothing runs at all: fall back to NumPy
            self._switch(DEFAULT_ENGINE, "auto")
            return
        self.engine_label.setText(self.runner.kernel.description)

    def _kernel_settled(self) -> None:
        """The kernel started or failed: the boxes say what runs and may change again."""
        while QApplication.overrideCursor() is not None:
            QApplication.restoreOverrideCursor()
        for box, value in ((self.engine_box, self.runner.kernel.engine),
                           (self.device_box, self.runner.kernel.device)):
            box.blockSignals(True)
            box.setCurrentIndex(box.findData(value))
            box.blockSignals(False)
        self.engine_box.setEnabled(True)
        self.device_box.setEnabled(entry(self.runner.kernel.engine).has_devices)
        self._offer_devices()
