"""Notebooks as cells: read and write .ipynb, markdown notebooks, dumps and percent scripts.

The editor holds a notebook as a percent script (``# %%`` code cells, ``# %% [markdown]``
cells whose lines are ``# text``), the convention of VS Code, Spyder and jupytext. Formats:

- ``ipynb``: Jupyter notebooks, through nbformat (any version it can upgrade to v4);
- ``markdown``: text with fenced ```python blocks (jupytext's markdown, nbconvert's export,
  blog posts); the text between blocks becomes markdown cells, YAML front matter is kept;
- ``dump``: notebook text dumps, each code cell after an ``In [n]:`` line;
- ``percent``: a ``.py`` script, cells split at ``# %%`` lines (one cell if there are none).

Nothing here runs code: opening a notebook only reads text.
"""

from __future__ import annotations

import json
import re
import warnings
from dataclasses import dataclass, field

from playground.model.json_pieces import loads_in_pieces

# The one definition of a cell marker (editor, runner, saving): ``# %%`` at the start of a
# line, as jupytext and VS Code read it; an indented ``# %%`` is a comment inside a cell.
CELL_MARK = re.compile(r"^# %%(.*)$")
_FENCE = re.compile(r"^```[ \t]*(python|py|python3|ipython3?)?[ \t]*$")
# ``In [3]:`` alone on its line (notebook dumps) or with the code after it (IPython's terminal)
_PROMPT = re.compile(r"^In \[\s*(?:\d*|\*)\s*\]:[ \t]?(?P<code>.*)$")  # [*]: copied mid-run
OUT_PROMPT = re.compile(r"^Out\[\s*\d*\s*\]:[ \t]?")
_CONTINUATION = re.compile(r"^\s*\.\.\.+:[ \t]?(?P<code>.*)$")  # IPython's "   ...: "
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


class NotebookError(ValueError):
    """The file is not a notebook this app reads; the message says why in one sentence."""


@dataclass
class Cell:
    """A code or markdown cell; ``output`` is the text the code printed when last run."""

    kind: str
    source: str
    output: str = ""
    id: str = ""  # a Jupyter cell id, kept from the file; made up (stably) when new
    # a Jupyter cell's other fields, written back as they came: "metadata" (tags, ...),
    # "attachments", and "outputs"/"execution_count" with the "output" text they showed,
    # kept (images, tables, errors) while the cell's output is still that text
    extra: dict = field(default_factory=dict)


@dataclass
class Notebook:
    cells: list[Cell] = field(default_factory=list)
    metadata: dict = field(default_factory=dict)
    front_matter: str = ""

    def code(self) -> list[str]:
        return [cell.source for cell in self.cells if cell.kind == "code"]


def marker_kind(line: str) -> str | None:
    """"code", "markdown" or "raw" for a cell marker line, None for any other line."""
    mark = CELL_MARK.match(line)
    if mark is None:
        return None
    for kind in ("markdown", "raw"):
        if f"[{kind}]" in mark.group(1):
            return kind
    return "code"


def cell_spans(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, kind) of each cell of a percent script, 0-based; a cell's
    marker line is its first line; lines before the first marker make a code cell."""
    lines = text.split("\n")
    spans, first, kind = [], 0, marker_kind(lines[0]) or "code"
    for number, line in enumerate(lines[1:], start=1):
        found = marker_kind(line)
        if found is not None:
            spans.append((first, number - 1, kind))
            first, kind = number, found
    spans.append((first, len(lines) - 1, kind))
    return spans


# ----- detecting ---------------------------------------------------------------------------------
def format_of(name: str, text: str) -> str:
    """'ipynb', 'markdown', 'dump' or 'percent', from the file's name and its text."""
    lowered = name.lower()
    if lowered.endswith(".ipynb"):
        return "ipynb"
    # only a notebook's suffix makes a notebook: a script without one (``train``) whose
    # docstring shows a ```python fence is still a script, as python runs it
    if lowered.endswith((".md", ".markdown", ".txt")):
        lines = text.splitlines()
        if any(_FENCE.match(line) and _FENCE.match(line).group(1) for line in lines):
            return "markdown"
        if any(_PROMPT.match(line) for line in lines):
            return "dump"
        if lowered.endswith((".md", ".markdown")):
            return "markdown"
    return "percent"


CellKey = tuple[str, int]


def cell_keys(sources: list[str]) -> list[CellKey]:
    """Each cell's key for what is kept beside its text (output, id, tags): its source and
    how many cells before it have the same source, so two cells of the same text keep their
    own outputs and ids."""
    seen: dict[str, int] = {}
    keys = []
    for source in sources:
        keys.append((source, seen.get(source, 0)))
        seen[source] = seen.get(source, 0) + 1
    return keys


