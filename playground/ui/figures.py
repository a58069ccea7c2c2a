"""The Figures pane: the images of every matplotlib figure of the run, as the kernel drew them.

Each figure is a card: its number (and cell, under Run all cells), fit to the pane or at 1:1,
copied to the clipboard, saved as the kernel's own PNG or SVG bytes. The bytes are untrusted:
Qt's image reader decodes them off the UI thread, after their header says a sane size.
"""

from __future__ import annotations

import collections
import html
import threading
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QImage, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from playground.model.figure import MAX_PIXELS, Figure
from playground.ui.following import follow
from playground.ui.relay import emit_on_ui_thread

HINT = ("Figures your code draws with matplotlib appear here: at plt.show(), at the end of a "
        "run or cell, or with display(fig).")
CARD_MARGIN = 40  # pixels of the pane's width a fitted image leaves for the card's frame
CARD_TITLE_HEIGHT = 60  # pixels of the pane's height the title row and frames take
CARDS_AT_ONCE = 4  # cards made per turn of the event loop: thirty froze the window 0.3 s


def decode_for_screen(data: bytes, width: int) -> tuple[QImage, QImage]:
    """The image, and a copy shrunk to ``width`` device pixels when it is wider (made here,
    off the UI thread: shrinking a 4000-pixel image takes the UI thread 100 ms)."""
    image = decode_png(data)
    if image.isNull() or image.width() <= width:
        return image, image
    return image, decode_png(data, width)


def decode_png(data: bytes, width: int | None = None) -> QImage:
    """The PNG as an image (at most ``width`` pixels wide), read by Qt after its header is
    checked; a null image for bytes that are not one. The reader scales as it reads: unlike
    QImage.scaled, that lets go of Python's lock (the window's thread runs meanwhile)."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer, b"png")
    size = reader.size()
    if not size.isValid() or size.width() * size.height() > 2 * MAX_PIXELS:
        return QImage()
    if width is not None and size.width() > width:
        reader.setScaledSize(QSize(width, max(round(size.height() * width / size.width()), 1)))
    return reader.read()


class _Decoder:
    """One thread that decodes the cards' PNGs in turn (thirty threads at once fought the UI
    thread for the GIL), handing each image to its card on the UI thread; it ends as soon as
    nothing is left to decode."""

    def __init__(self) -> None:
        self._jobs: collections.deque = collections.deque()
        self._lock = threading.Lock()
        self._running = False

    def decode(self, card: FigureCard, width: int, image: QImage | None = None) -> None:
        """The card's PNG decoded, with a copy ``width`` device pixels wide (only the copy
        when the card's ``image`` is decoded already: the pane grew past its copy)."""
        with self._lock:
            self._jobs.append((card, width, image))
            if self._running:
                return
            self._running = True
        threading.Thread(target=self._work, name="playground-figures", daemon=True).start()

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._jobs:
                    self._running = False
                    return
                card, width, image = self._jobs.popleft()
            decoded = decode_for_screen(card.figure.png, width) if image is None else \
                (image, decode_png(card.figure.png, width))
            emit_on_ui_thread(card.decoded, *decoded)
            del card, image  # (a card closed meanwhile goes now; the relay skips its signal)


_decoder = _Decoder()


