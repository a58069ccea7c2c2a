"""The window's document: its file, format and recovery copy; New, Open, Save, examples, recent
files, and never losing the text."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QFileDialog, QMainWindow, QMenu, QMessageBox

from playground.files import atomic_write
from playground.model import gc_policy, notebook
from playground.model.source_file import Source, SourceError, encode_source, read_document
from playground.model.view_state import ViewState
from playground.resources import FOLDER
from playground.ui.editor import CodeEditor
from playground.ui.recovery import RecoveryStore
from playground.ui.relay import emit_on_ui_thread
from playground.ui.settings import Settings

EXAMPLES = FOLDER / "examples"
NOTEBOOK_SUFFIXES = (".ipynb", ".md", ".markdown", ".txt")
RECENT_LIMIT = 8
# Files larger than this are read and converted on a worker thread (a 100,000-cell notebook
# is 14 MB); the editor is read-only meanwhile, and the window keeps painting.
READ_IN_BACKGROUND_FROM = 1 << 20
STARTER = '''import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x * x).sum()
y.backward()
print(x.grad)
'''


def default_recovery_folder() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(folder or Path.home() / ".autograd-playground")


class _FileReader(QObject):
    """Reads a document on a worker thread; ``read`` is delivered on the UI thread."""

    read = Signal(int, object, object)  # the request's number, its path, Source | SourceError

    def start(self, number: int, path: Path) -> None:
        threading.Thread(target=self._read, args=(number, path), daemon=True,
                         name="file-read").start()

    def _read(self, number: int, path: Path) -> None:
        try:
            with gc_policy.paused():  # a million parsed objects: no full collections meanwhile
                outcome = read_document(path)
        except SourceError as error:
            outcome = error
        except Exception as error:  # noqa: BLE001 - the window must hear of any failure
            outcome = SourceError(f"{path.name} could not be read: {error}.")
        emit_on_ui_thread(self.read, number, path, outcome)


class Document(QObject):
    """The file the editor shows and what saving it needs (its format, line endings, a
    notebook's ids, metadata and cell outputs), its autosaved copy, and the recent files.
    A new document clears every view (the ViewState resets)."""

    def __init__(self, window: QMainWindow, editor: CodeEditor, view_state: ViewState,
                 settings: Settings, recovery: RecoveryStore, path: Path | None) -> None:
        super().__init__(window)
        self.window, self.editor, self.view_state = window, editor, view_state
        self.settings, self.recovery = settings, recovery
        self.path = path
        # Each New/Open (and each reset of the views) counts: a run of the document before
        # is not shown on this one.
        self.generation = 0
        self.loading_text = False  # text a file brings is being put in: it is not typing
        # what each cell printed, for .ipynb, by its key (notebook.cell_keys)
        self.cell_outputs: dict[notebook.CellKey, str] = {}
        # ... and what the notebook file showed under them when opened (never overwritten:
        # a run of a cell is checked against it)
        self.tutorial_outputs: dict[notebook.CellKey, str] = {}
        self._front_matter, self._file_format, self._opened_suffix = "", "percent", ""
        self._cell_ids: dict[notebook.CellKey, str] = {}
        self._notebook_metadata: dict = {}
        self._cell_extras: dict[notebook.CellKey, dict] = {}
        self._file_style = {"newline": "\n", "bom": False}
        self._pending_read: tuple[int, bool] | None = None  # a large file being read
        self._reads_started = 0
        self._file_reader: _FileReader | None = None  # made for the first large file
        self._said_when_loaded = ""  # the status bar's line once a long text is all in
        self._recovery_warned = False
        self.recent_menu = QMenu("Open &Recent", window)
        self._fill_recent()
        view_state.events.reset.connect(self._count)
        editor.file_dropped.connect(self.open_file)
        editor.loaded.connect(self._text_loaded)
        editor.modificationChanged.connect(self.update_title)

    def _say(self, message: str, timeout: int = 0) -> None:
        self.window.statusBar().showMessage(message, timeout)

    def _count(self) -> None:
        self.generation += 1

    def start(self, text: str) -> None:
        """The window's first text (the starter), then the file it was opened with."""
        self.load_text(text)
        self.editor.moveCursor(QTextCursor.MoveOperation.End)  # typing adds to the starter
        if self.path is not None:
            self._read_into_editor(self.path)

    def load_text(self, text: str, modified: bool = False) -> None:
        self.loading_text = True  # text that a file brings never triggers Live
        try:
            self.editor.load_text(text, modified)
        finally:
            self.loading_text = False
        self.editor.mark_error_line(None)
        self.update_title()

    @property
    def filename(self) -> str:
        """The name runs give the code (tracebacks name it): the file's absolute path, as
        python names a script it runs (the kernel puts its folder first on sys.path), or
        ``<untitled>``."""
        return str(self.path.absolute()) if self.path else "<untitled>"

    @property
    def file_format(self) -> str:
        """The opened file's format: "percent", "ipynb", "markdown" or "dump"."""
        return self._file_format

    def keep_output(self, key: notebook.CellKey, output: str) -> None:
        """What a cell printed when it ran: saved with it in a notebook."""
        self.cell_outputs[key] = output

    def go_to_line(self, filename: str, line: int) -> None:
        """Jump to a traceback's line when it is in this document."""
        if filename != self.filename:
            return
        block = self.editor.document().findBlockByNumber(line - 1)
        if block.isValid():
            cursor = self.editor.textCursor()
            cursor.setPosition(block.position())
            self.editor.setTextCursor(cursor)
            self.editor.setFocus()

    def _new_document(self, text: str, path: Path | None, source: Source | None = None) -> None:
        """Another document: its text, and nothing of the previous one's run on screen."""
        self._pending_read = None  # a large file still being read is not shown after this
        self.path = path
        source = source or Source(text)
        # outputs a notebook brought are kept for its cells that are not run again
        self.cell_outputs = dict(source.outputs)
        self.tutorial_outputs = {key: text for key, text in source.outputs.items() if text}
        self._front_matter, self._file_format = source.front_matter, source.format
        self._cell_ids, self._notebook_metadata = dict(source.ids), dict(source.metadata)
        self._cell_extras = dict(source.extras)
        self._file_style = {"newline": source.newline, "bom": source.bom}  # kept on save
        self._opened_suffix = path.suffix if path is not None else ""
        self.load_text(text)  # opening never runs the file, notebooks included
        self.view_state.reset()
        opened = f"Opened {path.name}: nothing ran yet" if path else \
            "A new script: Ctrl+Enter runs it"
        self._said_when_loaded = opened
        if self.editor.loading:
            lines = text.count("\n") + 1
            self._say(f"Loading {path.name if path else 'the text'}: "
                                         f"{lines:,} lines, read-only until all are in…")
        else:
            self._say(opened)

    def _text_loaded(self) -> None:
        """The last part of a long file is in: the editor takes keys again."""
        self._say(self._said_when_loaded)

    def ask_unsaved(self) -> str:
        """'save', 'discard' or 'cancel' for a modified document (tests replace this)."""
        answer = QMessageBox.question(
            self.window, "Unsaved changes", "Save the changes to "
            f"{self.path.name if self.path else 'this untitled script'} first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        return {QMessageBox.StandardButton.Save: "save",
                QMessageBox.StandardButton.Discard: "discard"}.get(answer, "cancel")

    def ask_path(self, saving: bool) -> str | None:
        """A file chosen in a dialog, or None (tests replace this)."""
        chooser = QFileDialog.getSaveFileName if saving else QFileDialog.getOpenFileName
        path, _ = chooser(self.window, "Save script" if saving else "Open script",
                          str(self.path.parent if self.path else Path.home()),
                          "Scripts and notebooks (*.py *.ipynb *.md *.txt);;Python scripts (*.py)"
                          ";;Jupyter notebooks (*.ipynb);;Markdown notebooks (*.md *.txt)"
                          ";;All files (*)")
        return path or None

    def may_discard(self) -> bool:
        """True when the current text may be replaced (saved, or the user agreed)."""
        if not self.editor.document().isModified():
            return True
        answer = self.ask_unsaved()
        return answer == "discard" or (answer == "save" and self.save())

    def open_example(self, example: Path) -> None:
        """An example opens as a new untitled document (saving it asks where)."""
        if self.may_discard():
            self._new_document(example.read_text(encoding="utf-8"), None)

    def new_file(self) -> None:
        if self.may_discard():
            self._new_document("", None)

    def open_file(self, path: str | None = None) -> None:
        if not self.may_discard():
            return
        path = path or self.ask_path(saving=False)
        if path:
            self._read_into_editor(Path(path), remember=True)

    @property
    def opening(self) -> bool:
        """Whether a large file is still being read (its text not in the editor yet)."""
        return self._pending_read is not None

    def _read_into_editor(self, path: Path, remember: bool = False) -> None:
        """Show a file (a notebook as cells); on failure say why and keep the text shown.
        A large file is read off the UI thread; the editor waits read-only meanwhile."""
        self._pending_read = None
        try:
            large = path.stat().st_size > READ_IN_BACKGROUND_FROM
        except OSError:
            large = False  # reading it says why, in one sentence
        if not large:
            try:
                self._show_read(path, read_document(path), remember)
            except SourceError as error:
                self._show_read(path, error, remember)
            return
        if self._file_reader is None:
            self._file_reader = _FileReader(self)
            self._file_reader.read.connect(self._file_read)
        self._reads_started += 1
        self._pending_read = (self._reads_started, remember)
        self.editor.setReadOnly(True)
        self._say(f"Opening {path.name}…")
        self._file_reader.start(self._reads_started, path)

    def _file_read(self, number: int, path: Path, outcome) -> None:
        if self._pending_read is None or self._pending_read[0] != number:
            return  # another document came first (New, an example, another file)
        remember = self._pending_read[1]
        self._pending_read = None
        self._show_read(path, outcome, remember)

    def _show_read(self, path: Path, outcome, remember: bool) -> None:
        if isinstance(outcome, SourceError):
            self._say(f"Could not open: {outcome}")
            self.path = None if self.path == path else self.path
            self.editor.setReadOnly(self.editor.loading)
            return
        self._new_document(outcome.text, path, outcome)
        if remember:
            self._remember(path)

    def save(self) -> bool:
        if self.path is None:
            return self.save_as()
        try:
            atomic_write(self.path, encode_source(self._file_text(self.path), self.path.name,
                                                  **self._file_style))
        except SourceError as error:  # a character its declared encoding cannot hold
            self._say(f"Not saved: {error}")
            return False
        except (OSError, ValueError) as error:
            self._say(f"Could not save {self.path}: {error}")
            return False
        self.editor.document().setModified(False)
        self.update_title()  # Save As on an unmodified document: the new name
        self._say(f"Saved {self.path}")
        self._remember(self.path)
        return True

    def _file_text(self, path: Path) -> str:
        """The editor's text as the file's format: a notebook gets its cells (and what each
        printed when last run); a .py file is the text itself."""
        text = self.editor.toPlainText()
        if path.suffix.lower() not in NOTEBOOK_SUFFIXES:
            return text
        book = notebook.from_percent(text)
        keys = notebook.cell_keys([cell.source for cell in book.cells])
        for key, cell in zip(keys, book.cells, strict=True):
            cell.output = self.cell_outputs.get(key, "")
            cell.id = self._cell_ids.get(key, "")  # Jupyter's ids survive: clean diffs
            cell.extra = self._cell_extras.get(key, {})  # tags, attachments, images
        book.metadata = dict(self._notebook_metadata)
        if self._front_matter and path.suffix.lower() != ".ipynb":
            book.front_matter = self._front_matter
        # a file keeps the format it was opened in (a text dump stays a dump); Save As to
        # another suffix writes that suffix's format
        kept = self._file_format if path.suffix == self._opened_suffix else None
        return notebook.write(book, path.name, kept if kept != "percent" else None)

    def save_as(self) -> bool:
        path = self.ask_path(saving=True)
        if not path:
            return False
        self.path = Path(path)
        return self.save()

    def _remember(self, path: Path) -> None:
        recent = [str(path)] + [p for p in self.recent() if p != str(path)]
        self.settings.setValue("recent_files", recent[:RECENT_LIMIT])
        self._fill_recent()

    def recent(self) -> list[str]:
        value = self.settings.value("recent_files", [])
        return [value] if isinstance(value, str) else list(value or [])

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for path in self.recent():
            self.recent_menu.addAction(path, lambda path=path: self.open_file(path))
        self.recent_menu.setEnabled(bool(self.recent()))

    def update_title(self, _modified: bool = False) -> None:
        name = self.path.name if self.path else "untitled"
        mark = " •" if self.editor.document().isModified() else ""
        self.window.setWindowTitle(f"{name}{mark} — Autograd Playground")

    # ----- never losing work -----------------------------------------------------------------
    def save_recovery(self) -> None:
        """Autosave the text; a disk that refuses says so once, and never stops a run."""
        if not self.editor.document().isModified():
            return
        try:
            self.recovery.save(self.editor.toPlainText(), self.path)
        except (OSError, ValueError) as error:
            if not self._recovery_warned:
                self._recovery_warned = True
                self._say(f"Autosave failed ({error}); save your work "
                                             "with Ctrl+S", 10_000)
            return
        self._recovery_warned = False

    def offer_recovery(self) -> bool:
        """After a crash or a kill, offer the text autosaved a few seconds before."""
        saved = self.recovery.load()
        if saved is None or saved["text"] == self.editor.toPlainText():
            self.recovery.release_claimed()
            return False
        if self.ask_restore(saved) != "restore":
            self.recovery.clear()
            self.recovery.release_claimed()
            return False
        self.path = Path(saved["path"]) if saved.get("path") else None
        self.load_text(saved["text"], modified=True)
        self.save_recovery()  # this window's own copy takes over from the ended one's
        self.recovery.release_claimed()
        self._say("Restored the text you were editing")
        return True

    def ask_restore(self, saved: dict) -> str:
        """'restore' or 'discard' (tests replace this)."""
        answer = QMessageBox.question(
            self.window, "Restore unsaved work?", "Autograd Playground did not close normally. "
            "Restore the text you were editing?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        return "restore" if answer == QMessageBox.StandardButton.Yes else "discard"
