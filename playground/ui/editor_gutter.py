"""The editor's gutter: line numbers, the line a traceback points at, and each run cell's
mark (✓ ≈ ≠: its output against the tutorial's), whose tooltip says why."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter
from PySide6.QtWidgets import QToolTip, QWidget

ERROR_COLOUR = QColor("#d03030")
MARK_COLOURS = {"✓": QColor("#2e9d4f"), "≈": QColor("#c08a10"), "≠": ERROR_COLOUR}


class Gutter(QWidget):
    """Paints the gutter of the editor it belongs to (a CodeEditor)."""

    def __init__(self, editor) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        editor = self.editor
        painter = QPainter(self)
        palette = editor.palette()
        painter.fillRect(event.rect(), palette.alternateBase())
        block = editor.firstVisibleBlock()
        number = block.blockNumber()
        top = round(editor.blockBoundingGeometry(block).translated(editor.contentOffset()).top())
        height = round(editor.blockBoundingRect(block).height())
        marks = {cursor.blockNumber(): mark for cursor, mark, _why in editor.cell_marks}
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible() and top + height >= event.rect().top():
                is_error = editor.error_line == number + 1
                painter.setPen(ERROR_COLOUR if is_error else palette.placeholderText().color())
                painter.drawText(0, top, self.width() - 6, height, Qt.AlignmentFlag.AlignRight,
                                 ("● " if is_error else "") + str(number + 1))
                if number in marks:
                    self._badge(painter, marks[number], top, height)
            block = block.next()
            top += height
            height = round(editor.blockBoundingRect(block).height())
            number += 1

    def _badge(self, painter: QPainter, mark: str, top: int, height: int) -> None:
        """The mark white on its colour, a line high, at the gutter's left edge: a pale glyph
        there was hard to find."""
        size = float(min(height, self.fontMetrics().height()))
        badge = QRectF(2, top + (height - size) / 2, size + 2, size)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(MARK_COLOURS[mark])
        painter.drawRoundedRect(badge, 3, 3)
        font = QFont(painter.font())
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("white"))
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, mark)
        painter.restore()

    def event(self, event) -> bool:
        """A cell mark's tooltip: why its output is ✓, ≈ or ≠."""
        if event.type() != QEvent.Type.ToolTip:
            return super().event(event)
        line = self.editor.cursorForPosition(QPoint(0, event.pos().y())).blockNumber()
        found = self.editor.cell_mark(line)
        if found is None:
            QToolTip.hideText()
            event.ignore()
        else:
            QToolTip.showText(event.globalPos(), found[1], self)
        return True
