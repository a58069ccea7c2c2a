"""The backward animation exported in the background: frame by frame between the window's
events, encoded on a thread of its own, with progress and Cancel."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal

from playground.model.trace import BackwardTrace
from playground.ui.animation import (
    EXPORT_SIZE,
    IN_BETWEEN,
    Animation,
    AnimationError,
    GifEncoder,
    rgb_bytes,
)
from playground.ui.graph_view import GraphView
from playground.ui.relay import emit_on_ui_thread

WAIT_FOR_ENCODER_MS = 10  # between looks at a full queue (the window's events run meanwhile)
_DONE = object()


class AnimationJob(QObject):
    """Writes a GIF (or a folder of PNG frames) of ``traces`` drawn on ``graph``.

    A hidden GraphView lays the graph out as the window's does (same direction, same folded
    groups), so the window's own view never flickers through the steps. One frame is rendered
    per turn of the event loop; a GIF's frames are encoded on a thread. ``progress(done,
    total)`` as it goes, then ``finished(path)`` or ``failed(message)``; ``cancel()`` stops it
    and writes nothing.
    """

    progress = Signal(int, int)
    finished = Signal(str)
    failed = Signal(str)
    _encoded = Signal(str, str)  # (path, error) from the encoder thread

    def __init__(self, shown: GraphView, traces: list[BackwardTrace], path: str | Path,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.gif = self.path.suffix.lower() == ".gif"
        self.traces = traces
        self.view = GraphView()
        self.view.resize(*EXPORT_SIZE)
        self.view.upward = shown.upward
        self.view.expanded = set(shown.expanded)
        self.animation: Animation | None = None
        self.next_frame = 0
        self._to_sample: list[int] = []  # frames still to render for the GIF's palette
        self._samples: list = []
        self.cancelled = False
        self.written: list[Path] = []
        self._frames: queue.Queue = queue.Queue(maxsize=8)  # frames the encoder has yet to take
        self._encoder: threading.Thread | None = None
        self._ticker = QTimer(self, interval=0, timeout=self._tick)
        self._encoded.connect(self._end)
        self.view.graph_ready.connect(self._laid_out)
        self.graph = shown.graph

    def start(self) -> None:
        if self.graph is None:
            self.failed.emit("there is no graph to animate: run a script first")
            return
        self.view.show_graph(self.graph)  # laid out off the UI thread; then _laid_out

    def cancel(self) -> None:
        self.cancelled = True
        self._ticker.stop()
        self._stop_encoder()
        for picture in self.written:
            picture.unlink(missing_ok=True)
        self._dispose()

    # ----- the work ---------------------------------------------------------------------------
    def _laid_out(self) -> None:
        if self.cancelled or self.animation is not None:
            return
        try:
            self.animation = Animation(self.view, self.traces, IN_BETWEEN if self.gif else 0,
                                       1.0 if self.gif else 2.0)
            if self.gif:
                self.animation.fit_gif_budget()
                self._to_sample = self.animation.sample_frames()
            else:
                self.path.mkdir(parents=True, exist_ok=True)
        except (AnimationError, OSError) as error:
            self._fail(str(error))
            return
        self.progress.emit(0, len(self.animation))
        self._ticker.start()

    def _sample(self) -> None:
        """One of the frames the GIF's palette is made of; with the last, the encoder starts."""
        self._samples.append(rgb_bytes(self.animation.frame(self._to_sample.pop(0))[0]))
        if not self._to_sample:  # the palette is made on the encoder's thread (the slow part)
            self._encoder = threading.Thread(target=self._encode, args=(self._samples,),
                                             daemon=True, name="gif-encoder")
            self._samples = []
            self._encoder.start()

    def _tick(self) -> None:
        """One frame: rendered here (Qt paints on the UI thread), encoded elsewhere."""
        if self._to_sample:
            self._sample()
            return
        if self.gif and self._frames.full():  # the encoder is behind: wait without blocking
            self._ticker.setInterval(WAIT_FOR_ENCODER_MS)
            return
        self._ticker.setInterval(0)
        animation = self.animation
        if self.next_frame >= len(animation):
            self._ticker.stop()
            animation.done()
            if self.gif:
                self._frames.put(_DONE)
            else:
                self._end(str(self.path), "")
            return
        picture, milliseconds, _ = animation.frame(self.next_frame)
        if self.gif:
            self._frames.put((rgb_bytes(picture), milliseconds))
        else:
            target = self.path / f"step-{self.next_frame:03d}.png"
            if not picture.save(str(target), "PNG"):
                self._fail(f"could not write {target}")
                return
            self.written.append(target)
        self.next_frame += 1
        self.progress.emit(self.next_frame, len(animation))

    def _encode(self, samples: list) -> None:
        try:
            encoder = GifEncoder(samples)
            while (item := self._frames.get()) is not _DONE:
                if item is None:  # cancelled
                    return
                encoder.add(*item)
            emit_on_ui_thread(self._encoded, str(encoder.write(self.path)), "")
        except (OSError, ValueError) as error:
            emit_on_ui_thread(self._encoded, "", str(error))

    def _end(self, path: str, error: str) -> None:
        if self.cancelled:
            return
        self._dispose()
        if error:
            self.failed.emit(error)
        else:
            self.finished.emit(path)

    def _fail(self, message: str) -> None:
        self._ticker.stop()
        self._stop_encoder()
        self._dispose()
        self.failed.emit(message)

    def _stop_encoder(self) -> None:
        if self._encoder is not None and self._encoder.is_alive():
            while True:  # make room: the encoder may be waiting for a full queue
                try:
                    self._frames.get_nowait()
                except queue.Empty:
                    break
            self._frames.put(None)

    def _dispose(self) -> None:
        if self.view is not None:
            self.view.deleteLater()
            self.view = None