def read(name: str, text: str) -> Notebook:
    """The cells of a file's text, whatever its format (see :func:`format_of`)."""
    return {"ipynb": from_ipynb, "markdown": from_markdown, "dump": from_dump,
            "percent": from_percent}[format_of(name, text)](text)


def write(notebook: Notebook, name: str, kind: str | None = None) -> str:
    """The text of ``notebook`` in format ``kind`` (the one the file was read in), or else
    the one the file name's suffix asks for."""
    lowered = name.lower()
    if kind is None:
        kind = "ipynb" if lowered.endswith(".ipynb") else "markdown" if lowered.endswith(
            (".md", ".markdown", ".txt")) else "percent"
    return {"ipynb": to_ipynb, "markdown": to_markdown, "dump": to_dump,
            "percent": to_percent}[kind](notebook)


# ----- percent scripts ---------------------------------------------------------------------------
def from_percent(text: str) -> Notebook:
    notebook = Notebook()
    kind, lines, started = "code", [], False
    for line in text.split("\n"):
        found = marker_kind(line)
        if found is not None:
            if started or any(part.strip() for part in lines):
                notebook.cells.append(_percent_cell(kind, lines))
            kind = found
            lines, started = [], True
        else:
            lines.append(line)
    if started or any(part.strip() for part in lines):
        notebook.cells.append(_percent_cell(kind, lines))
    return notebook


def _percent_cell(kind: str, lines: list[str]) -> Cell:
    if lines and lines[-1] == "":
        lines = lines[:-1]  # the blank line that separates cells is not the cell's
    if kind in ("markdown", "raw"):
        lines = [markdown_line(line) for line in lines]
    return Cell(kind, "\n".join(lines))


def markdown_line(line: str) -> str:
    """A percent file's markdown line as the markdown had it (``# text`` → ``text``)."""
    if line.startswith("# "):
        return line[2:]
    return line[1:] if line.startswith("#") else line


def to_percent(notebook: Notebook) -> str:
    parts = []
    for cell in notebook.cells:
        if cell.kind in ("markdown", "raw"):
            body = "\n".join(f"# {line}" if line else "#" for line in cell.source.split("\n"))
            parts.append(f"# %% [{cell.kind}]\n" + body)
        else:
            parts.append("# %%\n" + cell.source)
    return "\n\n".join(parts) + "\n"


# ----- ipynb -------------------------------------------------------------------------------------
def from_ipynb(text: str) -> Notebook:
    document = _version_4(text)
    if document is None:
        document = _through_nbformat(text)
    metadata, cells = document.get("metadata"), document.get("cells")
    if not isinstance(cells, list):
        raise NotebookError("this .ipynb has no list of cells")
    notebook = Notebook(metadata=dict(metadata) if isinstance(metadata, dict) else {})
    for number, cell in enumerate(cells, start=1):
        # Jupyter opens a notebook that breaks its schema; so do we, where the text is readable
        if not isinstance(cell, dict) or not isinstance(cell.get("source"), str):
            raise NotebookError(f"cell {number} of this .ipynb has no text as its source")
        identity = cell.get("id", "") if isinstance(cell.get("id"), str) else ""
        extra = {key: cell[key] for key in ("metadata", "attachments")
                 if isinstance(cell.get(key), dict) and cell[key]}
        if cell.get("cell_type") not in ("code", "markdown"):  # raw cells stay raw
            notebook.cells.append(Cell("raw", cell["source"], id=identity, extra=extra))
            continue
        outputs = cell.get("outputs", [])
        output = "".join(_output_text(o) for o in outputs) if isinstance(outputs, list) else ""
        if outputs and isinstance(outputs, list):
            extra.update(outputs=outputs, execution_count=cell.get("execution_count"),
                         output=output)
        notebook.cells.append(Cell(cell["cell_type"], cell["source"], output, identity, extra))
    return notebook


def _through_nbformat(text: str) -> dict:
    """Older notebook versions, upgraded to version 4 by nbformat (the text is valid JSON:
    ``_version_4`` has read it)."""
    import nbformat

    try:
        with warnings.catch_warnings():  # nbformat warns, then goes on with a broken file
            warnings.simplefilter("ignore")
            return nbformat.reads(text, as_version=4)
    except Exception as error:  # noqa: BLE001 - nbformat raises many kinds for bad files
        raise NotebookError(f"this .ipynb is not a notebook nbformat can read: {error}") \
            from None


