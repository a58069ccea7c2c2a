"""Graph ↔ code: the node in hand marks the line that made it; the cursor's line outlines its
nodes in the graph."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QObject

from playground.model import Graph
from playground.model.view_state import ViewState
from playground.ui.editor import CodeEditor
from playground.ui.following import follow
from playground.ui.graph_view import GraphView


class CodeLinks(QObject):
    """Keeps the editor's marked line and the graph's outlined nodes in step: hovering or
    selecting a node, or the replay running it, marks its line (scrolled into view), and the
    cursor's line outlines the nodes it made."""

    def __init__(self, parent: QObject, editor: CodeEditor, view: GraphView,
                 state: ViewState) -> None:
        super().__init__(parent)
        self.editor, self.view, self.state = editor, view, state
        self.by_line: dict[int, set[str]] = {}
        self._cursor_line: int | None = None
        follow(self, state.events.graph, self._new_graph)
        follow(self, state.events.selection, lambda _ids: self._show(self._selected_line(),
                                                                     scroll=True))
        follow(self, state.events.step, self._stepped)
        view.node_hovered.connect(self._hovered)
        editor.cursorPositionChanged.connect(self._cursor_moved)

    def line_of(self, node_id: str) -> int | None:
        """The line that made a node; a folded group's or collapsed module's, the line most
        of its nodes came from."""
        graph = self.state.graph
        if graph is None or not node_id:
            return None
        if node_id in graph.node_ids():
            return graph.node(node_id).line
        group = self.view.current.display.groups.get(node_id) if self.view.current else None
        if group is None:
            return None
        lines = Counter(graph.node(member).line for member in group.members
                        if graph.node(member).line is not None)
        return lines.most_common(1)[0][0] if lines else None

    def _new_graph(self, graph: Graph | None) -> None:
        self.by_line = {}
        for node in graph.nodes if graph is not None else []:
            if node.line is not None:
                self.by_line.setdefault(node.line, set()).add(node.id)
        self._cursor_line = None
        self._cursor_moved()
        self._show(self._selected_line())

    def _selected_line(self) -> int | None:
        return self.line_of(self.state.selection[-1]) if self.state.selection else None

    def _stepped(self, step) -> None:
        """The replay's running node: its line, followed in the editor."""
        running = step.running if step is not None else None
        self._show(self.line_of(running) if running else self._selected_line(),
                   scroll=running is not None)

    def _hovered(self, node_id: str) -> None:
        self._show(self.line_of(node_id) if node_id else self._selected_line(), scroll=True)

    def _show(self, line: int | None, scroll: bool = False) -> None:
        self.editor.mark_linked_line(line, scroll)

    def _cursor_moved(self) -> None:
        line = self.editor.textCursor().blockNumber() + 1
        if line != self._cursor_line:
            self._cursor_line = line
            self.view.outline(self.by_line.get(line, set()))
