"""The find bar under the editor: find as you type, next/previous, replace, not modal.

In code a search matches case and whole words unless the user turns either off (the two
toggles, as in VS Code): replacing ``X`` must not rewrite ``x``, ``max_x`` or ``.max()``.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRegularExpression, Qt
from PySide6.QtGui import QKeySequence, QShortcut, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QToolButton, QWidget


class FindBar(QWidget):
    """Find (Enter: next, Shift+Enter: previous), Replace, Replace all; Esc closes it."""

    def __init__(self, editor) -> None:
        super().__init__()
        self.editor = editor
        self.query = QLineEdit(placeholderText="Find")
        self.replacement = QLineEdit(placeholderText="Replace with")
        self.status = QLabel()
        self.status.setStyleSheet("color: palette(placeholder-text);")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.query, 2)
        self.match_case = self._toggle("Aa", "Match case")
        self.whole_words = self._toggle("ab|", "Match whole words (names, not parts of them)")
        for toggle in (self.match_case, self.whole_words):
            layout.addWidget(toggle)
        for text, tip, slot in (("↓", "Next (Enter, F3)", self.find_next),
                                ("↑", "Previous (Shift+Enter, Shift+F3)", self.find_previous)):
            layout.addWidget(self._button(text, tip, slot))
        layout.addWidget(self.replacement, 2)
        layout.addWidget(self._button("Replace", "Replace this one and find the next",
                                      self.replace_one))
        layout.addWidget(self._button("All", "Replace every one", self.replace_all))
        layout.addWidget(self.status)
        layout.addWidget(self._button("✕", "Close (Esc)", self.close_bar))
        self.query.textEdited.connect(lambda _: self.find_next(from_start_of_selection=True))
        self.query.returnPressed.connect(self.find_next)
        self.replacement.returnPressed.connect(self.replace_one)
        previous = QShortcut(QKeySequence("Shift+Return"), self.query)
        previous.setContext(Qt.ShortcutContext.WidgetShortcut)  # not Run cell's, elsewhere
        previous.activated.connect(self.find_previous)
        for field in (self.query, self.replacement):
            field.installEventFilter(self)  # Esc in either box closes the bar
        self.hide()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_Escape:
            event.accept()  # Esc is the bar's here, not a window shortcut's
            return True
        if event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return True
        return super().eventFilter(watched, event)

    @staticmethod
    def _button(text: str, tip: str, slot) -> QToolButton:
        button = QToolButton(text=text, autoRaise=True)
        button.setToolTip(tip)
        button.clicked.connect(slot)
        return button

    def _toggle(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(text=text, autoRaise=True, checkable=True, checked=True)
        button.setToolTip(tip)
        button.toggled.connect(lambda _on: self.find_next(from_start_of_selection=True))
        return button

    def pattern(self) -> QRegularExpression:
        """The query as the toggles say: whole words where it starts or ends with a word
        character (a name's letters, digits and underscores), any case when unticked."""
        query = self.query.text()
        pattern = QRegularExpression.escape(query)
        if self.whole_words.isChecked() and query:
            if query[0].isalnum() or query[0] == "_":
                pattern = r"(?<!\w)" + pattern
            if query[-1].isalnum() or query[-1] == "_":
                pattern += r"(?!\w)"
        return QRegularExpression(pattern,
                                  QRegularExpression.PatternOption.UseUnicodePropertiesOption)

    def flags(self, backward: bool = False) -> QTextDocument.FindFlag:
        """Qt's find takes case from its flags, whatever the expression says."""
        flags = QTextDocument.FindFlag(0)
        if self.match_case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        return flags

    def open_bar(self) -> None:
        """Show it with the editor's selection (or the last search) ready to search."""
        selected = self.editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.query.setText(selected)
        self.show()
        self.query.setFocus()
        self.query.selectAll()

    def open_replace(self) -> None:
        """Ctrl+H, as in VS Code: the bar open, the replacement field ready to type in (Find
        takes the selection as in ``open_bar``)."""
        self.open_bar()
        if self.query.text():
            self.replacement.setFocus()
            self.replacement.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.editor.setFocus()

    def find_next(self, from_start_of_selection: bool = False) -> bool:
        if from_start_of_selection:  # typing refines the match where it is
            cursor = self.editor.textCursor()
            cursor.setPosition(cursor.selectionStart())
            self.editor.setTextCursor(cursor)
        return self._say(bool(self.query.text()) and self.editor.find(self.pattern(),
                                                                      self.flags()))

    def find_previous(self) -> bool:
        return self._say(bool(self.query.text()) and self.editor.find(
            self.pattern(), self.flags(backward=True)))

    def replace_one(self) -> None:
        cursor = self.editor.textCursor()
        if cursor.hasSelection() and self._is_a_match(cursor):
            cursor.insertText(self.replacement.text())
        self.find_next()

    def _is_a_match(self, cursor) -> bool:
        """Whether the selection is one the search finds (where it stands in the text)."""
        found = self.editor.document().find(self.pattern(), cursor.selectionStart(),
                                            self.flags())
        return (not found.isNull() and found.selectionStart() == cursor.selectionStart()
                and found.selectionEnd() == cursor.selectionEnd())

    def replace_all(self) -> int:
        """Replace every occurrence as one undo step; returns how many."""
        query, count = self.query.text(), 0
        if not query:
            return 0
        pattern, flags = self.pattern(), self.flags()
        cursor = self.editor.textCursor()
        cursor.beginEditBlock()
        found = self.editor.document().find(pattern, 0, flags)
        while not found.isNull():
            found.insertText(self.replacement.text())
            count += 1
            found = self.editor.document().find(pattern, found.position(), flags)
        cursor.endEditBlock()
        self.status.setText(f"{count} replaced")
        return count

    def _say(self, found: bool) -> bool:
        text = self.query.text()
        self.status.setText("" if found or not text else "not found")
        return found
