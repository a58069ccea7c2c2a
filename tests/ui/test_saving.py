"""Saving writes back the file the user opened: its encoding, line endings, byte-order mark,
link and notebook fields, and leaves the user's own files alone (issue 20)."""

from __future__ import annotations

import json
import os
import time

import nbformat
from PySide6.QtCore import Qt

from playground.ui.recovery import atomic_write


def _open_edit_save(qtbot, window, path, typed: str = "# edited\n"):
    window.document.open_file(str(path))
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    for character in typed:  # QTest types ASCII only: other letters come as a paste would
        if character.isascii():
            qtbot.keyClick(window.editor, character if character != "\n" else Qt.Key.Key_Return)
        else:
            window.editor.insertPlainText(character)
    qtbot.keyClick(window.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)


def test_a_file_declaring_latin_1_is_saved_in_latin_1(qtbot, window, tmp_path):
    path = tmp_path / "old.py"
    path.write_bytes("# -*- coding: latin-1 -*-\nname = 'café'\n".encode("latin-1"))
    _open_edit_save(qtbot, window, path, "# naïve\n")
    assert path.read_bytes() == ("# -*- coding: latin-1 -*-\nname = 'café'\n# naïve\n"
                                 .encode("latin-1"))
    assert not window.editor.document().isModified()


def test_a_character_the_declared_encoding_lacks_is_refused_and_nothing_is_lost(
        qtbot, window, tmp_path):
    path = tmp_path / "old.py"
    before = "# coding: latin-1\nx = 1\n".encode("latin-1")
    path.write_bytes(before)
    _open_edit_save(qtbot, window, path, "# Ж\n")
    assert path.read_bytes() == before
    message = window.statusBar().currentMessage()
    assert message.startswith("Not saved: old.py declares latin-1") and "line 3" in message
    assert window.editor.toPlainText().endswith("# Ж\n")
    assert window.editor.document().isModified()


def test_crlf_line_endings_and_a_byte_order_mark_are_kept(qtbot, window, tmp_path):
    path = tmp_path / "windows.py"
    path.write_bytes(b"\xef\xbb\xbfimport torch\r\nx = torch.ones(2)\r\n")
    _open_edit_save(qtbot, window, path)
    assert window.editor.toPlainText() == "import torch\nx = torch.ones(2)\n# edited\n"
    assert path.read_bytes() == b"\xef\xbb\xbfimport torch\r\nx = torch.ones(2)\r\n# edited\r\n"


def test_saving_through_a_link_writes_the_file_it_points_to(qtbot, window, tmp_path):
    real = tmp_path / "real.py"
    real.write_text("x = 1\n")
    link = tmp_path / "link.py"
    link.symlink_to(real)
    _open_edit_save(qtbot, window, link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "x = 1\n# edited\n"


def test_a_notebook_keeps_tags_attachments_and_the_images_of_cells_not_run(
        qtbot, window, tmp_path):
    image = {"output_type": "display_data", "metadata": {},
             "data": {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}}
    book = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}}, "cells": [
        {"cell_type": "markdown", "id": "intro", "source": "![w](attachment:w.png)",
         "metadata": {"tags": ["title"]},
         "attachments": {"w.png": {"image/png": "iVBORw0KGgo="}}},
        {"cell_type": "code", "id": "plot", "source": "show()", "execution_count": 4,
         "metadata": {"tags": ["keep"], "collapsed": True}, "outputs": [image]},
        {"cell_type": "code", "id": "last", "source": "x = 1", "execution_count": None,
         "metadata": {}, "outputs": []}]}
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(book))
    _open_edit_save(qtbot, window, path, "print(x)")
    cells = nbformat.reads(path.read_text(), as_version=4).cells  # joins nbformat's line lists
    assert cells[0]["metadata"] == {"tags": ["title"]}
    assert cells[0]["attachments"] == book["cells"][0]["attachments"]
    assert cells[1]["metadata"] == {"tags": ["keep"], "collapsed": True}
    assert cells[1]["outputs"] == [image] and cells[1]["execution_count"] == 4
    assert cells[2]["source"] == "x = 1\nprint(x)"


def test_two_cells_of_the_same_text_keep_their_own_outputs_and_ids(qtbot, window, tmp_path):
    """They swapped: what was kept beside a cell was keyed by its text alone."""
    def cell(identity, printed):
        return {"cell_type": "code", "id": identity, "source": "print(x)", "metadata": {},
                "execution_count": None,
                "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}]}

    book = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
            "cells": [cell("first", "1\n"), cell("second", "2\n")]}
    path = tmp_path / "twice.ipynb"
    path.write_text(json.dumps(book))
    _open_edit_save(qtbot, window, path, "\n# %%\ny = 1\n")
    cells = nbformat.reads(path.read_text(), as_version=4).cells
    assert [c["id"] for c in cells[:2]] == ["first", "second"]
    assert [c["outputs"][0]["text"] for c in cells[:2]] == ["1\n", "2\n"]


def test_stale_save_leftovers_go_but_the_users_own_tmp_files_stay(tmp_path):
    target = tmp_path / "lesson.py"
    target.write_text("old\n")
    leftover = tmp_path / ".lesson.py.playground-save-ab12cd_9.tmp"  # a killed save's
    mine = tmp_path / ".lesson.py.backup.tmp"  # the user's own
    for path in (leftover, mine):
        path.write_text("?")
        os.utime(path, (time.time() - 3600, time.time() - 3600))
    atomic_write(target, "new\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lesson.py.backup.tmp", "lesson.py"]