class FigureCard(QFrame):
    """One figure: a title row with its actions, and the image."""

    decoded = Signal(QImage, QImage)

    def __init__(self, figure: Figure, room: QSize | None = None, parent=None) -> None:
        """``room``: the pane's size, which the image is first fitted into."""
        super().__init__(parent)
        room = room or QSize(800, 600)
        self.figure = figure
        self.image = QImage()
        self._preview = QImage()  # what a fitted figure is shrunk from
        self._asked_width = 0  # the widest copy asked of the decoder (one request a width)
        self.actual_size = False  # 1:1 (one image pixel per device pixel), else fit
        self.setFrameShape(QFrame.Shape.StyledPanel)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 6)
        layout.addLayout(self._title_row())
        self.picture = QLabel("Reading the image…")
        self.picture.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.picture)
        self._room = room
        self.decoded.connect(self._show_image)
        _decoder.decode(self, max(round(self._fitted_width(room) * figure.scale), 1))

    def _title_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        width, height = (round(side / self.figure.scale) for side in self.figure.pixel_size)
        self.title = QLabel(f"<b>{html.escape(self.figure.title)}</b>  "
                            f"<span style='color: gray'>{width} × {height}</span>")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setToolTip(f"{width} × {height} pixels at 1:1")
        self.zoom_button = self._button("1:1", "Pressed: the figure at its actual size (1:1). "
                                        "Released: fitted to the pane", self.toggle_zoom)
        self.zoom_button.setCheckable(True)
        self.copy_button = self._button("Copy", "Copy the figure to the clipboard",
                                        self.copy)
        self.save_button = self._button("Save…", "Save the figure as PNG or SVG",
                                        lambda: self.save_with_dialog())
        menu = QMenu(self.save_button)
        menu.addAction("Save as PNG…", lambda: self.save_with_dialog("png"))
        self.svg_action = menu.addAction("Save as SVG…", lambda: self.save_with_dialog("svg"))
        menu.aboutToShow.connect(self._offer_svg)
        self.save_button.setMenu(menu)
        self.save_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        row.addWidget(self.title)
        for button in (self.zoom_button, self.copy_button, self.save_button):
            row.addWidget(button)  # beside the title: in view when a 1:1 figure is scrolled
        row.addStretch(1)
        return row

    def _button(self, text: str, tip: str, action) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(tip)
        button.setAutoRaise(True)
        button.clicked.connect(action)
        return button

    # ----- the image ----------------------------------------------------------------------
    def _show_image(self, image: QImage, preview: QImage) -> None:
        self.image, self._preview = image, preview
        if image.isNull():
            self.picture.setText("This figure's image could not be read.")
            for button in (self.zoom_button, self.copy_button):
                button.setEnabled(False)
            return
        self.fit(self._room)

    def fit(self, room: QSize) -> None:
        """Lay the image out for a pane of ``room``: shrunk to show whole in it unless 1:1."""
        self._room = room
        if self.image.isNull():
            return
        scale = self.figure.scale
        pixels = min(self.image.width(), round(self._fitted_width(room) * scale))
        if self.actual_size or pixels == self.image.width():
            pixmap = QPixmap.fromImage(self.image)
        else:  # from the shrunk copy: shrinking the whole image here froze the window
            if self._preview.width() < pixels and self._asked_width < pixels:
                self._asked_width = pixels  # the pane grew: a larger copy is on its way
                _decoder.decode(self, pixels, self.image)
            pixmap = QPixmap.fromImage(self._preview)
            if pixels != pixmap.width():
                pixmap = pixmap.scaledToWidth(pixels, Qt.TransformationMode.SmoothTransformation)
        pixmap.setDevicePixelRatio(scale)
        self.picture.setPixmap(pixmap)
        self.picture.setFixedSize(pixmap.deviceIndependentSize().toSize())
        self.setMinimumWidth(self.picture.width() + CARD_MARGIN if self.actual_size else 0)

    def _fitted_width(self, room: QSize) -> int:
        """Logical pixels wide a fitted image is: as wide as the pane, or less where the
        pane's height (less the title row) would cut it off."""
        width, height = self.figure.pixel_size
        by_height = (room.height() - CARD_TITLE_HEIGHT) * width / height
        return max(min(room.width() - CARD_MARGIN, round(by_height)), 80)

    @property
    def shown_size(self) -> tuple[int, int]:
        """The image's size on screen, in logical pixels (0, 0 before it is read)."""
        pixmap = self.picture.pixmap()
        if pixmap is None or pixmap.isNull():
            return 0, 0
        size = pixmap.deviceIndependentSize()
        return round(size.width()), round(size.height())

    def toggle_zoom(self) -> None:
        self.actual_size = not self.actual_size
        self.zoom_button.setChecked(self.actual_size)
        self.fit(self._room)

    # ----- actions ------------------------------------------------------------------------
    def _offer_svg(self) -> None:
        """SVG when the kernel sent it (it comes after the run's result), else why not."""
        svg = self.figure.svg is not None
        self.svg_action.setEnabled(svg)
        self.svg_action.setText("Save as SVG…" if svg else
                                f"SVG: {self.figure.no_svg or 'still being drawn'}")

    def copy(self) -> None:
        if not self.image.isNull():
            QGuiApplication.clipboard().setImage(self.image)

    def save(self, path: str | Path) -> Path:
        """Write the kernel's own bytes: ``.svg`` the SVG (if it has one), else the PNG."""
        path = Path(path)
        if path.suffix.lower() == ".svg":
            if self.figure.svg is None:
                why = self.figure.no_svg or "it is still being drawn"
                raise ValueError(f"this figure has no SVG ({why}): save it as PNG")
            path.write_bytes(self.figure.svg)
        else:
            path.write_bytes(self.figure.png)
        return path

    def save_with_dialog(self, kind: str = "png") -> None:
        filters = {"png": "PNG image (*.png)", "svg": "SVG image (*.svg)"}
        name = f"figure-{self.figure.number}.{kind}"
        path, _ = QFileDialog.getSaveFileName(self, "Save the figure", name, filters[kind])
        if not path:
            return
        if not Path(path).suffix:
            path += f".{kind}"
        try:
            self.save(path)
        except (OSError, ValueError) as error:
            self.title.setToolTip(f"Not saved: {error}")


