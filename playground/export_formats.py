"""The file formats the app exports, declared once: the CLI (its checks and help), the window's
file dialogs and the exporters all read these lists. No Qt here: the CLI reads them without it.

A new graph format is one ``ExportFormat`` line below and its writer: a text format in
``GRAPH_TEXTS`` here, a drawn one in ``ui/exporters.py``'s ``DRAWN_GRAPH_WRITERS`` (a test checks
that every graph format declared has one). A plot format also needs a branch in
``ui/exporters.export_plots``: the plots have no writer table yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from playground.files import atomic_write
from playground.model import Graph


@dataclass(frozen=True)
class ExportFormat:
    suffix: str        # ".svg"
    description: str   # "SVG": a file dialog's filter says "SVG (*.svg)"
    drawn: bool        # drawn by the window's own views (the CLI draws offscreen with Qt)

    @property
    def dialog_filter(self) -> str:
        return f"{self.description} (*{self.suffix})"


GRAPH_FORMATS: dict[str, ExportFormat] = {f.suffix: f for f in (
    ExportFormat(".svg", "SVG", drawn=True),
    ExportFormat(".png", "PNG image", drawn=True),
    ExportFormat(".pdf", "PDF", drawn=True),
    ExportFormat(".dot", "Graphviz DOT", drawn=False),
    ExportFormat(".json", "JSON", drawn=False),
)}

PLOT_FORMATS: dict[str, ExportFormat] = {f.suffix: f for f in (
    ExportFormat(".png", "PNG image", drawn=True),
    ExportFormat(".svg", "SVG", drawn=True),
    ExportFormat(".csv", "CSV points", drawn=False),
)}


def dialog_filters(formats: dict[str, ExportFormat]) -> str:
    """A file dialog's filter list, the first format first."""
    return ";;".join(f.dialog_filter for f in formats.values())


def format_list(formats: dict[str, ExportFormat]) -> str:
    """'.svg, .png, .pdf, .dot or .json': for a sentence."""
    suffixes = list(formats)
    return f"{', '.join(suffixes[:-1])} or {suffixes[-1]}"


# Graph formats written from the graph alone (no view): the window and the CLI write these.
GRAPH_TEXTS = {".json": Graph.dumps, ".dot": Graph.to_dot}


def write_graph_text(graph: Graph, path: Path | str) -> None:
    """A graph format that is not drawn (GRAPH_TEXTS), written whole."""
    atomic_write(path, GRAPH_TEXTS[Path(path).suffix.lower()](graph))
