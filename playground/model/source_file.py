"""Reading a file the user opens as code: encoding, size and notebook checks, one sentence each.

Binary files, text in an encoding the file does not declare, files too big for the editor and
broken notebooks are refused with a SourceError that says why; nothing is ever run.
"""

from __future__ import annotations

import codecs
import io
import re
import stat
import tokenize
from dataclasses import dataclass, field
from pathlib import Path

from playground.model import notebook
from playground.model.notebook import CellKey, NotebookError

FILE_LIMIT = 64 << 20    # bytes read at all (a notebook with images may be tens of MB)
EDITOR_LIMIT = 2 << 20   # characters of code the editor takes: highlighting more freezes it


class SourceError(ValueError):
    """The file cannot be opened as code; the message is one sentence naming the file."""


@dataclass
class Source:
    """A file opened as editor text, with what saving it back needs: a markdown notebook's
    front matter, the file's notebook format, and each cell's output (by its key:
    ``notebook.cell_keys``)."""

    text: str
    front_matter: str = ""
    format: str = "percent"
    outputs: dict[CellKey, str] = field(default_factory=dict)
    ids: dict[CellKey, str] = field(default_factory=dict)  # a Jupyter cell's id
    metadata: dict = field(default_factory=dict)      # the notebook's own (kernelspec, ...)
    # what a Jupyter cell holds beyond its text (tags, attachments, rich outputs)
    extras: dict[CellKey, dict] = field(default_factory=dict)
    newline: str = "\n"  # the file's line ending: saving writes it back
    bom: bool = False     # whether the file began with a UTF-8 byte-order mark


def read_source(path: Path, text_limit: int | None = EDITOR_LIMIT) -> tuple[str, str]:
    """The code a file holds as editor text (a notebook as ``# %%`` cells), and a markdown
    notebook's YAML front matter, kept aside so saving can put it back."""
    source = read_document(path, text_limit)
    return source.text, source.front_matter


def read_document(path: Path, text_limit: int | None = EDITOR_LIMIT) -> Source:
    """The file as a :class:`Source` (see :func:`read_source`)."""
    name = path.name
    data = _read_bytes(path)
    if b"\0" in data[:1 << 16]:
        raise SourceError(f"{name} is a binary file, not a Python script or a notebook.")
    if (nul := data.find(b"\0")) >= 0:  # python refuses a script with one; JSON too
        raise SourceError(f"{name} holds a NUL byte (at byte {nul:,}), which no script or "
                          f"notebook may hold.")
    text = _decode(data, name, python=path.suffix.lower() in (".py", ""))
    style = {"newline": _newline_of(text), "bom": data.startswith(codecs.BOM_UTF8)}
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    source = Source(text, **style)
    if notebook.format_of(name, text) != "percent":
        try:
            book = notebook.read(name, text)
        except NotebookError as error:
            raise SourceError(f"{name}: {error}.") from None
        keyed = list(zip(notebook.cell_keys([cell.source for cell in book.cells]),
                         book.cells, strict=True))
        source = Source(notebook.to_percent(book), book.front_matter,
                        notebook.format_of(name, text),
                        {key: cell.output for key, cell in keyed if cell.output},
                        {key: cell.id for key, cell in keyed if cell.id},
                        dict(book.metadata),
                        {key: cell.extra for key, cell in keyed if cell.extra},
                        **style)
    if text_limit is not None and len(source.text) > text_limit:
        raise SourceError(f"{name} holds {_size(len(source.text))} of code, more than the "
                          f"editor's {_size(text_limit)}: split it, or run it with "
                          "`playground run`.")
    return source


