"""The graph pane: the graph view with its small toolbar and legend, and the backward player."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from playground.model.graph import with_parents
from playground.model.module_folding import (
    AUTOMATIC,
    GROUP_PREFIX,
    members_by_module,
    path_depth,
)
from playground.model.view_state import ViewState
from playground.ui.graph_look import legend_html
from playground.ui.graph_view import GraphView
from playground.ui.player import PlayerBar


class GraphPane(QWidget):
    """Graph, its actions (fit, leaves on top, fold) and the player, all on one ViewState."""

    def __init__(self, state: ViewState) -> None:
        super().__init__()
        self.state = state
        self.view = GraphView(state)
        self.player = PlayerBar(state)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._toolbar())
        layout.addWidget(self.view, 1)
        layout.addWidget(self.player)
        player = self.player
        keys = ((Qt.Key.Key_Right, lambda: player.step(1)),
                (Qt.Key.Key_Left, lambda: player.step(-1)),
                (Qt.Key.Key_Space, player.toggle_play),
                (Qt.Key.Key_Home, lambda: player.go(0)),
                (Qt.Key.Key_End, player.go_to_end),
                (Qt.Key.Key_Escape, player.finish))
        for key, slot in keys:  # only while the graph pane has the focus: the editor keeps them
            shortcut = QShortcut(QKeySequence(key), self)
            # set apart: PySide6's (key, parent, slot, context=...) form leaves it window-wide
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)

    def _toolbar(self) -> QToolBar:
        bar = QToolBar("Graph")
        bar.setStyleSheet("QToolBar { border: 0; padding: 0 4px; }")
        title = QLabel("<b>Graph</b>")
        title.setContentsMargins(4, 0, 8, 0)
        bar.addWidget(title)
        self.fit_action = QAction("Fit", self, triggered=self.view.fit)
        self.fit_action.setToolTip("Fit the whole graph in view (F in the graph)")
        self.upward_action = QAction("Leaves on top", self, checkable=True,
                                     toggled=self.view.set_upward)
        self.upward_action.setToolTip("Draw the leaves at the top and the output at the bottom")
        self.fold_action = QAction("Fold repeats", self, triggered=self._fold_all)
        self.fold_action.setToolTip("Fold runs of identical nodes into one ×N node again "
                                    "(double-click a ×N node to unfold it)")
        legend = QToolButton(text="Legend", popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        legend_menu = QMenu(legend)
        key = QLabel(legend_html())
        key.setContentsMargins(8, 8, 8, 8)
        holder = QWidgetAction(legend_menu)
        holder.setDefaultWidget(key)
        legend_menu.addAction(holder)
        legend.setMenu(legend_menu)
        for action in (self.fit_action, self.upward_action, self.fold_action):
            bar.addAction(action)
        self.modules_button = QToolButton(
            text="Modules", popupMode=QToolButton.ToolButtonPopupMode.InstantPopup)
        self.modules_button.setToolTip("Show the nn.Modules open or collapsed (double-click a "
                                       "module to open or collapse it)")
        self.modules_menu = QMenu(self.modules_button)
        self.modules_menu.aboutToShow.connect(self._list_depths)
        self.modules_button.setMenu(self.modules_menu)
        bar.addWidget(self.modules_button)
        bar.addWidget(legend)
        return bar

    def _list_depths(self) -> None:
        """Expand all, automatic, and one "collapse to depth N" per depth the graph has."""
        menu, view = self.modules_menu, self.view
        menu.clear()
        paths = with_parents(members_by_module(view.graph)) if view.graph else []
        choices = [("Expand all", None), ("As the graph's size suggests", AUTOMATIC)]
        deepest = max((path_depth(path) for path in paths), default=-1)
        choices += [(f"Collapse to depth {depth}  ({', '.join(_examples(paths, depth))})",
                     depth) for depth in range(deepest + 1)]
        for text, depth in choices:
            action = menu.addAction(text, lambda depth=depth: view.collapse_modules(depth))
            action.setCheckable(True)
            action.setChecked(depth == view.module_depth)
        if not paths:
            menu.addAction("(this graph has no nn.Module)").setEnabled(False)

    def _fold_all(self) -> None:
        # the ×N chains fold again; the modules stay as they were opened or collapsed
        self.view.expanded = {g for g in self.view.expanded if g.startswith(GROUP_PREFIX)}
        self.view.show_graph(self.view.graph)


def _examples(paths: list[str], depth: int) -> list[str]:
    """The first modules at ``depth``, for the menu: ``model.layers.0, model.layers.1, …``."""
    found = [path for path in paths if path_depth(path) == depth]
    return found[:2] + (["…"] if len(found) > 2 else [])
