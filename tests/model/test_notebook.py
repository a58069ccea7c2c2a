"""Notebook formats: every seed reads as its cells; .ipynb, markdown and percent round trips."""

import json

import pytest

from playground.model import notebook
from playground.model.notebook import Cell, Notebook, NotebookError
from tests.seeds import code_cells, tutorial_files, tutorial_id

SAMPLE = Notebook([
    Cell("markdown", "# Gradients\nEach `backward()` *adds* into `.grad`."),
    Cell("code", "import torch\nx = torch.ones(2, requires_grad=True)", "x made\n"),
    Cell("code", "for _ in range(2):\n    (x * 3).sum().backward()\n    "),
    Cell("markdown", "Now `x.grad` is 6:\n\n- once 3\n- twice 6"),
    Cell("code", "print(x.grad)\n", "tensor([6., 6.])\n"),
])


def cells(book: Notebook) -> list[tuple[str, str]]:
    return [(cell.kind, cell.source) for cell in book.cells]


@pytest.mark.parametrize("name", ["lesson.ipynb", "lesson.md", "lesson.py"])
def test_round_trips_keep_cells_order_and_sources(name):
    text = notebook.write(SAMPLE, name)
    again = notebook.read(name, text)
    assert cells(again) == cells(SAMPLE)
    assert notebook.write(again, name) == text


def test_ipynb_keeps_what_each_cell_printed():
    document = json.loads(notebook.to_ipynb(SAMPLE))
    assert document["nbformat"] == 4
    outputs = [c.get("outputs") for c in document["cells"] if c["cell_type"] == "code"]
    (stream,) = outputs[2]
    assert (stream["output_type"], stream["name"], "".join(stream["text"])) == \
        ("stream", "stdout", "tensor([6., 6.])\n")
    assert notebook.from_ipynb(notebook.to_ipynb(SAMPLE)).cells[4].output == \
        "tensor([6., 6.])\n"


def test_percent_text_is_what_the_editor_shows():
    text = notebook.to_percent(SAMPLE)
    assert text.startswith("# %% [markdown]\n# # Gradients\n# Each `backward()`")
    assert "# %%\nimport torch\n" in text


def test_markdown_keeps_front_matter_and_other_fences():
    text = "---\ntitle: t\n---\nIntro\n```bash\npip install torch\n```\n```python\nx = 1\n```\n"
    book = notebook.read("t.md", text)
    assert book.front_matter == "---\ntitle: t\n---\n"
    assert cells(book) == [("markdown", "Intro\n```bash\npip install torch\n```"),
                           ("code", "x = 1")]
    assert notebook.to_markdown(book) == text.replace("```\n```python", "```\n\n```python")


@pytest.mark.parametrize("path", tutorial_files(), ids=tutorial_id)
def test_every_seed_reads_as_its_code_cells(path):
    text = path.read_text(encoding="utf-8")
    book = notebook.read(path.name, text)
    assert [c for c in book.code() if c.strip()] == [c.rstrip("\n") for c in code_cells(path)]
    assert any(cell.kind == "markdown" for cell in book.cells)
    for name in ("copy.ipynb", "copy.py", "copy.md"):
        assert cells(notebook.read(name, notebook.write(book, name))) == cells(book), name


def test_formats_are_told_apart():
    assert notebook.format_of("a.ipynb", "{}") == "ipynb"
    assert notebook.format_of("a.txt", "In [1]:\nimport torch\n") == "dump"
    assert notebook.format_of("a.txt", "text\n```python\nx\n```\n") == "markdown"
    assert notebook.format_of("a.py", "```python\n") == "percent"
    assert notebook.format_of("a.txt", "x = 1\n") == "percent"


@pytest.mark.parametrize("text, words", [("{not json", "not valid JSON"),
                                         ('{"cells": 3}', "not a notebook")])
def test_broken_notebooks_get_one_sentence(text, words):
    with pytest.raises(NotebookError, match=words):
        notebook.read("broken.ipynb", text)


