"""The code editor: line numbers and cell marks, current-line highlight, spaces for tabs,
Python colours."""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from PySide6.QtCore import QEvent, QRect, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QPainter,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextOption,
)
from PySide6.QtWidgets import QCompleter, QPlainTextEdit, QTextEdit, QWidget

from playground.model import notebook
from playground.ui import line_commands
from playground.ui.editor_gutter import Gutter
from playground.ui.highlighter import PythonHighlighter
from playground.ui.line_commands import INDENT
from playground.ui.relay import emit_on_ui_thread

# A long text is put in this many lines per event-loop turn: one setPlainText of the 300,000
# lines of a 100,000-cell notebook froze the window; 10,000 lines fit in a few frames.
LOADED_PER_TURN = 10_000
WRAPPED_UP_TO = 5_000  # characters of the longest line that still wraps (see _wrap)


# Dropped files with these suffixes open as documents; other drops insert text as usual.
OPENS = (".py", ".ipynb", ".md", ".markdown", ".txt")


class CodeEditor(QPlainTextEdit):
    """A plain-text editor for Python with the comforts of a small IDE.

    Completion: after a ``.`` or on Ctrl+Space, ``completion_source(code, line, column)`` (the
    kernel's jedi, with the live namespace) is asked off the UI thread; its names pop up.
    """

    _completions_ready = Signal(int, list)
    file_dropped = Signal(str)  # a script or notebook dropped on the editor: open it
    loaded = Signal()  # the last part of a long text is in (load_text)

    def __init__(self, parent: QWidget | None = None, dark: bool = False) -> None:
        super().__init__(parent)
        self.completion_source: Callable[[str, int, int], list] | None = None
        # The model is kept here: a QCompleter does not keep a Python-made model alive.
        self.completion_model = QStringListModel(self)
        self.completer = QCompleter(self.completion_model, self)
        self.completer.setWidget(self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.activated.connect(self._insert_completion)
        self._completions_ready.connect(self._show_completions)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        # Notebooks' markdown cells are paragraphs on one line: wrap them (and long code) at
        # the window's edge rather than hide the end of every sentence.
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 4)
        self.highlighter = PythonHighlighter(self.document(), dark)
        self.error_line: int | None = None
        self.linked_line: int | None = None  # the line that made the graph's node in hand
        # (a cursor at a cell's first line, which follows edits; ✓ ≈ or ≠; why)
        self.cell_marks: list[tuple[QTextCursor, str, str]] = []
        self._gutter = Gutter(self)
        self.blockCountChanged.connect(self._update_margins)
        self.updateRequest.connect(self._scroll_gutter)
        self.cursorPositionChanged.connect(self._highlight_lines)
        self._parts_to_load: deque[str] = deque()
        self._lines_coming = 0  # the gutter is made wide enough for them at once
        self._modified_when_loaded = self._inserting = False
        self._update_margins()
        self._highlight_lines()
        self._appending = QTimer(self, interval=0, timeout=self._append_part)
        self.document().contentsChange.connect(self._unwrap_long_lines)

    # ----- loading a text -----------------------------------------------------------------
    def load_text(self, text: str, modified: bool = False) -> None:
        """Replace the text (no undo back to the old one). A long text is put in a part per
        event-loop turn, read-only until the last part is in: the window never freezes, and
        the top can be read at once. ``modified`` is the document's state once loaded."""
        self._appending.stop()
        lines = text.split("\n")
        self._wrap(max(map(len, lines)) <= WRAPPED_UP_TO)
        self._lines_coming = len(lines)
        self._update_margins()
        self.highlighter.prepare(len(lines))
        self._modified_when_loaded = modified
        self._parts_to_load = deque("\n".join(lines[start:start + LOADED_PER_TURN])
                                    for start in range(0, len(lines), LOADED_PER_TURN))
        self.setPlainText(self._parts_to_load.popleft())
        self.document().setModified(modified)
        self.highlighter.start()
        if self._parts_to_load:
            self.document().setUndoRedoEnabled(False)  # an undo would take the parts out
            self.setReadOnly(True)
            self.highlighter.more_text_coming = True
            self._appending.start()
        else:
            self._loaded()

    def _wrap(self, wrapped: bool) -> None:
        """Lines wrap at the window's edge, unless one is longer than WRAPPED_UP_TO: Qt
        wraps a line of 600,000 letters in 32 s (a million brackets: 80 s), and lays it out
        unwrapped in 0.4 s."""
        mode = QPlainTextEdit.LineWrapMode.WidgetWidth if wrapped else \
            QPlainTextEdit.LineWrapMode.NoWrap
        if self.lineWrapMode() != mode:
            self.setLineWrapMode(mode)

    def _unwrap_long_lines(self, position: int, _removed: int, added: int) -> None:
        """A paste that makes a line too long to wrap turns wrapping off (for this text)."""
        if not added or self.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap:
            return
        document = self.document()
        block, end = document.findBlock(position), document.findBlock(position + added)
        while block.isValid():
            if block.length() > WRAPPED_UP_TO:
                self._wrap(False)
                return
            if block == end:
                return
            block = block.next()

    @property
    def loading(self) -> bool:
        """Whether parts of a long text are still to come (the editor is read-only)."""
        return bool(self._parts_to_load)

    def finish_loading(self) -> None:
        """Put the rest of a long text in now (for whoever needs all of it at once)."""
        while self._parts_to_load:
            self._append_part()

    def toPlainText(self) -> str:  # noqa: N802 - Qt's name
        """The whole text, even while a long one is still loading."""
        self.finish_loading()
        return super().toPlainText()

    def _append_part(self) -> None:
        if not self._parts_to_load or self._inserting:
            return  # (a handler of the insertion's textChanged asked for the whole text)
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self._inserting = True  # the part is taken off after: ``loading`` holds meanwhile
        try:
            with self.highlighter.appending():
                cursor.insertText("\n" + self._parts_to_load[0])
        finally:
            self._inserting = False
        self._parts_to_load.popleft()
        # the text is the file's, not an edit (autosave and the title's mark go by this)
        self.document().setModified(self._modified_when_loaded)
        if not self._parts_to_load:
            self._loaded()

    def _loaded(self) -> None:
        was_loading = self._appending.isActive()
        self._lines_coming = 0
        self._appending.stop()
        self.highlighter.more_text_coming = False
        self.document().setUndoRedoEnabled(True)
        self.setReadOnly(False)
        self.document().setModified(self._modified_when_loaded)
        if was_loading:
            self.loaded.emit()

    # ----- gutter -------------------------------------------------------------------------
    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount(), self._lines_coming)))
        marks = self.fontMetrics().height() + 8 if self.cell_marks else 0  # (a mark's badge)
        return 14 + self.fontMetrics().horizontalAdvance("9") * max(digits, 2) + marks

    def _update_margins(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and hasattr(self, "_gutter"):
            # text zoom: the numbers' room follows
            self._update_margins()
            self.resizeEvent(None)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if event is not None:
            super().resizeEvent(event)
        area = self.contentsRect()
        self._gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(),
                                       area.height()))

    # ----- cells ----------------------------------------------------------------------------
    def cell_bounds(self, line: int) -> tuple[int, int]:
        """First and last line (0-based) of the ``# %%`` cell containing ``line``."""
        for first, last, _kind in notebook.cell_spans(self.toPlainText()):
            if first <= line <= last:
                return first, last
        return line, line

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().paintEvent(event)
        painter = QPainter(self.viewport())
        painter.setPen(QColor(128, 128, 128, 160))
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        while block.isValid():
            top = self.blockBoundingGeometry(block).translated(offset).top()
            if top > event.rect().bottom():
                break
            if notebook.marker_kind(block.text()) is not None:
                # A visible separator above every cell, as in VS Code, Spyder and jupytext.
                painter.drawLine(0, round(top), self.viewport().width(), round(top))
            block = block.next()

    # ----- marks -----------------------------------------------------------------------------
    def mark_cell(self, line: int, mark: str, why: str) -> None:
        """``mark`` (✓, ≈ or ≠) beside a cell's first line (0-based); ``why`` is its tooltip."""
        self.cell_marks = [entry for entry in self.cell_marks if entry[0].blockNumber() != line]
        block = self.document().findBlockByNumber(line)
        if block.isValid():
            self.cell_marks.append((QTextCursor(block), mark, why))
        self._update_margins()
        self._gutter.update()

    def clear_cell_marks(self) -> None:
        if self.cell_marks:
            self.cell_marks = []
            self._update_margins()
            self._gutter.update()

    def cell_mark(self, line: int) -> tuple[str, str] | None:
        """The mark beside a line (0-based) and why, if it has one."""
        return next(((mark, why) for cursor, mark, why in self.cell_marks
                     if cursor.blockNumber() == line), None)

    # ----- highlights -------------------------------------------------------------------------
    def mark_error_line(self, line: int | None) -> None:
        """Mark the line a traceback points at (None clears it)."""
        if line == self.error_line:
            return  # (each run clears it: repainting the gutter for nothing cost 2 ms)
        self.error_line = line
        self._highlight_lines()
        self._gutter.update()

    def mark_linked_line(self, line: int | None, scroll: bool = False) -> None:
        """Mark the line that made the graph node hovered or selected (None clears it);
        with ``scroll``, bring it into view (the cursor stays where the user left it)."""
        if line != self.linked_line:
            self.linked_line = line
            self._highlight_lines()
        if scroll and line is not None:
            self._bring_into_view(line)

    def _bring_into_view(self, line: int) -> None:
        block = self.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return
        rect = self.blockBoundingGeometry(block).translated(self.contentOffset())
        if rect.top() >= 0 and rect.bottom() <= self.viewport().height():
            return  # already in view: nothing moves under the user's eyes
        shown = max(1, self.viewport().height() // max(1, self.fontMetrics().height()))
        self.verticalScrollBar().setValue(max(0, block.firstLineNumber() - shown // 3))

    def _highlight_lines(self) -> None:
        selections = []
        current = QTextEdit.ExtraSelection()
        current.format.setBackground(self.palette().alternateBase())
        current.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        current.cursor = self.textCursor()
        current.cursor.clearSelection()
        selections.append(current)
        if self.error_line is not None:
            block = self.document().findBlockByNumber(self.error_line - 1)
            if block.isValid():
                error = QTextEdit.ExtraSelection()
                error.format.setBackground(QColor(208, 48, 48, 45))
                error.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
                error.cursor = QTextCursor(block)
                selections.append(error)
        block = self.document().findBlockByNumber((self.linked_line or 0) - 1)
        if self.linked_line is not None and block.isValid():
            linked = QTextEdit.ExtraSelection()
            linked.format.setBackground(QColor(11, 138, 138, 48))  # graph_look.LINKED, light
            linked.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
            linked.cursor = QTextCursor(block)
            selections.append(linked)
        self.setExtraSelections(selections)

    # ----- editing commands -------------------------------------------------------------------
    def indent_selection(self, direction: int) -> None:
        """Tab / Shift+Tab on the selected lines."""
        line_commands.indent_lines(self, direction)

    def toggle_comment(self) -> None:
        """Ctrl+/: comment the selected lines, or uncomment them when all are comments."""
        line_commands.toggle_comment(self)

    def find(self, text: str, backwards: bool = False) -> bool:
        """Select the next occurrence of ``text``, wrapping at the end."""
        flags = QTextDocument.FindFlag.FindBackward if backwards else QTextDocument.FindFlag(0)
        if self.find_in_document(text, flags):
            return True
        where = self.textCursor()
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End if backwards
                            else QTextCursor.MoveOperation.Start)
        self.setTextCursor(cursor)
        if self.find_in_document(text, flags):
            return True
        self.setTextCursor(where)  # not found: the cursor stays where it was
        return False

    def find_in_document(self, text: str, flags) -> bool:
        return QPlainTextEdit.find(self, text, flags)

    def go_to_line(self, line: int) -> bool:
        """Put the cursor at the start of a 1-based line; False past the end."""
        block = self.document().findBlockByNumber(line - 1)
        if not block.isValid():
            return False
        cursor = self.textCursor()
        cursor.setPosition(block.position())
        self.setTextCursor(cursor)
        self.centerCursor()
        return True

    # ----- dropped files --------------------------------------------------------------------
    @staticmethod
    def _dropped_file(event) -> str | None:
        """The local script or notebook a drag carries (not its ``file:///`` text)."""
        urls = event.mimeData().urls() if event.mimeData().hasUrls() else []
        files = [url.toLocalFile() for url in urls if url.isLocalFile()]
        return files[0] if len(files) == 1 and files[0].lower().endswith(
            OPENS) else None

    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self._dropped_file(event):
            event.acceptProposedAction()
        else:
            super().dragEnterEvent(event)

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if self._dropped_file(event):
            event.acceptProposedAction()
        else:
            super().dragMoveEvent(event)

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt's name
        path = self._dropped_file(event)
        if path:
            event.acceptProposedAction()
            self.file_dropped.emit(path)
        else:
            super().dropEvent(event)

    # ----- completion -----------------------------------------------------------------------
    def _word_before_cursor(self) -> str:
        cursor = self.textCursor()
        text = cursor.block().text()[: cursor.positionInBlock()]
        start = len(text)
        while start and (text[start - 1].isalnum() or text[start - 1] == "_"):
            start -= 1
        return text[start:]

    def request_completions(self) -> None:
        if self.completion_source is None:
            return
        cursor = self.textCursor()
        code, position = self.toPlainText(), cursor.position()
        line, column = cursor.blockNumber() + 1, cursor.positionInBlock()
        source = self.completion_source

        def ask() -> None:
            names = [name for name, _ in source(code, line, column)]
            emit_on_ui_thread(self._completions_ready, position, names)

        threading.Thread(target=ask, daemon=True).start()

    def _show_completions(self, position: int, names: list) -> None:
        if not names or not self._still_completing(position):
            return  # the user moved on while the kernel was thinking
        self.completion_model.setStringList(names)
        self.completer.setCompletionPrefix(self._word_before_cursor())
        # the cursor's rectangle is the viewport's; the popup is placed in the editor's
        rect = self.cursorRect().translated(self.viewport().geometry().topLeft())
        rect.setWidth(self.completer.popup().sizeHintForColumn(0) + 24)
        self.completer.complete(rect)
        self._select_first()

    def _select_first(self) -> None:
        """The first match chosen, as VS Code and Jupyter do: Enter and Tab accept it."""
        popup = self.completer.popup()
        model = self.completer.completionModel()
        if model.rowCount():
            popup.setCurrentIndex(model.index(0, 0))

    def _still_completing(self, position: int) -> bool:
        """The cursor is where completion was asked, or further on the same name (typed
        while the kernel was thinking: the list opens filtered by it, as VS Code does)."""
        cursor = self.textCursor()
        if cursor.position() < position:
            return False
        typed = self.toPlainText()[position:cursor.position()]
        return all(ch.isalnum() or ch == "_" for ch in typed)

    def _insert_completion(self, name: str) -> None:
        cursor = self.textCursor()
        cursor.insertText(name[len(self._word_before_cursor()):])
        self.setTextCursor(cursor)

    # ----- typing ---------------------------------------------------------------------------
    def event(self, event) -> bool:
        """Shift+Enter and Ctrl+Enter are the window's (run cell, run all), not a line break."""
        if event.type() == QEvent.Type.ShortcutOverride and \
                event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                event.modifiers() & (Qt.KeyboardModifier.ShiftModifier
                                     | Qt.KeyboardModifier.ControlModifier):
            event.ignore()
            return False
        return super().event(event)

    def _completion_is_typed(self) -> bool:
        """Nothing to complete: the word typed is already the suggestion."""
        word = self._word_before_cursor()
        return bool(word) and word == self.completer.currentCompletion()

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        popup = self.completer.popup()
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if popup.isVisible() and enter and self._completion_is_typed():
            popup.hide()  # Enter after a finished word starts a new line, as it looks
        elif popup.isVisible() and (enter or event.key() in (Qt.Key.Key_Tab,
                                                             Qt.Key.Key_Escape)):
            event.ignore()  # the completer takes these
            return
        control = event.modifiers() & Qt.KeyboardModifier.ControlModifier
        if event.key() == Qt.Key.Key_Space and control:
            self.request_completions()
            return
        if event.key() == Qt.Key.Key_Tab and not event.modifiers():
            if self.textCursor().hasSelection():
                self.indent_selection(1)
            else:
                self.insertPlainText(INDENT)
            return
        if event.key() == Qt.Key.Key_Backtab:
            self.indent_selection(-1)
            return
        if event.key() == Qt.Key.Key_Backspace and not event.modifiers() and \
                line_commands.dedent_at_cursor(self):
            return
        if enter and not event.modifiers() & ~Qt.KeyboardModifier.ShiftModifier:
            # a plain line break: QPlainTextEdit would put U+2028 in for Shift+Enter
            line = self.textCursor().block().text()
            indent = line[: len(line) - len(line.lstrip())]
            if line.rstrip().endswith(":"):
                indent += INDENT
            self.insertPlainText("\n" + indent)
            return
        super().keyPressEvent(event)
        typed = event.text()
        if typed == ".":
            self.request_completions()
        elif popup.isVisible() and typed and not (typed.isalnum() or typed == "_"):
            popup.hide()  # "(", ")", a space, an operator: the name is finished
        elif popup.isVisible():
            self.completer.setCompletionPrefix(self._word_before_cursor())
            if self.completer.completionCount() == 0:
                popup.hide()
            else:
                self._select_first()