class FiguresPanel(QScrollArea):
    """Every figure of the last run (of every cell under Run all cells), in order."""

    def __init__(self, state=None, parent=None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.cards: list[FigureCard] = []
        self._shown: list[Figure] = []
        self._to_make: list[Figure] = []  # figures whose cards come at the next turns
        self._layout: QVBoxLayout | None = None
        self.show_figures([])
        if state is not None:
            self.bind(state)

    def bind(self, state) -> None:
        """Follow a model.view_state.ViewState: the figures of its runs."""
        follow(self, state.events.result, lambda _result: self.show_figures(state.figures))
        follow(self, state.events.figures, self.show_figures)
        follow(self, state.events.reset, lambda: self.show_figures([]))
        if state.figures:
            self.show_figures(state.figures)

    def show_figures(self, figures: list[Figure]) -> None:
        """A card per figure; the cards of figures already shown are kept (Run all cells
        adds a cell's figures to those before); new cards are made a few at a time."""
        if figures == self._shown and (self.cards or not figures):
            return
        kept = {id(card.figure): card for card in self.cards}
        self._shown = list(figures)
        holder = QWidget()
        self._layout = QVBoxLayout(holder)
        self.cards = []
        self._to_make = []
        for figure in figures:
            card = kept.pop(id(figure), None)
            if card is not None and not self._to_make:
                self._add(card)
                continue
            if card is not None:  # (in order: after a new card, the rest are made anew)
                card.deleteLater()
            self._to_make.append(figure)
        for card in kept.values():
            card.deleteLater()
        if not figures:
            hint = QLabel(HINT)
            hint.setWordWrap(True)
            hint.setStyleSheet("color: palette(placeholder-text);")
            self._layout.addWidget(hint)
        self._layout.addStretch(1)
        self.setWidget(holder)
        self._make_some()

    def _make_some(self) -> None:
        made, self._to_make = self._to_make[:CARDS_AT_ONCE], self._to_make[CARDS_AT_ONCE:]
        for figure in made:
            self._add(FigureCard(figure, self.room()))
        if self._to_make:
            QTimer.singleShot(0, self._make_some)

    def _add(self, card: FigureCard) -> None:
        self._layout.insertWidget(len(self.cards), card)  # before the stretch
        self.cards.append(card)
        card.fit(self.room())

    def room(self) -> QSize:
        """The size a card may take: the pane's, less a vertical scroll bar whether or not
        one shows (fitting to the viewport would flip as the bar comes and goes)."""
        return QSize(self.width() - self.verticalScrollBar().sizeHint().width() -
                     2 * self.frameWidth(), self.height() - 2 * self.frameWidth())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        for card in self.cards:
            card.fit(self.room())
