"""Export the backward player as an animated GIF or a numbered PNG sequence, one frame a step."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter

from playground.files import replacing
from playground.model import Graph
from playground.model.playback import Playback
from playground.model.trace import BackwardTrace
from playground.ui.graph_replay import ARRIVED_AT
from playground.ui.graph_view import GraphView

STEP_FRAME_MS = 1400     # a step's frame stays long enough to read its rule
BETWEEN_FRAME_MS = 110   # the frames of gradients travelling along edges
IN_BETWEEN = 4           # travelling frames before each step's resting frame
TITLE_HEIGHT = 34.0
MARGIN = 16.0
EXPORT_SIZE = (1200, 900)  # a hidden view's size: frames show the whole graph anyway
MAX_FRAME_PIXELS = 2_400_000      # a larger graph is drawn smaller (about 1800 x 1300)
GIF_PIXEL_BUDGET = 300_000_000    # all frames of a GIF, one byte a pixel, held to write it
MOST_SHRINKING = 0.6              # frames drawn smaller than this to fit: refused instead


class AnimationError(Exception):
    """Nothing to animate, or a file that cannot be written."""


class Animation:
    """Every frame of every backward call drawn on a view, rendered one at a time (so a
    caller can keep its window painting between frames): ``len()`` frames, ``frame(i)``."""

    def __init__(self, view: GraphView, traces: list[BackwardTrace],
                 in_between: int = IN_BETWEEN, scale: float = 1.0) -> None:
        if view.graph is None or view.current is None:
            raise AnimationError("there is no graph to animate: run a script first")
        traces = [t for t in traces if t.steps]
        if not traces:
            raise AnimationError("the run called no backward(): there is nothing to replay")
        self.view = view
        self.playbacks = [Playback(view.graph, trace) for trace in traces]
        self.source = _frame_rect(view, self.playbacks)
        # a 300-node graph at 1:1 is tens of megapixels a frame: drawn smaller instead
        pixels = self.source.width() * (self.source.height() + TITLE_HEIGHT) * scale * scale
        self.scale = scale * min(1.0, (MAX_FRAME_PIXELS / max(pixels, 1.0)) ** 0.5)
        # (call, position, part of the way travelled or None for the resting frame)
        self.plan: list[tuple[int, int, float | None]] = []
        for call, playback in enumerate(self.playbacks):
            for position in range(playback.count + 1):
                if playback.state(position).moving:  # an AccumulateGrad sends nothing on
                    self.plan += [(call, position, ARRIVED_AT * part / in_between)
                                  for part in range(in_between)]
                self.plan.append((call, position, None))

    def __len__(self) -> int:
        return len(self.plan)

    def plan_title(self, index: int) -> str:
        """A frame's title: which call, which step."""
        call, position, _ = self.plan[index]
        counter = f"backward() {call + 1} of {len(self.playbacks)} · " \
            if len(self.playbacks) > 1 else ""
        return counter + self.playbacks[call].state(position).title

    def frame_pixels(self) -> int:
        return int(self.source.width() * self.scale) * \
            int((self.source.height() + TITLE_HEIGHT) * self.scale)

    def fit_gif_budget(self) -> None:
        """Few enough pixels for a GIF held in memory: the travelling frames go first, then
        the frames are drawn smaller; a replay still too long is refused, saying what to do."""
        if len(self) * self.frame_pixels() <= GIF_PIXEL_BUDGET:
            return
        self.plan = [frame for frame in self.plan if frame[2] is None]
        shrink = min(1.0, (GIF_PIXEL_BUDGET / (len(self) * self.frame_pixels())) ** 0.5)
        if shrink < MOST_SHRINKING:
            raise AnimationError(
                f"{len(self):,} steps are too many for one GIF of this graph: export a folder "
                "of PNG frames instead (type a folder name without .gif)")
        self.scale *= shrink

    def frame(self, index: int) -> tuple[QImage, int, bool]:
        """(picture, milliseconds, whether it is a step's resting frame)."""
        call, position, travelled = self.plan[index]
        state = self.playbacks[call].state(position)
        self.view.show_step(state, travel_ms=0, travel_at=travelled)
        picture = _render(self.view, self.source, self.plan_title(index), self.scale)
        if travelled is not None:
            return picture, BETWEEN_FRAME_MS, False
        return picture, STEP_FRAME_MS, True

    def sample_frames(self, count: int = 8) -> list[int]:
        """Resting frames spread over the animation, and one of a gradient on its way: their
        colours make the GIF's palette."""
        resting = [i for i, (_, _, travelled) in enumerate(self.plan) if travelled is None]
        picked = sorted({resting[round(k * (len(resting) - 1) / max(count - 1, 1))]
                         for k in range(count)})
        travelling = [i for i, (_, _, t) in enumerate(self.plan) if t]
        return picked + travelling[:1]

    def samples(self, count: int = 8) -> list[QImage]:
        return [self.frame(index)[0] for index in self.sample_frames(count)]

    def done(self) -> None:
        self.view.show_step(None)


