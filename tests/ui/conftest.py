"""The graph view alone, as the graph-view tests feed it."""

import pytest

from playground.ui.graph_view import GraphView


@pytest.fixture
def view(qtbot):
    widget = GraphView()
    widget.resize(900, 700)
    qtbot.addWidget(widget)
    widget.show()
    return widget