def _version_4(text: str) -> dict | None:
    """A version-4 notebook (today's) read with json alone, its texts stored as lists of
    lines joined; None for another version. nbformat spends most of its time on a
    large file checking the schema, which we do not need to open what breaks it."""
    try:  # read off the UI thread: in pieces, so that the window goes on painting
        document = loads_in_pieces(text, depth=2)
    except json.JSONDecodeError as error:
        raise NotebookError(f"this .ipynb is not valid JSON, so it cannot be read as a "
                            f"notebook ({error})") from None
    except RecursionError:
        raise NotebookError("this .ipynb nests its JSON too deeply to be a notebook") from None
    if not isinstance(document, dict):
        raise NotebookError(f"this .ipynb holds a JSON {_json_kind(document)}, where a "
                            f"notebook is an object with a list of cells")
    version = document.get("nbformat")
    if version is None:
        raise NotebookError("this .ipynb is not a notebook: it names no nbformat version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise NotebookError(f"this .ipynb's nbformat is {version!r}, where a notebook names "
                            f"its format's version by a number")
    if version != 4:
        return None
    metadata = document.get("metadata")
    if isinstance(metadata, dict):  # what Jupyter itself drops when it reads a file
        for key in ("orig_nbformat", "orig_nbformat_minor", "signature"):
            metadata.pop(key, None)
    cells = document.get("cells")
    for cell in cells if isinstance(cells, list) else ():
        if isinstance(cell, dict):
            _join_texts(cell)
    return document


def _json_kind(value) -> str:
    return {list: "list", str: "string", bool: "true or false", type(None): "null"}.get(
        type(value), "number")


def _join_texts(cell: dict) -> None:
    """A cell's source, output texts and mime data as single strings (JSON data stays)."""
    cell["source"] = _joined(cell.get("source"))
    if isinstance(cell.get("metadata"), dict):
        cell["metadata"].pop("trusted", None)
    attachments = cell.get("attachments")
    bundles = list(attachments.values()) if isinstance(attachments, dict) else []
    outputs = cell.get("outputs")
    for output in outputs if isinstance(outputs, list) and cell.get("cell_type") == "code" \
            else ():
        if not isinstance(output, dict):
            continue
        if output.get("output_type") in ("execute_result", "display_data"):
            bundles.append(output.get("data"))
        elif "text" in output:
            output["text"] = _joined(output["text"])
    for bundle in bundles:
        if isinstance(bundle, dict):
            for mime, value in bundle.items():
                if not (mime == "application/json" or
                        mime.startswith("application/") and mime.endswith("+json")):
                    bundle[mime] = _joined(value)


def _joined(value):
    if isinstance(value, list) and all(isinstance(part, str) for part in value):
        return "".join(value)
    return value


def _output_text(output) -> str:
    """The text an output showed ('' for what is not text, or not well formed)."""
    if not isinstance(output, dict):
        return ""
    if output.get("output_type") == "stream":
        text = output.get("text", "")
    else:
        data = output.get("data", {})
        text = data.get("text/plain", "") if isinstance(data, dict) else ""
        text = text + "\n" if isinstance(text, str) and text else text
    return text if isinstance(text, str) else ""


def to_ipynb(notebook: Notebook) -> str:
    """The notebook as .ipynb text; what a cell kept from its file goes back with it, unless
    the file's own fields broke the format (then the cells are written as new)."""
    import nbformat

    try:
        return _ipynb_text(notebook)
    except nbformat.ValidationError:
        plain = [Cell(cell.kind, cell.source, cell.output, cell.id) for cell in notebook.cells]
        return _ipynb_text(Notebook(plain, {}, notebook.front_matter))


