"""Export the backward player as an animated GIF or a numbered PNG sequence, one frame a step."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from playground.model import Graph
from playground.model.playback import Playback
from playground.model.trace import BackwardTrace
from playground.ui.graph_view import ARRIVED_AT, GraphView

STEP_FRAME_MS = 1400     # a step's frame stays long enough to read its rule
BETWEEN_FRAME_MS = 110   # the frames of gradients travelling along edges
IN_BETWEEN = 4           # travelling frames before each step's resting frame
TITLE_HEIGHT = 34.0
MARGIN = 16.0


class AnimationError(Exception):
    """Nothing to animate, or a file that cannot be written."""


def frames(view: GraphView, traces: list[BackwardTrace], in_between: int = IN_BETWEEN,
           scale: float = 1.0):
    """(QImage, milliseconds, is_step) for every frame of every backward call, in order."""
    if view.graph is None or view.current is None:
        raise AnimationError("there is no graph to animate: run a script first")
    traces = [t for t in traces if t.steps]
    if not traces:
        raise AnimationError("the run called no backward(): there is nothing to replay")
    playbacks = [Playback(view.graph, trace) for trace in traces]
    source = _frame_rect(view, playbacks)
    for number, playback in enumerate(playbacks, start=1):
        call = f"backward() {number} of {len(playbacks)} · " if len(playbacks) > 1 else ""
        for position in range(playback.count + 1):
            state = playback.state(position)
            title = call + state.title
            if state.moving:  # an AccumulateGrad sends nothing on: no travelling frames
                for part in range(in_between):
                    view.show_step(state, travel_ms=0,
                                   travel_at=ARRIVED_AT * part / in_between)
                    yield _render(view, source, title, scale), BETWEEN_FRAME_MS, False
            view.show_step(state, travel_ms=0)
            yield _render(view, source, title, scale), STEP_FRAME_MS, True
    view.show_step(None)


def _frame_rect(view: GraphView, playbacks: list[Playback]) -> QRectF:
    """One rectangle every frame fits in (callouts stick out beside their nodes)."""
    rect = view.scene().itemsBoundingRect()
    for playback in playbacks:
        for position in range(1, playback.count + 1):
            view.show_step(playback.state(position), travel_ms=0)
            rect = rect.united(view.scene().itemsBoundingRect())
    view.show_step(None)
    return rect.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN)


def _render(view: GraphView, source: QRectF, title: str, scale: float) -> QImage:
    size = QSize(int(source.width() * scale), int((source.height() + TITLE_HEIGHT) * scale))
    image = QImage(size, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing
                           | QPainter.RenderHint.TextAntialiasing)
    painter.scale(scale, scale)
    font = QFont()
    font.setPointSizeF(12)
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor("#1b1f24"))
    painter.drawText(QRectF(MARGIN, 0, source.width() - 2 * MARGIN, TITLE_HEIGHT),
                     Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, title)
    view.scene().render(painter, QRectF(0, TITLE_HEIGHT, source.width(), source.height()),
                        source)
    painter.end()
    return image


def export_gif(view: GraphView, traces: list[BackwardTrace], path: str | Path,
               in_between: int = IN_BETWEEN, scale: float = 1.0) -> Path:
    """An animated GIF: each step, with travelling frames before it, looping."""
    from PIL import Image

    path = Path(path)
    pictures, durations = [], []
    for image, milliseconds, _ in frames(view, traces, in_between, scale):
        pictures.append(_to_pil(image, Image))
        durations.append(milliseconds)
    temporary = path.with_name(path.stem + ".partial.gif")
    pictures[0].save(temporary, save_all=True, append_images=pictures[1:], duration=durations,
                     loop=0, optimize=False, disposal=1)
    temporary.replace(path)
    return path


def export_png_sequence(view: GraphView, traces: list[BackwardTrace], folder: str | Path,
                        scale: float = 2.0) -> list[Path]:
    """``step-000.png``, ``step-001.png``…: one picture per step, for slides."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for number, (image, _, _) in enumerate(frames(view, traces, 0, scale)):
        target = folder / f"step-{number:03d}.png"
        if not image.save(str(target), "PNG"):
            raise AnimationError(f"could not write {target}")
        written.append(target)
    return written


def _to_pil(image: QImage, pil_image):
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height = rgb.width(), rgb.height()
    data = bytes(rgb.constBits())[: rgb.bytesPerLine() * height]
    picture = pil_image.frombuffer("RGB", (width, height), data, "raw", "RGB",
                                   rgb.bytesPerLine(), 1)
    return picture.convert("P", palette=pil_image.Palette.ADAPTIVE, colors=255)


def render_animation_file(graph: Graph, traces: list[BackwardTrace], path: str | Path) -> Path:
    """Headless: lay out ``graph`` as the window does and write the animation (GIF or PNGs)."""
    from playground.ui.exporters import dispose, wait_until

    view = GraphView()
    view.resize(1200, 900)
    ready = []
    view.graph_ready.connect(lambda: ready.append(True))
    view.show_graph(graph)
    try:
        if graph.nodes and not wait_until(lambda: bool(ready) and not view.busy):
            raise AnimationError("laying out the graph took too long")
        path = Path(path)
        if path.suffix.lower() == ".gif":
            return export_gif(view, traces, path)
        export_png_sequence(view, traces, path)
        return path
    finally:
        dispose(view)