def _read_bytes(path: Path) -> bytes:
    try:
        if path.is_dir():
            raise SourceError(f"{path.name} is a folder, not a file.")
        status = path.stat()
        if not stat.S_ISREG(status.st_mode):  # reading /dev/zero never ends, a FIFO waits
            raise SourceError(f"{path.name} is a device or a pipe, not a file.")
        size = status.st_size
        if size <= FILE_LIMIT:
            with path.open("rb") as handle:
                data = handle.read(FILE_LIMIT + 1)  # a file that grows while read stops here
            size = len(data)
        if size > FILE_LIMIT:
            raise SourceError(f"{path.name} is {_size(size)}, too big to be a script or a "
                              f"notebook (the limit is {_size(FILE_LIMIT)}).")
        return data
    except FileNotFoundError:
        raise SourceError(f"{path} does not exist.") from None
    except PermissionError:
        raise SourceError(f"{path.name} cannot be read: permission denied.") from None
    except OSError as error:
        raise SourceError(f"{path.name} cannot be read: {error.strerror or error}.") from None


def _decode(data: bytes, name: str, python: bool) -> str:
    """UTF-8 (with or without a BOM); a Python file may declare another encoding (PEP 263)."""
    encoding = "utf-8-sig"
    if python:
        try:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        except SyntaxError as error:
            if "unknown encoding" in error.msg:  # a coding line naming no known codec
                raise SourceError(f"{name}: {error.msg}.") from None
            encoding = "utf-8"  # undeclared and not UTF-8: said below, with the byte
        _check_source_encoding(encoding, name)
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as error:
        raise SourceError(f"{name} is not UTF-8 text (byte 0x{data[error.start]:02x} at "
                          f"position {error.start:,}): save it as UTF-8, or declare its "
                          "encoding in a '# -*- coding: … -*-' line.") from None
    return text


def _check_source_encoding(encoding: str, name: str) -> None:
    """Python reads source only in an encoding that turns bytes into text and keeps ASCII as
    it is (``coding: rot13`` and ``coding: utf-16`` are its "encoding problem"): such a file
    is refused, never shown as garbage that saving would write back."""
    ascii_line = b"# -*- coding -*-\n"
    try:
        codec = codecs.lookup(encoding)
        text_encoding = getattr(codec, "_is_text_encoding", True)
        keeps_ascii = text_encoding and ascii_line.decode(codec.name) == ascii_line.decode()
    except (LookupError, UnicodeDecodeError):
        text_encoding = keeps_ascii = False
    if not (text_encoding and keeps_ascii):
        raise SourceError(f"{name} declares the encoding {encoding!r}, which Python cannot "
                          "read source code in: save it as UTF-8.")


def _newline_of(text: str) -> str:
    """The line ending a file uses: its first one (editors write back what they found)."""
    end = text.find("\n")
    if end > 0 and text[end - 1] == "\r":
        return "\r\n"
    return "\r" if "\r" in text[:end if end >= 0 else len(text)] else "\n"


# PEP 263: a comment naming the encoding on one of the first two lines
_CODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")


def declared_encoding(text: str) -> str | None:
    """The codec a Python text declares (PEP 263), or None."""
    for line in text.split("\n", 2)[:2]:
        found = _CODING.match(line)
        if found:
            return found.group(1)
        if line.strip() and not line.lstrip().startswith("#"):
            return None  # the declaration must come before any code
    return None


def encode_source(text: str, name: str, newline: str = "\n", bom: bool = False) -> bytes:
    """Editor text as the file's bytes: its line ending, a Python file in the encoding its
    coding line declares (else UTF-8), a byte-order mark where the file had one. Text the
    declared encoding cannot hold is refused in one sentence rather than written wrongly."""
    text = text.replace("\n", newline)
    declared = declared_encoding(text) if name.lower().endswith(".py") else None
    encoding = "utf-8"
    if declared is not None:
        try:
            encoding = codecs.lookup(declared).name
        except LookupError:
            raise SourceError(f"{name} declares the encoding '{declared}', which Python does "
                              "not know: fix its coding line.") from None
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError as error:
        line = text.count("\n", 0, error.start) + 1
        raise SourceError(f"{name} declares {declared}, which cannot hold "
                          f"{text[error.start]!r} on line {line}: change the coding line to "
                          "utf-8 or remove the character.") from None
    if bom and encoding == "utf-8":
        data = codecs.BOM_UTF8 + data
    return data


def _size(count: int) -> str:
    return f"{count / (1 << 20):.1f} MB" if count >= 1 << 20 else f"{count / 1024:.0f} KB"
