"""Files that are not what they claim, opened in the window and given to ``playground run``.

Opening never runs anything. A file the editor cannot take is refused with one sentence and the
text already in the editor stays; a file it can take (a declared encoding, CRLF, a BOM, a big
notebook whose code is small) opens. ``playground run`` refuses the same files with exit
status 2, and runs a 10 MB script the editor will not hold.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.faults.test_corpus import MEMORY
from tests.windows import ran


def _code(source, **fields) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
            "execution_count": None, **fields}


def _notebook(cells: list, **fields) -> bytes:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells,
                       **fields}).encode()


VERSION_3 = json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [
    {"cells": [{"cell_type": "code", "input": "print(3)", "language": "python",
                "outputs": []}]}]}).encode()

REFUSED = {
    # name: (bytes, words of the sentence)
    "binary.py": (bytes(range(256)) * 64, "binary file"),
    "picture.png": (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(200), "binary file"),
    "latin1.py": ("print('café')\n".encode("latin-1"), "not UTF-8 text"),
    "unknown_coding.py": (b"# -*- coding: klingon -*-\nprint(1)\n", "unknown encoding"),
    "broken.ipynb": (b'{"cells": [', "not valid JSON"),
    "not_a_notebook.ipynb": (b'{"cells": 3}', "not a notebook"),
    "cp1252.md": ("```python\nprint('naïve')\n```\n".encode("cp1252"), "not UTF-8 text"),
    # python itself refuses these ("encoding problem"); utf-16 opened as CJK text that
    # Save wrote back over the file, rot13 raised LookupError
    "rot13.py": (b"# -*- coding: rot13 -*-\nprint('hi')\n", "declares the encoding 'rot13'"),
    "utf16.py": (b"# -*- coding: utf-16 -*-\nprint('hi')\n", "declares the encoding 'utf-16'"),
    "deep.ipynb": (b"[" * 100_000 + b"]" * 100_000, "nests its JSON too deeply"),
    # round three: what nbformat's schema forbids, and bytes python refuses
    "number_source.ipynb": (_notebook([_code([1, 2, None])]), "has no text as its source"),
    "null_cell.ipynb": (_notebook([None, _code("print(1)")]), "has no text as its source"),
    "no_source.ipynb": (_notebook([{"cell_type": "code", "metadata": {}}]),
                        "has no text as its source"),
    "empty.ipynb": (b"", "not valid JSON"),
    "list.ipynb": (b"[1, 2]", "holds a JSON list"),
    "cells_object.ipynb": (b'{"nbformat": 4, "cells": {"a": 1}}', "no list of cells"),
    "text_version.ipynb": (_notebook([_code("print(4)")], nbformat="4"), "nbformat is '4'"),
    "late_nul.py": (b"# " + b"a" * 70_000 + b"\n\0print(1)\n", "NUL byte (at byte 70,003)"),
    "surrogate.py": (b"print('\xed\xa0\x80')\n", "not UTF-8 text"),
}


def big_script() -> bytes:
    """10 MB of Python: a table of numbers in a string, then a few lines of autograd on it."""
    rows = "\n".join(" ".join(f"{(row * 10 + column) % 997 / 997:.6f}" for column in range(10))
                     for row in range(125_000))
    return (f'TABLE = """\n{rows}\n"""\n'
            "import torch\n"
            "data = [float(value) for value in TABLE.split()]\n"
            "x = torch.tensor(data[:4], requires_grad=True)\n"
            "(x * x).sum().backward()\n"
            "print(len(data), x.grad)\n").encode()


OPENED = {
    # name: (bytes, the editor text it opens as)
    "declared.py": ("# -*- coding: latin-1 -*-\nprint('café')\n".encode("latin-1"),
                    "# -*- coding: latin-1 -*-\nprint('café')\n"),
    "windows.py": (b"x = 1\r\nprint(x)\r\n", "x = 1\nprint(x)\n"),
    "bom.py": (b"\xef\xbb\xbfprint('bom')\n", "print('bom')\n"),
    "empty.py": (b"", ""),
    "prose.md": (b"# Only words\n\nNo code here.\n", "# %% [markdown]\n# # Only words\n#\n"
                                                     "# No code here.\n"),
    # no suffix: a script, whatever its docstring shows (it opened as a markdown notebook,
    # and Save commented its code out)
    "train": (b'"""Usage.\n\n```python\nx = 1\n```\n"""\nprint("script")\n',
              '"""Usage.\n\n```python\nx = 1\n```\n"""\nprint("script")\n'),
    # a cell copied while it ran is still a cell (it opened as prose)
    "copied.txt": (b"In [*]:\nprint(1)\n\nIn [2]:\nprint(2)\n",
                   "# %%\nprint(1)\n\n# %%\nprint(2)\n"),
    # round three: what Jupyter opens, and odd line endings and marks
    "unknown_cell.ipynb": (_notebook([{"cell_type": "widget", "source": "x", "metadata": {}},
                                      _code("print(2)")]), "# %% [raw]\n# x\n\n# %%\nprint(2)\n"),
    "version3.ipynb": (VERSION_3, "# %%\nprint(3)\n"),
    "bom.ipynb": (b"\xef\xbb\xbf" + _notebook([_code("print('bom')")]), "# %%\nprint('bom')\n"),
    "escaped_nul.ipynb": (_notebook([_code("print('a\\u0000b')")]),
                          "# %%\nprint('a\\u0000b')\n"),
    "repeated_key.ipynb": (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [], '
                           b'"cells": [{"cell_type": "code", "source": "print(9)", '
                           b'"metadata": {}, "outputs": []}]}', "# %%\nprint(9)\n"),
    "not_finite.ipynb": (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": NaN}, "cells": '
                         b'[{"cell_type": "code", "source": "print(9)", "metadata": {}, '
                         b'"outputs": [], "execution_count": Infinity}]}', "# %%\nprint(9)\n"),
    "huge_output.ipynb": (_notebook([_code("print('x')", outputs=[
        {"output_type": "stream", "name": "stdout", "text": "y" * (10 << 20)}])]),
        "# %%\nprint('x')\n"),
    "old_mac.py": (b"x = 1\rprint(x)\r", "x = 1\nprint(x)\n"),
    "mixed_endings.py": (b"a = 1\r\nb = 2\rc = 3\n", "a = 1\nb = 2\nc = 3\n"),
    "only_bom.py": (b"\xef\xbb\xbf", ""),
    "open_fence.md": (b"# Notes\n\n```python\nprint('open')\n",  # CommonMark: code to the end
                      "# %% [markdown]\n# # Notes\n\n# %%\nprint('open')\n\n"),
    "bom_notes.md": (b"\xef\xbb\xbf```python\nprint('md')\n```\n", "# %%\nprint('md')\n"),
    "prompts_only.txt": (b"In [1]:\n\nIn [2]:\n", "# %%\n\n\n# %%\n\n"),
    "notebook_named.py": (_notebook([_code("print(1)")]), _notebook([_code("print(1)")]).decode()),
}


def big_notebook() -> bytes:
    """A notebook of 10 MB, nearly all of it a picture in an output; its code is one line."""
    picture = "A" * (10 << 20)
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{
        "cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1,
        "source": "print('small code')",
        "outputs": [{"output_type": "display_data", "metadata": {},
                     "data": {"image/png": picture}}]}]}).encode()


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    tmp_path = tmp_path_factory.mktemp("files")
    for name, (data, _) in {**REFUSED, **OPENED}.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "big.py").write_bytes(big_script())
    (tmp_path / "big.ipynb").write_bytes(big_notebook())
    (tmp_path / "folder.py").mkdir()
    os.mkfifo(tmp_path / "fifo.py")  # opening it would wait for a writer forever
    (tmp_path / "loop.py").symlink_to(tmp_path / "loop_back.py")
    (tmp_path / "loop_back.py").symlink_to(tmp_path / "loop.py")
    (tmp_path / "dangling.py").symlink_to(tmp_path / "nowhere.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")  # reading it would never end
    return tmp_path


@pytest.fixture
def live_window(window):
    window.runs.live_action.setChecked(True)  # Live reacts to typing, never to what a file brings
    return window


def test_files_the_editor_cannot_take_are_refused_in_one_sentence(qtbot, live_window, files):
    window = live_window
    with qtbot.waitSignal(window.runner.finished, timeout=60000):  # Live runs the typing
        window.editor.setPlainText("kept = 'my work'\n")
    title = window.windowTitle()
    started = []
    window.runner.started.connect(lambda: started.append(True))
    for name, words in [(name, words) for name, (_, words) in REFUSED.items()] + [
            ("big.py", "more than the editor's 2.0 MB"), ("folder.py", "is a folder"),
            ("fifo.py", "a device or a pipe"), ("zero.py", "a device or a pipe"),
            ("missing.py", "does not exist"), ("loop.py", "Too many levels of symbolic links"),
            ("dangling.py", "does not exist")]:
        window.document.open_file(str(files / name))
        # a file over 1 MB is read off the UI thread
        qtbot.waitUntil(lambda: not window.document.opening)
        message = window.statusBar().currentMessage()
        assert words in message and name in message and "\n" not in message, message
        assert window.editor.toPlainText() == "kept = 'my work'\n"
        assert window.windowTitle() == title and window.document.path is None
    qtbot.wait(900)  # longer than Live's wait: nothing may start
    assert not started
    window.runs.live_action.setChecked(False)
    window.editor.setPlainText("kept = 'my work'\nprint(kept)\n")
    assert ran(qtbot, window).output == "my work\n"  # and the next run works


def test_files_the_editor_can_take_open_and_never_run(qtbot, live_window, files):
    window = live_window
    started = []
    window.runner.started.connect(lambda: started.append(True))
    for name, (_, text) in OPENED.items():
        window.document.open_file(str(files / name))
        qtbot.waitUntil(lambda: not window.document.opening)  # over 1 MB: read off the UI thread
        assert window.editor.toPlainText() == text, name
        assert window.document.path == files / name
    window.document.open_file(str(files / "big.ipynb"))
    qtbot.waitUntil(lambda: not window.document.opening)
    assert window.editor.toPlainText() == "# %%\nprint('small code')\n"
    qtbot.wait(900)
    assert not started
    window.document.open_file(str(files / "declared.py"))
    assert ran(qtbot, window).output == "café\n"


def _cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "playground", "run", str(path), "--memory-limit",
                           MEMORY], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("name", [*REFUSED, "folder.py", "missing.py", "fifo.py", "zero.py",
                                  "loop.py", "dangling.py"])
def test_playground_run_refuses_the_same_files(files, name):
    done = _cli(files / name)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("playground: ") and done.stderr.count("\n") == 1, done.stderr


def test_playground_run_runs_a_10_mb_script_and_declared_encodings(files):
    done = _cli(files / "big.py")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("1250000 tensor([0.0000, 0.0020, 0.0040, 0.0060])")
    assert _cli(files / "declared.py").stdout == "café\n"


def _long_files(folder: Path) -> list[Path]:
    """Files longer than the editor's first part, which it loads over several turns."""
    script = folder / "long_script.py"
    script.write_text("".join(f"x{n} = {n}\n" for n in range(25_000)) + "print('ran')\n")
    notebook = folder / "long_notes.md"
    notebook.write_text("# Notes\n\n" + "padding line\n" * 25_000 +
                        "```python\nprint('ran')\n```\n")
    return [script, notebook]


def test_a_long_file_opens_with_live_on_and_never_runs(qtbot, live_window, tmp_path):
    """The loader's later parts and the colouring that follows them are not typing."""
    window = live_window
    started = []
    window.runner.started.connect(lambda: started.append(True))
    for path in _long_files(tmp_path):
        window.document.open_file(str(path))
        qtbot.waitUntil(lambda: not window.document.opening and not window.editor.loading,
                        timeout=60_000)
        qtbot.waitUntil(lambda: not window.editor.highlighter.colouring, timeout=60_000)
        qtbot.wait(900)  # longer than Live's wait
        assert not started, path.name
        assert "print('ran')" in window.editor.toPlainText()
    qtbot.keyClick(window.editor, Qt.Key.Key_Space)  # a real key is typing: Live runs
    qtbot.waitUntil(lambda: bool(started), timeout=10_000)
