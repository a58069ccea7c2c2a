"""Editing commands on whole lines of the code editor: indent, dedent, comment, and the
Backspace that goes back one indent level."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

INDENT = "    "


def _dedent(text: str) -> str:
    spaces = len(text) - len(text.lstrip(" "))
    return text[min(spaces, len(INDENT)):]


def selected_lines(editor: QPlainTextEdit) -> tuple[int, int]:
    """The first and last line (0-based) the selection or the cursor is on."""
    cursor = editor.textCursor()
    document = editor.document()
    first = document.findBlock(cursor.selectionStart()).blockNumber()
    last = document.findBlock(cursor.selectionEnd()).blockNumber()
    if cursor.hasSelection() and document.findBlock(cursor.selectionEnd()).position() == (
            cursor.selectionEnd()) and last > first:
        last -= 1  # a selection ending at a line's start does not take that line
    return first, last


def edit_lines(editor: QPlainTextEdit, change) -> None:
    """Apply ``change(text) -> text`` to each selected line, as one undo step."""
    first, last = selected_lines(editor)
    cursor = editor.textCursor()
    cursor.beginEditBlock()
    for number in range(first, last + 1):
        block = editor.document().findBlockByNumber(number)
        line = QTextCursor(block)
        line.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
        line.insertText(change(block.text()))
    cursor.endEditBlock()


def indent_lines(editor: QPlainTextEdit, direction: int) -> None:
    """Tab (1) / Shift+Tab (-1) on the selected lines."""
    if direction > 0:
        edit_lines(editor, lambda text: INDENT + text if text else text)
    else:
        edit_lines(editor, _dedent)


def toggle_comment(editor: QPlainTextEdit) -> None:
    """Comment the selected lines, or uncomment them when all are comments."""
    first, last = selected_lines(editor)
    texts = [editor.document().findBlockByNumber(n).text() for n in range(first, last + 1)]
    code = [t for t in texts if t.strip()]
    if code and all(t.lstrip().startswith("#") for t in code):
        edit_lines(editor, lambda t: t.replace("# ", "", 1) if t.lstrip().startswith("# ")
                   else t.replace("#", "", 1))
    else:
        edit_lines(editor, lambda t: "# " + t if t.strip() else t)


def dedent_at_cursor(editor: QPlainTextEdit) -> bool:
    """Backspace in a line's leading spaces goes back one indent level, as code editors do
    (one press undoes the indent a colon's Enter added); False where it is a plain Backspace."""
    cursor = editor.textCursor()
    if cursor.hasSelection():
        return False
    before = cursor.block().text()[: cursor.positionInBlock()]
    if not before or before.strip(" "):
        return False
    remove = (len(before) - 1) % len(INDENT) + 1
    cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, remove)
    cursor.removeSelectedText()
    return True
