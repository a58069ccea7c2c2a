"""The views in tabs beside the graph: a registry, each entry one view built on the ViewState.

Adding a view is one file with a QWidget whose constructor takes the ViewState and subscribes
to its events, plus one line in TABS. Views that import pyqtgraph are built just after the
window's first paint; being built on the state, they catch up with what it already holds.
Their modules are imported on a thread from then: imported on the UI thread, the import took
five times as long when a file was being read at the same time (each of its thousands of file
lookups gave the GIL away to the other thread), and the window froze for all of it.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QSplitter, QTabWidget, QVBoxLayout, QWidget

from playground.model.view_state import ViewState
from playground.ui.following import follow
from playground.ui.qt_types import TypeMaker


def _plots(state: ViewState) -> QWidget:
    from playground.ui.plots import PlotsPanel, install_defaults

    install_defaults()
    return PlotsPanel(state)


def _inspector(state: ViewState) -> QWidget:
    from playground.ui.inspector import Inspector

    return Inspector(state)


def _figures(state: ViewState) -> QWidget:
    from playground.ui.figures import FiguresPanel

    return FiguresPanel(state)


@dataclass(frozen=True)
class Tab:
    """A registered view: its tab title, how to build it, and when it comes to the front."""

    title: str
    make: Callable[[ViewState], QWidget]
    lazy: bool = False  # built after the first paint
    modules: tuple[str, ...] = ()  # what it imports, imported off the UI thread first
    # ("result" | "selection", state) -> whether this tab should be brought to the front
    comes_forward: Callable[[str, ViewState], bool] | None = None
    # how many things it shows, in its title ("Figures (3)"); with none after a run, the
    # first tab is brought forward in its place (an empty tab must not hide the plots)
    count: Callable[[ViewState], int] | None = None


TABS = (
    Tab("Plots", _plots, lazy=True, modules=("playground.ui.plots",)),
    Tab("Inspector", _inspector,
        comes_forward=lambda event, state: event == "selection" and bool(state.selection)),
    Tab("Figures", _figures, lazy=True, modules=("playground.ui.figures",),
        comes_forward=lambda event, state: (event == "figures" and bool(state.figures)) or (
            event == "result" and state.result is not None and bool(state.result.figures)),
        count=lambda state: len(state.figures)),
)


class TabbedViews(QTabWidget):
    """The registered views, one tab each, all following one ViewState."""

    def __init__(self, state: ViewState, tabs: tuple[Tab, ...] = TABS) -> None:
        super().__init__()
        self.setDocumentMode(True)
        self.state = state
        self.tabs = tabs
        self.pages: dict[str, QWidget] = {}
        self.views: dict[str, QWidget | None] = {}
        for tab in tabs:
            page = QWidget()
            QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
            self.pages[tab.title] = page
            self.views[tab.title] = None
            self.addTab(page, tab.title)
            if not tab.lazy:
                self._build(tab)
        follow(self, state.events.result, lambda _result: self._after_result())
        follow(self, state.events.reset, self._count)
        follow(self, state.events.figures, lambda _figures: self._after_figures())
        follow(self, state.events.selection, lambda _ids: self._bring_forward("selection"))

        self._importing: threading.Thread | None = None
        self._types: TypeMaker | None = None

    def start_importing(self) -> None:
        """Import the lazy views' modules on a thread, once the Qt types they read are made
        on this one (qt_types.py). Not while the window is being built: the import holds the
        GIL most of the time, and started then it held back the first paint and the first
        run's graph by a third (benchmarks/startup.py)."""
        if self._types is None:
            self._types = TypeMaker(self, self._import_on_a_thread)

    def _import_on_a_thread(self) -> None:
        self._importing = threading.Thread(
            target=_import_all,
            args=([m for tab in self.tabs if tab.lazy for m in tab.modules],),
            name="views-import", daemon=True)
        self._importing.start()

    @property
    def importing(self) -> bool:
        """Whether the lazy views' modules are still being imported (building them now
        would wait for that on the UI thread)."""
        if self._types is not None and not self._types.done:
            return True
        return self._importing is not None and self._importing.is_alive()

    def build_lazy(self) -> None:
        for tab in self.tabs:
            if self.views[tab.title] is None:
                self._build(tab)

    def _build(self, tab: Tab) -> None:
        view = tab.make(self.state)
        self.pages[tab.title].layout().addWidget(view)
        self.views[tab.title] = view

    def view(self, title: str) -> QWidget | None:
        return self.views.get(title)

    def _after_result(self) -> None:
        self._count()
        self._bring_forward("result")
        current = self.tabs[self.currentIndex()]
        if current.count is not None and current.count(self.state) == 0 and \
                not self.state.figures_coming:  # (they come forward when they come)
            self.setCurrentIndex(0)

    def _after_figures(self) -> None:
        self._count()
        self._bring_forward("figures")

    def _count(self) -> None:
        """Each counting tab's title with its count: "Figures (3)", or "Figures". Set only
        when it changes: QTabBar lays itself out again for any title set, and the splitters
        above it repaint the whole column (every run's result, 1-3 ms)."""
        for index, tab in enumerate(self.tabs):
            if tab.count is not None:
                number = tab.count(self.state)
                title = f"{tab.title} ({number})" if number else tab.title
                if self.tabText(index) != title:
                    self.setTabText(index, title)

    def _bring_forward(self, event: str) -> None:
        for tab in self.tabs:
            if tab.comes_forward is not None and tab.comes_forward(event, self.state):
                self.setCurrentWidget(self.pages[tab.title])


def _import_all(modules: list[str]) -> None:
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - building the view imports it again and says why
            return


class RoomForFigures:
    """Makes room for a run's figures: the views column's lower pane grows to half of it when
    a run draws figures, to most of it when the run left no graph to draw. A splitter the
    user has dragged is left as the user set it."""

    SHARE_BESIDE_A_GRAPH = 0.5
    SHARE_ALONE = 0.7

    def __init__(self, splitter: QSplitter, state: ViewState) -> None:
        self.splitter = splitter
        self.moved_by_user = False
        splitter.splitterMoved.connect(self._moved)  # (a drag; never setSizes)
        follow(splitter, state.events.result, lambda result: self._make_room(result.figures))
        follow(splitter, state.events.figures, self._make_room)
        self.state = state

    def _moved(self, *_arguments) -> None:
        self.moved_by_user = True

    def _make_room(self, figures) -> None:
        if self.moved_by_user or not figures:
            return
        sizes = self.splitter.sizes()
        total = sum(sizes)
        graph = self.state.graph
        alone = graph is None or not graph.nodes
        wanted = round(total * (self.SHARE_ALONE if alone else self.SHARE_BESIDE_A_GRAPH))
        if sizes[1] < wanted:
            self.splitter.setSizes([total - wanted, wanted])
