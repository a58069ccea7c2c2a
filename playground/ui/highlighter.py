"""Python syntax colours for the editor, from Pygments' lexer (not hand-written regexes)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from pygments.lexers import PythonLexer
from pygments.token import Comment, Keyword, Name, Number, Operator, String, Token
from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextFormat

from playground.model import notebook

# Token type -> (light colour, dark colour, bold, italic)
STYLE = {
    Keyword: ("#7a3e9d", "#c792ea", True, False),
    Name.Builtin: ("#0b6e99", "#82aaff", False, False),
    Name.Function: ("#1d5fa8", "#82aaff", False, False),
    Name.Class: ("#1d5fa8", "#ffcb6b", True, False),
    Name.Decorator: ("#a05a00", "#f78c6c", False, False),
    String: ("#2e7d32", "#c3e88d", False, False),
    Number: ("#b35c00", "#f78c6c", False, False),
    Comment: ("#7a7a7a", "#7f8a99", False, True),
    Operator.Word: ("#7a3e9d", "#c792ea", True, False),
}


INSIDE_STRING = 1
# Colouring a line costs a Qt format range per token, and Qt's cost grows faster than the
# line: a 400,000-character line froze the window for seconds. Past this many characters
# the rest of a line stays plain, as editors do (VS Code stops tokenizing at 20,000).
COLOURED_LINE_LIMIT = 4_000
IN_MARKDOWN = 2  # a line of a ``# %% [markdown]`` cell: prose, not code
# A text of more lines than this is coloured COLOURED_PER_TURN lines per event-loop turn, from
# the top: colouring the 300,000 lines of a 100,000-cell notebook at once froze the window
# for seconds.
PROGRESSIVE_FROM = 5_000
COLOURED_PER_TURN = 1_500


def _format(colour: str, bold: bool, italic: bool) -> QTextCharFormat:
    text_format = QTextCharFormat()
    text_format.setForeground(QColor(colour))
    if bold:
        text_format.setFontWeight(QFont.Weight.Bold)
    text_format.setFontItalic(italic)
    return text_format


class PythonHighlighter(QSyntaxHighlighter):
    """Colours each line from Pygments tokens; strings spanning lines are handled by state."""

    def __init__(self, document, dark: bool = False) -> None:
        super().__init__(document)
        self.lexer = PythonLexer(stripnl=False, ensurenl=False)
        column = 1 if dark else 0
        self.formats = {token: _format(style[column], style[2], style[3])
                        for token, style in STYLE.items()}
        # Markdown cells read as text: a proportional font in the normal text colour, the
        # comment marks faint, headings bold.
        self.prose = QTextCharFormat()
        self.prose.setFontFamilies(["Noto Sans", "DejaVu Sans", "Helvetica", "Arial",
                                    "sans-serif"])
        # sizes relative to the editor's font: the text zoom needs no recolouring (it
        # recoloured the whole text at each Ctrl+=)
        self.prose.setForeground(QColor("#d0d4da" if dark else "#24292f"))
        self.heading = QTextCharFormat(self.prose)
        self.heading.setFontWeight(QFont.Weight.Bold)
        self.heading.setProperty(QTextFormat.Property.FontSizeAdjustment, 1)
        self.marks = _format("#5c6370" if dark else "#b0b6bd", False, False)
        self.cell_mark = _format("#7f8a99" if dark else "#8a8f96", True, False)
        self.coloured_below = math.inf  # blocks from this number on are not coloured yet
        self.more_text_coming = False  # the editor is still appending a long text's parts
        self._progress = QTimer(self, interval=0, timeout=self._colour_more)
        self._skipping = False  # a long text's part is being appended
        self.recolouring = False  # colours, not text, are changing (see _recolouring)

    def prepare(self, line_count: int) -> None:
        """Before a new text is set: one of ``line_count`` lines or more than PROGRESSIVE_FROM
        is coloured a part at a time from the top (see ``start``)."""
        self._progress.stop()
        self.coloured_below = 0 if line_count > PROGRESSIVE_FROM else math.inf
        self.more_text_coming = False

    def start(self) -> None:
        """After the text is set: colour the lines in sight at once, the rest turn by turn."""
        if self.coloured_below != math.inf:
            self._colour_more()
            self._progress.start()

    @contextmanager
    def appending(self) -> Iterator[None]:
        """While a long text's next part goes in at its end: Qt calls ``highlightBlock`` for
        each of its lines, and those calls alone (the lines wait for their turn) froze the
        window 0.3-1.2 s for a part of 20,000 lines. The lines already there keep their
        colours; the new ones come in their turn, from the first one not coloured yet."""
        self.coloured_below = min(self.coloured_below, self.document().blockCount())
        self._skipping = True
        try:
            yield
        finally:
            self._skipping = False

    @property
    def colouring(self) -> bool:
        """Whether lines of a long text are still waiting for their colours."""
        return self._progress.isActive()

    def _colour_more(self) -> None:
        block = self.document().findBlockByNumber(int(self.coloured_below))
        if not block.isValid():
            if not self.more_text_coming:  # else the editor is still appending its text
                self.coloured_below = math.inf
                self._progress.stop()
            return
        self.coloured_below += COLOURED_PER_TURN
        # Waiting lines have no state (-1): each one coloured gets one, which makes Qt go on
        # to the next, up to the first line still waiting.
        with self._recolouring():
            self.rehighlightBlock(block)


    @contextmanager
    def _recolouring(self) -> Iterator[None]:
        """Colours applied by the highlighter itself: Qt reports them as a change of the
        document's contents (textChanged), which is not an edit and must not start Live."""
        self.recolouring = True
        try:
            yield
        finally:
            self.recolouring = False

    def _format_for(self, token):
        while token is not Token:
            text_format = self.formats.get(token)
            if text_format is not None:
                return text_format
            token = token.parent
        return None

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt's name
        if self._skipping or self.currentBlock().blockNumber() >= self.coloured_below:
            return  # its turn comes (see prepare); its state stays "none"
        previous = max(self.previousBlockState(), 0)
        kind = notebook.marker_kind(text)
        if kind is not None:
            self.setFormat(0, len(text), self.cell_mark)
            self.setCurrentBlockState(IN_MARKDOWN if kind in ("markdown", "raw") else 0)
            return
        if previous & IN_MARKDOWN:
            self._prose(text)
            self.setCurrentBlockState(IN_MARKDOWN)
            return
        if text.lstrip().startswith(("%", "!")) and previous != INSIDE_STRING:
            self.setFormat(0, len(text), self.marks)  # IPython's lines: skipped when run
            self.setCurrentBlockState(0)
            return
        # A block inside a triple-quoted string is lexed as if the string opened on it.
        inside = previous == INSIDE_STRING
        prefix = '"""' if inside else ""
        position = -len(prefix)
        for token, value in self.lexer.get_tokens(prefix + text[:COLOURED_LINE_LIMIT]):
            text_format = self._format_for(token)
            if text_format is not None:
                start = max(position, 0)
                self.setFormat(start, position + len(value) - start, text_format)
            position += len(value)
        opens = (text.count('"""') + text.count("\'\'\'")) % 2 == 1
        self.setCurrentBlockState(INSIDE_STRING if inside != opens else 0)

    def _prose(self, text: str) -> None:
        """``# ## Title`` and ``# some text``: the marks faint, the words as prose."""
        marks = len(text) - len(text.lstrip("# "))
        words = text[marks:]
        self.setFormat(0, marks, self.marks)
        heading = text.lstrip().startswith("# #")
        self.setFormat(marks, len(words), self.heading if heading else self.prose)
