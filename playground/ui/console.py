"""The console pane: a run's output as it streams, errors in red, one run after another."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from playground.model import RunResult

ERROR_COLOUR = QColor("#d03030")
NOTE_COLOUR = QColor("#7a7a7a")
TRACEBACK_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')


class Console(QPlainTextEdit):
    """Read-only, selectable and copyable; stderr and errors in a distinct colour.

    Clicking a traceback's ``File "...", line N`` emits ``line_clicked(file, N)``.
    """

    line_clicked = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setUndoRedoEnabled(False)
        self.setMaximumBlockCount(20_000)  # keeps the pane fast when a script prints a lot

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton or self.textCursor().hasSelection():
            return
        text = self.cursorForPosition(event.position().toPoint()).block().text()
        match = TRACEBACK_LINE.search(text)
        if match:
            self.line_clicked.emit(match["file"], int(match["line"]))

    def _append(self, text: str, colour: QColor | None = None) -> None:
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        text_format = QTextCharFormat()
        if colour is not None:
            text_format.setForeground(colour)
        cursor.insertText(text, text_format)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()

    def begin_run(self, title: str) -> None:
        """A separator line, so each run's output stands apart."""
        if not self.document().isEmpty():
            self._append("\n")
        self._append(f"── {title} ──\n", NOTE_COLOUR)

    def write(self, stream: str, text: str) -> None:
        self._append(text, ERROR_COLOUR if stream == "stderr" else None)

    def finish_run(self, result: RunResult) -> None:
        error = result.error
        if error is not None:
            self._append(error.traceback or f"{error.message}\n", ERROR_COLOUR)
        if result.output_truncated:
            self._append("(output longer than 1 MiB: the rest was not kept)\n", NOTE_COLOUR)
        status = "done" if error is None else error.kind
        self._append(f"[{status} in {result.elapsed:.2f} s]\n", NOTE_COLOUR)
