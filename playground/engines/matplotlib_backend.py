"""The kernel's matplotlib backend (``MPLBACKEND``): Agg's canvas, and a show() that hands
every open figure to the window (engines/inline_figures.py), as Jupyter's inline one does."""

from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

from playground.engines import inline_figures

FigureCanvas = FigureCanvasAgg
FigureManager = FigureManagerBase


def show(*_arguments, **_options) -> None:
    """``plt.show()``, ``plt.show(block=False)``: the open figures go to the window, closed."""
    inline_figures.show_open()
