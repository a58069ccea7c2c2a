"""The console pane: a run's output as it streams, errors in red, one run after another."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFontDatabase, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from playground.model import RunResult
from playground.ui.following import follow
from playground.ui.formatting import duration_text

ERROR_COLOUR = QColor("#d03030")
NOTE_COLOUR = QColor("#7a7a7a")
TRACEBACK_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
# A run's output is shown up to this many characters (what the kernel keeps of it too).
SHOWN_LIMIT = 1 << 20
FLUSH_MS = 50  # streamed output is drawn in batches: a flood of lines never freezes the window
# characters drawn a turn: the document's cost grows faster than the text (1 MB at once is some
# sixty times the cost of 64 KB), so a flood is drawn a slice at a time
FLUSH_CHARS = 1 << 16
# Runs kept for scrolling back; older ones are dropped, or a long session's console would grow
# without end (the soak measured 0.07 MB a run of the seed tutorials).
KEPT_RUNS = 20
LINE_LIMIT = 10_000  # characters of one line the console shows (see LineCutter)
RUN_START = 1  # the QTextBlock user state that tags a run's separator line
# How a run that did not finish ended, in the closing line of its output.
ENDINGS = {"exception": "stopped by an exception", "interrupted": "interrupted",
           "timeout": "stopped at the time limit", "crash": "the kernel crashed",
           "memory": "out of memory", "exit": "the script exited"}


class LineCutter:
    """Shows at most LINE_LIMIT characters of a printed line and says how many more there
    were: Qt lays out an unbreakable line in time that grows faster than its length
    (``print('=' * 300_000)`` froze the window 4-7 s). The run's output keeps every
    character; only the console's view of it is cut."""

    def __init__(self) -> None:
        self.length = 0  # characters of the current line so far
        self.hidden = 0  # of them, not shown

    def cut(self, text: str) -> str:
        if "\n" not in text and self.length + len(text) <= LINE_LIMIT:
            self.length += len(text)  # the common case, cheap
            return text
        pieces = []
        for index, part in enumerate(text.split("\n")):
            if index:
                pieces.append(self._ending() + "\n")
                self.length = self.hidden = 0
            room = max(LINE_LIMIT - self.length, 0)
            pieces.append(part[:room])
            self.length += len(part)
            self.hidden += max(len(part) - room, 0)
        return "".join(pieces)

    def close(self) -> str:
        """The note of a cut last line that never ended (the run is over)."""
        ending = self._ending()
        self.length = self.hidden = 0
        return ending + "\n" if ending else ""

    def _ending(self) -> str:
        return f" … ({self.hidden:,} more characters on this line)" if self.hidden else ""


