"""The application: its style and light/dark theme, and starting the window (or a screenshot)."""

from __future__ import annotations

import subprocess
import time

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPalette
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QWidget

from playground.kernel.switching import quick_hand_overs
from playground.resources import FOLDER

ICON = FOLDER / "icon.svg"
# The name of resources/autograd-playground.desktop: lets the desktop match windows to the entry.
DESKTOP_FILE_NAME = "autograd-playground"


def is_dark(application: QApplication) -> bool:
    return application.palette().window().color().lightness() < 128


def dark_palette() -> QPalette:
    palette = QPalette()
    colours = {
        QPalette.ColorRole.Window: "#1f232a", QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#181b20", QPalette.ColorRole.AlternateBase: "#262b33",
        QPalette.ColorRole.Text: "#e6e6e6", QPalette.ColorRole.Button: "#2a2f38",
        QPalette.ColorRole.ButtonText: "#e6e6e6", QPalette.ColorRole.Highlight: "#3d6fb6",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#2a2f38",
        QPalette.ColorRole.ToolTipText: "#e6e6e6", QPalette.ColorRole.PlaceholderText: "#7f8a99",
        QPalette.ColorRole.Link: "#7fb2ff", QPalette.ColorRole.LinkVisited: "#b39dff",
    }
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText,
                 QPalette.ColorRole.Text):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b7380"))
    return palette


# Fusion paints a scroll bar's gradients anew at every repaint: 2.6 ms for the graph's, which
# repaints at each run (an eighth of a small script's run → graph drawn). From this sheet,
# in the palette's colours: 0.05 ms.
FLAT_SCROLL_BARS = """
QScrollBar { background: palette(base); border: 0; margin: 0; }
QScrollBar:vertical { width: 12px; border-left: 1px solid palette(midlight); }
QScrollBar:horizontal { height: 12px; border-top: 1px solid palette(midlight); }
QScrollBar::handle { background: palette(mid); border-radius: 3px; margin: 2px; }
QScrollBar::handle:vertical { min-height: 24px; }
QScrollBar::handle:horizontal { min-width: 24px; }
QScrollBar::handle:hover, QScrollBar::handle:pressed { background: palette(dark); }
QScrollBar::add-line, QScrollBar::sub-line { width: 0; height: 0; border: 0; background: none; }
QScrollBar::add-page, QScrollBar::sub-page { background: none; }
"""


def flat_scroll_bars(root: QWidget) -> None:
    """The scroll bars of ``root``'s scroll areas drawn flat (FLAT_SCROLL_BARS)."""
    for area in root.findChildren(QAbstractScrollArea):
        for bar in (area.verticalScrollBar(), area.horizontalScrollBar()):
            if bar.styleSheet() != FLAT_SCROLL_BARS:
                bar.setStyleSheet(FLAT_SCROLL_BARS)


def make_application(theme: str = "system") -> QApplication:
    """The application, in Fusion style, dark when the system (or ``theme``) says so."""
    application = QApplication.instance() or QApplication([])
    quick_hand_overs()  # a result crosses three threads before it is drawn
    application.setApplicationName("Autograd Playground")
    application.setDesktopFileName(DESKTOP_FILE_NAME)
    application.setWindowIcon(QIcon(str(ICON)))
    application.setStyle("Fusion")
    scheme = application.styleHints().colorScheme()
    if theme == "dark" or (theme == "system" and scheme == Qt.ColorScheme.Dark):
        application.setPalette(dark_palette())
    elif theme == "light":
        application.setPalette(application.style().standardPalette())
    return application


def open_window(path: str | None = None, theme: str = "system",
                kernel: subprocess.Popen | None = None):
    """The application and its window, shown; a script cannot end the app with a signal."""
    from playground.kernel.processes import SignalGuard

    guard = SignalGuard()
    guard.install()  # before any thread starts: NumPy's BLAS starts some when imported
    from playground.ui.main_window import MainWindow

    application = make_application(theme)
    window = MainWindow(path, launched=kernel)
    guard.from_kernel = lambda pid: window.runner.kernel.sent_by(pid)
    guard.on_refused = lambda name: window.runner.output.emit(
        "stderr", f"The script sent the app {name}; the app ignored it.\n")
    window.show()
    return application, window


def launch(path: str | None = None, theme: str = "system",
           kernel: subprocess.Popen | None = None) -> int:
    """The window; ``kernel``: a NumPy kernel process already starting (``head_start``)."""
    application, window = open_window(path, theme, kernel)
    window.document.offer_recovery()
    return application.exec()


def settle(window, application: QApplication, deadline_s: float = 60.0) -> None:
    """Process events until the run, the graph and the plots are done and painted."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline and (window.runner.busy or window.runner.is_starting
                                           or window.plots is None or window.graph_view.busy):
        application.processEvents()
        time.sleep(0.01)
    for _ in range(40):  # let the views settle and paint (the graph's glide included)
        application.processEvents()
        time.sleep(0.01)


def screenshot(output: str, script: str | None = None, theme: str = "system") -> int:
    """Open ``script``, run it as a user would (Run all), wait for the views, save a PNG."""
    from playground.ui.main_window import MainWindow

    application = make_application(theme)
    window = MainWindow(script)
    window.resize(1400, 860)
    window.show()
    if script:
        window.runs.run_action.trigger()
    settle(window, application)
    saved = window.grab().save(output)
    window.editor.document().setModified(False)
    window.close()
    return 0 if saved else 1