def _ipynb_text(notebook: Notebook) -> str:
    import nbformat
    from nbformat import from_dict, v4

    document = v4.new_notebook(metadata=from_dict(notebook.metadata) or {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    count, used = 0, set()
    for number, cell in enumerate(notebook.cells):
        identity = cell.id if cell.id and cell.id not in used else f"cell-{number}"
        used.add(identity)  # ids must be unique: two cells of the same text get new ones
        kept = {key: from_dict(cell.extra[key]) for key in ("metadata", "attachments")
                if key in cell.extra and (key == "metadata" or cell.kind != "code")}
        if cell.kind in ("markdown", "raw"):
            make = v4.new_markdown_cell if cell.kind == "markdown" else v4.new_raw_cell
            document.cells.append(make(cell.source, id=identity, **kept))
            continue
        outputs, number = _ipynb_outputs(cell, count + 1)
        count = number or count
        document.cells.append(v4.new_code_cell(cell.source, outputs=outputs, id=identity,
                                               execution_count=number, **kept))
    nbformat.validate(document)
    return nbformat.writes(document) + "\n"


def _ipynb_outputs(cell: Cell, next_number: int) -> tuple[list, int | None]:
    """A code cell's outputs and execution count: as the file had them while the cell shows
    the same output (its images and tables too), else its new printed text."""
    from nbformat import from_dict, v4

    if cell.extra.get("outputs") and cell.extra.get("output") == cell.output:
        # read as plain JSON: nbformat's writer wants its attribute dicts
        return from_dict(cell.extra["outputs"]), cell.extra.get("execution_count")
    if not cell.output:
        return [], None
    return [v4.new_output("stream", name="stdout", text=cell.output)], next_number


# ----- markdown notebooks ---------------------------------------------------------------------
def from_markdown(text: str) -> Notebook:
    notebook = Notebook()
    front = _FRONT_MATTER.match(text)
    if front:
        notebook.front_matter = front.group(0)
        text = text[front.end():]
    prose: list[str] = []
    code: list[str] | None = None
    for line in text.split("\n"):
        fence = _FENCE.match(line)
        if code is None and fence and fence.group(1):
            _add_prose(notebook, prose)
            prose, code = [], []
        elif code is not None and fence and not fence.group(1):
            notebook.cells.append(Cell("code", "\n".join(code)))
            code = None
        elif code is not None:
            code.append(line)
        else:
            prose.append(line)
    if code is not None:  # an unclosed fence: the rest is code
        notebook.cells.append(Cell("code", "\n".join(code)))
    _add_prose(notebook, prose)
    return notebook


def _add_prose(notebook: Notebook, lines: list[str]) -> None:
    text = "\n".join(lines).strip("\n")
    if text.strip():
        notebook.cells.append(Cell("markdown", text))


def to_markdown(notebook: Notebook) -> str:
    parts = [f"```python\n{cell.source}\n```" if cell.kind == "code" else cell.source
             for cell in notebook.cells]
    return notebook.front_matter + "\n\n".join(parts) + "\n"


# ----- notebook text dumps ----------------------------------------------------------------------
def to_dump(notebook: Notebook) -> str:
    """``In [n]:`` before each code cell, an ``Out[n]:`` output after it, prose as it was:
    what :func:`from_dump` reads back unchanged."""
    parts, number = [], 0
    for cell in notebook.cells:
        if cell.kind == "code":
            number += 1
            parts.append(f"In [{number}]:\n{cell.source.strip(chr(10))}")
            if OUT_PROMPT.match(cell.output):  # printed text would read back as prose
                parts.append(cell.output.strip("\n"))
        else:
            parts.append(cell.source)
    return "\n\n".join(parts) + "\n"


def from_dump(text: str) -> Notebook:
    """Cells after ``In [n]:`` prompts (the code on the prompt's line or below it, IPython's
    ``...:`` continuations included); a code cell ends at a blank line that is not followed
    by an indented line. An ``Out[n]:`` block after it is its output; other text is markdown
    (a tutorial's prose between its cells)."""
    notebook = Notebook()
    lines = text.split("\n")
    ahead = _next_non_blank(lines)
    prose: list[str] = []
    index = 0
    while index < len(lines):
        prompt = _PROMPT.match(lines[index])
        if not prompt:
            prose.append(lines[index])
            index += 1
            continue
        _add_prose(notebook, prose)
        prose = []
        code = [prompt["code"]] if prompt["code"].strip() else []
        if code:  # IPython's terminal: its input goes on only in "...:" lines; what follows
            index = _read_continuations(lines, index + 1, code)  # them is printed output
        else:
            index = _read_code(lines, index + 1, code, ahead)
        while index < len(lines) and not lines[index].strip():
            index += 1
        output = []
        if index < len(lines) and OUT_PROMPT.match(lines[index]):
            while index < len(lines) and lines[index].strip():  # the Out[n] block
                output.append(lines[index])
                index += 1
        notebook.cells.append(Cell("code", "\n".join(code).rstrip("\n"),
                                   "\n".join(output) + "\n" if output else ""))
    _add_prose(notebook, prose)
    return notebook


def _next_non_blank(lines: list[str]) -> list[str]:
    """For each line, the first non-blank line after it ("" if none), found in one pass: a
    dump of many blank lines was read in quadratic time (600 kB: 11 s)."""
    found, following = [""] * len(lines), ""
    for index in range(len(lines) - 1, -1, -1):
        found[index] = following
        if lines[index].strip():
            following = lines[index]
    return found


def _read_continuations(lines: list[str], index: int, code: list[str]) -> int:
    """Append the ``...:`` lines after a terminal prompt's code to ``code``; the index after
    them."""
    while index < len(lines):
        continued = _CONTINUATION.match(lines[index])
        if not continued:
            return index
        code.append(continued["code"])
        index += 1
    return index


def _read_code(lines: list[str], index: int, code: list[str], ahead: list[str]) -> int:
    """Append a dump cell's code lines to ``code``; the index after them."""
    while index < len(lines) and not _PROMPT.match(lines[index]):
        line = lines[index]
        if OUT_PROMPT.match(line):
            return index  # IPython's Out[n]: the output starts here
        continued = _CONTINUATION.match(line)
        if continued:
            line = continued["code"]
        elif not line.strip():
            following = ahead[index]
            if not following[:1].isspace() and not _CONTINUATION.match(following):
                return index  # a blank line that closes the block: the code ends here
        code.append(line)
        index += 1
    return index