class Console(QPlainTextEdit):
    """Read-only, selectable and copyable; stderr and errors in a distinct colour.

    Clicking a traceback's ``File "...", line N`` emits ``line_clicked(file, N)``.
    """

    line_clicked = Signal(str, int)

    def __init__(self, state=None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setUndoRedoEnabled(False)
        self.setMaximumBlockCount(20_000)  # keeps the pane fast when a script prints a lot
        self._pending: list[tuple[str, str]] = []
        self._runs_begun = 0  # separators tagged RUN_START since the console was cleared
        self._edit: QTextCursor | None = None  # the edit appends go to (``_one_edit``)
        self._shown = 0  # characters of this run's output shown so far
        self._cut_said = False  # the note that output past SHOWN_LIMIT is not shown
        self._finishing: RunResult | None = None  # a run's end, drawn after its output
        self._lines = LineCutter()
        self._flush_timer = QTimer(self, singleShot=True, interval=FLUSH_MS,
                                   timeout=self.flush)
        if state is not None:  # the console follows the runs like every view
            follow(self, state.events.reset, self.clear_all)  # a new document or engine
            follow(self, state.events.run_started, self.begin_run)
            follow(self, state.events.output, self.write)
            follow(self, state.events.remark, self.note)
            follow(self, state.events.result, self.finish_run)

    def clear_all(self) -> None:
        self._runs_begun = 0
        self._pending = []
        self._shown = 0
        self._finishing = None
        self.clear()

    def note(self, text: str) -> None:
        """A line of the app's own (the kernel starting, ready), set apart in grey."""
        self._draw_all()
        if not self.document().isEmpty() and not self.toPlainText().endswith("\n"):
            self._append("\n")
        self._append(f"{text}\n", NOTE_COLOUR)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton or self.textCursor().hasSelection():
            return
        text = self.cursorForPosition(event.position().toPoint()).block().text()
        match = TRACEBACK_LINE.search(text)
        if match:
            self.line_clicked.emit(match["file"], int(match["line"]))

    def _append(self, text: str, colour: QColor | None = None) -> None:
        text_format = QTextCharFormat()
        if colour is not None:
            text_format.setForeground(colour)
        if self._edit is not None:
            self._edit.insertText(text, text_format)
            return
        with self._one_edit():
            self._edit.insertText(text, text_format)

    @contextlib.contextmanager
    def _one_edit(self) -> Iterator[None]:
        """The appends inside are one edit of the document: laid out, and scrolled to, once
        (each on its own cost half a millisecond; a run's end makes several)."""
        if self._edit is not None:
            yield
            return
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.beginEditBlock()
        self._edit = cursor
        try:
            yield
        finally:
            self._edit = None
            cursor.endEditBlock()
            self.setTextCursor(cursor)
            self.ensureCursorVisible()

    def begin_run(self, title: str, continues: bool = False) -> None:
        """A separator line, so each run's output stands apart. ``continues``: the next cell of
        a Run all cells, kept together with the cells before it."""
        with self._one_edit():
            self._begin_run(title, continues)

    def _begin_run(self, title: str, continues: bool) -> None:
        self._draw_all()
        self._shown = 0
        self._cut_said = False
        self._lines = LineCutter()
        if not continues:
            self._forget_old_runs(KEPT_RUNS - 1)
        if not self.document().isEmpty():
            self._append("\n")
        self._append(f"── {title} ──\n", NOTE_COLOUR)
        if not continues:
            self.document().lastBlock().previous().setUserState(RUN_START)
            self._runs_begun += 1

    def run_count(self) -> int:
        """How many runs the console shows (a Run all cells counts once)."""
        return len(self._run_starts())

    def _run_starts(self) -> list[int]:
        starts, block = [], self.document().firstBlock()
        while block.isValid():
            if block.userState() == RUN_START:
                starts.append(block.position())
            block = block.next()
        return starts

    def _forget_old_runs(self, keep: int) -> None:
        """Remove the oldest runs but ``keep``, looking only through their lines (a look
        through every line took a millisecond of each run)."""
        if self.blockCount() >= self.maximumBlockCount():  # lines were dropped at the top,
            self._runs_begun = len(self._run_starts())     # separators with them: count
        extra = self._runs_begun - keep
        if extra <= 0:
            return
        block, seen = self.document().firstBlock(), 0
        while block.isValid():
            if block.userState() == RUN_START:
                seen += 1
                if seen > extra:  # the first run kept
                    break
            block = block.next()
        if not block.isValid():
            return
        cursor = QTextCursor(self.document())
        cursor.setPosition(block.position(), QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        self._runs_begun = keep

    def write(self, stream: str, text: str) -> None:
        """Queue streamed output; it is drawn within FLUSH_MS."""
        if self._shown >= SHOWN_LIMIT:
            return
        text = text[:SHOWN_LIMIT - self._shown]
        self._shown += len(text)
        text = self._lines.cut(text)
        if self._pending and self._pending[-1][0] == stream:
            self._pending[-1] = (stream, self._pending[-1][1] + text)
        else:
            self._pending.append((stream, text))
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def flush(self, limit: int | None = FLUSH_CHARS) -> None:
        """Draw queued output, ``limit`` characters of it (None: all); the rest comes on the
        next turns, and then the end of a run that already finished."""
        with self._one_edit():
            self._flush(limit)

    def _flush(self, limit: int | None) -> None:
        budget = float("inf") if limit is None else limit
        while self._pending and budget > 0:
            stream, text = self._pending[0]
            part = text if len(text) <= budget else text[:int(budget)]
            self._append(part, ERROR_COLOUR if stream == "stderr" else None)
            budget -= len(part)
            if len(part) < len(text):
                self._pending[0] = (stream, text[len(part):])
            else:
                self._pending.pop(0)
        if self._pending:
            self._flush_timer.start()
            return
        if self._shown >= SHOWN_LIMIT and not self._cut_said:
            self._cut_said = True
            self._append("\n(output longer than 1 MiB: the rest is not shown)\n", NOTE_COLOUR)
        finishing, self._finishing = self._finishing, None
        if finishing is not None:
            self._finish(finishing)

    def _draw_all(self) -> None:
        self.flush(limit=None)

    def finish_run(self, result: RunResult) -> None:
        """The run's end (its error, notes and time) after the last of its output."""
        self._finishing = result
        self.flush()

    def _finish(self, result: RunResult) -> None:
        unfinished = self._lines.close()
        if unfinished:
            self._append(unfinished, NOTE_COLOUR)
        error = result.error
        if error is not None:
            cutter = LineCutter()  # a traceback quoting a huge value has lines as long
            self._append(cutter.cut(error.traceback or f"{error.message}\n") + cutter.close(),
                         ERROR_COLOUR)
        for note in result.notes:
            self._append(f"({note})\n", NOTE_COLOUR)
        if result.output_truncated and self._shown < SHOWN_LIMIT:
            self._append("(output longer than 1 MiB: the rest was not kept)\n", NOTE_COLOUR)
        if error is None:
            status = f"done in {duration_text(result.elapsed)}"
        elif error.kind == "syntax":
            status = "syntax error: nothing ran"
        else:
            ending = ENDINGS.get(error.kind, error.kind)
            status = f"{ending} after {duration_text(result.elapsed)}"
        self._append(f"[{status}]\n", NOTE_COLOUR)