def frames(view: GraphView, traces: list[BackwardTrace], in_between: int = IN_BETWEEN,
           scale: float = 1.0):
    """(QImage, milliseconds, is_step) for every frame of every backward call, in order."""
    animation = Animation(view, traces, in_between, scale)
    for index in range(len(animation)):
        yield animation.frame(index)
    animation.done()


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


class GifEncoder:
    """Frames to a small GIF: one palette for all frames, made from samples, and no
    dithering, so a pixel that did not change keeps its index and Pillow writes only the
    rectangle that changed (frame differencing); equal frames merge into one."""

    def __init__(self, samples: list) -> None:
        """``samples``: QImages, or (RGB888 bytes, size, stride) as ``rgb_bytes`` gives."""
        from PIL import Image

        self._image = Image
        # every other pixel: the same colours (nearest, no blending), a quarter of the work
        strip = [self._picture(sample) for sample in samples]
        strip = [p.resize((max(1, p.width // 2), max(1, p.height // 2)), Image.Resampling.NEAREST)
                 for p in strip]
        width = max(picture.width for picture in strip)
        board = Image.new("RGB", (width, sum(picture.height for picture in strip)), "white")
        top = 0
        for picture in strip:
            board.paste(picture, (0, top))
            top += picture.height
        self.palette = board.quantize(colors=255, method=Image.Quantize.MEDIANCUT,
                                      dither=Image.Dither.NONE)
        self.pictures: list = []
        self.durations: list[int] = []

    def add(self, frame, milliseconds: int) -> None:
        """A frame as a QImage, or as ``rgb_bytes`` gives it (plain data another thread can
        encode: a QImage is the UI thread's)."""
        picture = self._picture(frame)
        self.pictures.append(picture.quantize(palette=self.palette,
                                              dither=self._image.Dither.NONE))
        self.durations.append(milliseconds)

    def _picture(self, frame):
        if isinstance(frame, QImage):
            frame = rgb_bytes(frame)
        data, size, stride = frame
        return self._image.frombuffer("RGB", size, data, "raw", "RGB", stride, 1)

    def write(self, path: str | Path) -> Path:
        path = Path(path)
        with replacing(path, keep_suffix=True) as temporary:
            self.pictures[0].save(temporary, save_all=True, append_images=self.pictures[1:],
                                  duration=self.durations, loop=0, optimize=False, disposal=1)
        return path


def rgb_bytes(image: QImage) -> tuple[bytes, tuple[int, int], int]:
    """A frame's RGB888 bytes, size and stride: plain data another thread may encode."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    height = rgb.height()
    return bytes(rgb.constBits())[: rgb.bytesPerLine() * height], (rgb.width(), height), \
        rgb.bytesPerLine()


def export_gif(view: GraphView, traces: list[BackwardTrace], path: str | Path,
               in_between: int = IN_BETWEEN, scale: float = 1.0) -> Path:
    """An animated GIF: each step, with travelling frames before it, looping."""
    animation = Animation(view, traces, in_between, scale)
    try:
        animation.fit_gif_budget()
        encoder = GifEncoder(animation.samples())
        for index in range(len(animation)):
            picture, milliseconds, _ = animation.frame(index)
            encoder.add(picture, milliseconds)
    finally:
        animation.done()
    return encoder.write(path)


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


def render_animation_file(graph: Graph, traces: list[BackwardTrace], path: str | Path) -> Path:
    """Headless: lay out ``graph`` as the window does and write the animation (GIF or PNGs)."""
    from playground.ui.exporters import dispose, wait_until

    view = GraphView()
    view.resize(*EXPORT_SIZE)
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