def test_ipython_terminal_dumps_keep_code_prose_and_out_blocks():
    text = ("Some prose first.\n\nIn [1]: import torch\n\nIn [2]: def double(t):\n"
            "   ...:     u = t * 2\n   ...: \n   ...:     return u.sum()\n   ...:\n\n"
            "In [3]: double(torch.ones(2))\nOut[3]: tensor(4.)\n\nProse between cells.\n")
    book = notebook.read("session.txt", text)
    assert [(c.kind, c.source) for c in book.cells] == [
        ("markdown", "Some prose first."), ("code", "import torch"),
        ("code", "def double(t):\n    u = t * 2\n\n    return u.sum()"),
        ("code", "double(torch.ones(2))"), ("markdown", "Prose between cells.")]
    assert book.cells[3].output == "Out[3]: tensor(4.)\n"
    again = notebook.read("session.txt", notebook.write(book, "session.txt", "dump"))
    assert [(c.kind, c.source, c.output) for c in again.cells] == \
        [(c.kind, c.source, c.output) for c in book.cells]  # saving twice adds nothing


_CELL = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None}


@pytest.mark.parametrize("cells", [
    [dict(_CELL, source=5)], 5, [5], [dict(_CELL, source="x", outputs=[{"output_type":
                                                                       "stream", "text": 5}])],
    [dict(_CELL, source="x", outputs=[{"output_type": "execute_result", "data": {
        "text/plain": 7}}])], [{"cell_type": "weird", "source": "x", "metadata": {}}],
    [dict(_CELL, source="x", metadata=[1], outputs="not a list")]])
def test_malformed_notebook_fields_read_or_are_refused_in_one_sentence(cells):
    from playground.model.notebook import NotebookError, from_ipynb, to_ipynb

    text = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": cells})
    try:
        book = from_ipynb(text)
    except NotebookError as error:
        assert "\n" not in str(error)
        return
    assert [cell.source for cell in book.cells] == ["x"]
    assert from_ipynb(to_ipynb(book)).cells[0].source == "x"  # and it saves as a notebook


def test_a_version_4_notebook_is_read_with_json_alone_and_older_ones_with_nbformat(
        monkeypatch):
    import nbformat

    version_4 = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"signature": "x"},
                            "cells": [{"cell_type": "code", "metadata": {"trusted": True},
                                       "execution_count": 1, "source": ["a = 1\n", "a"],
                                       "outputs": [{"output_type": "stream", "name": "stdout",
                                                    "text": ["1\n", "2\n"]}]}]})
    version_3 = json.dumps({"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [
        {"cells": [{"cell_type": "code", "input": "b = 2", "language": "python",
                    "outputs": [], "metadata": {}}]}]})
    calls = []
    reads = nbformat.reads
    monkeypatch.setattr(nbformat, "reads", lambda *a, **k: calls.append(a) or reads(*a, **k))
    book = notebook.read("new.ipynb", version_4)
    # checking the schema took most of 6 s over 100,000 cells; version 4 needs none of it
    assert calls == []
    assert book.cells[0].source == "a = 1\na" and book.cells[0].output == "1\n2\n"
    assert book.metadata == {} and "metadata" not in book.cells[0].extra  # as Jupyter drops
    assert notebook.read("old.ipynb", version_3).cells[0].source == "b = 2"
    assert len(calls) == 1


def test_a_dump_with_many_blank_lines_reads_in_one_pass():
    """Each blank line looked ahead through all the blank lines after it: 600 kB of them took
    11 s (quadratic); 200,000 here would take minutes that way."""
    from playground.model.notebook import from_dump

    text = "In [1]:\nx = 1\n" + "\n" * 200_000 + "In [*]:\nprint(x)\n"
    cells = [cell for cell in from_dump(text).cells if cell.kind == "code"]
    assert [cell.source for cell in cells] == ["x = 1", "print(x)"]
