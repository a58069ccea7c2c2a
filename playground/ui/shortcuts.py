"""Help → Keyboard shortcuts: a sheet made from the menus' actions, so it is never out of date."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QMenuBar, QTableWidget, QTableWidgetItem, QVBoxLayout

# Keys that belong to a pane rather than to a menu command.
PANE_KEYS = (
    ("Graph", "→ / ←", "Step the backward replay on / back"),
    ("Graph", "Space", "Play / pause the replay"),
    ("Graph", "Home / End", "First step / last step"),
    ("Graph", "Esc", "End the replay: the final state"),
    ("Graph", "F, + / −", "Fit the whole graph, zoom"),
    ("Editor", "Ctrl+Space", "Complete (it also opens by itself after a dot)"),
    ("Editor", "Tab / Shift+Tab", "Indent / unindent the selected lines"),
    ("Editor", "Enter / Tab / Esc", "Accept / accept / close the completion list"),
)


def menu_shortcuts(bar: QMenuBar) -> list[tuple[str, str, str]]:
    """(menu, keys, command) for every menu action that has a shortcut."""
    rows = []
    for menu_action in bar.actions():
        menu = menu_action.menu()
        if menu is None:
            continue
        for action in menu.actions():
            keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            if keys:
                rows.append((menu_action.text().replace("&", ""), keys,
                             action.text().replace("&", "").rstrip("…")))
    return rows


class ShortcutSheet(QDialog):
    """A table of every shortcut; not modal, so it can stay open beside the window."""

    def __init__(self, bar: QMenuBar, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.rows = menu_shortcuts(bar) + list(PANE_KEYS)
        table = QTableWidget(len(self.rows), 3)
        table.setHorizontalHeaderLabels(["Where", "Keys", "Does"])
        for number, row in enumerate(self.rows):
            for column, text in enumerate(row):
                table.setItem(number, column, QTableWidgetItem(text))
        table.resizeColumnsToContents()
        table.horizontalHeader().setStretchLastSection(True)
        table.verticalHeader().hide()
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        QVBoxLayout(self).addWidget(table)
        self.resize(560, 520)
