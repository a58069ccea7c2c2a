"""One way to write a file whole, for the window, the exports and the CLI (playground.files)."""

from __future__ import annotations

import os
import time

import pytest

from playground.files import atomic_write, replacing


def test_a_writer_that_fails_leaves_the_old_file_and_nothing_beside_it(tmp_path):
    target = tmp_path / "graph.svg"
    target.write_text("old")
    with pytest.raises(RuntimeError), replacing(target, keep_suffix=True) as temporary:
        assert temporary.parent == tmp_path and temporary.suffix == ".svg"  # Qt reads it
        temporary.write_text("half")
        raise RuntimeError("the disk filled")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["graph.svg"]


def test_a_written_file_replaces_the_target_through_a_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


def test_only_temporaries_this_module_made_are_cleaned_up(tmp_path):
    target = tmp_path / "plot.png"
    ours = [tmp_path / ".plot.png.playground-save-abcd1234.tmp",
            tmp_path / ".plot.png.playground-save-wxyz9876.png"]
    users = tmp_path / ".plot.png.playground-save-mine.png.bak"
    for path in [*ours, users]:
        path.write_text("left")
        old = time.time() - 3600
        os.utime(path, (old, old))
    atomic_write(target, b"png")
    assert not any(path.exists() for path in ours) and users.exists()
