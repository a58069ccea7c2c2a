"""The window's exports: the graph, the plots and the backward animation, as a user sees them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog


class ExportActionsMixin:
    """MainWindow's File → Export actions: they write what is on screen (the final state,
    or the replay's step while it is on)."""

    def ask_export_path(self, title: str, filters: str, suggested: str) -> str | None:
        """A file to export to, or None (tests replace this)."""
        folder = self.path.parent if self.path else Path.home()
        path, _ = QFileDialog.getSaveFileName(self, title, str(folder / suggested), filters)
        return path or None

    def export_graph(self) -> None:
        from playground.ui.exporters import export_graph

        self._export("graph", lambda path: export_graph(self.graph_view, path),
                     "SVG (*.svg);;PNG image (*.png);;PDF (*.pdf);;Graphviz DOT (*.dot)"
                     ";;JSON (*.json)", "-graph.svg")

    def export_plots(self) -> None:
        from playground.ui.exporters import export_plots

        self._make_lazy_views()
        self._export("plots", lambda path: export_plots(self.plots, path),
                     "PNG image (*.png);;SVG (*.svg);;CSV points (*.csv)", "-plots.png")

    def _export(self, what: str, write, filters: str, suffix: str) -> None:
        """Ask where, write, and say in the status bar how it went."""
        from playground.ui.exporters import ExportError

        path = self.ask_export_path(f"Export {what}", filters, self._export_stem() + suffix)
        if not path:
            return
        try:
            write(path)
        except (ExportError, OSError) as error:
            self.statusBar().showMessage(f"Could not export the {what}: {error}")
            return
        self.statusBar().showMessage(f"Exported the {what} to {path}")

    def export_animation(self) -> None:
        """An animated GIF of every backward call drawn on the graph shown, or (a folder
        chosen) one PNG per step."""
        from playground.ui.animation import AnimationError, export_gif, export_png_sequence

        path = self.ask_export_path("Export backward animation", "Animated GIF (*.gif);;"
                                    "Folder of PNG frames (*)",
                                    self._export_stem() + "-backward.gif")
        if not path:
            return
        state = self.view_state
        traces = [call.trace for call in state.calls if call.graph is state.graph]
        self.player.stop()
        try:
            if path.lower().endswith(".gif"):
                export_gif(self.graph_view, traces, path)
            else:
                export_png_sequence(self.graph_view, traces, path)
        except (AnimationError, OSError) as error:
            self.statusBar().showMessage(f"Could not export the animation: {error}")
            return
        finally:
            self.graph_view.show_step(state.step_state())  # what was on screen before
        self.statusBar().showMessage(f"Exported the backward animation to {path}")

    def _export_stem(self) -> str:
        return self.path.stem if self.path else "untitled"
