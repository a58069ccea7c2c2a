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


def _read_fifo(path, into: list) -> None:
    with open(path, "rb") as pipe:
        into.append(pipe.read())


def test_a_named_pipe_is_written_into_never_replaced(tmp_path):
    import stat
    import threading

    fifo = tmp_path / "trace.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, received))
    reader.start()
    atomic_write(fifo, "streamed")
    reader.join(timeout=10)
    assert received == [b"streamed"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["trace.fifo"]


def test_a_device_is_written_into_never_replaced(tmp_path):
    """A copy of /dev/null made here (as root; elsewhere the real one, which is safe to
    write into): run as root, replacing it once replaced the system's /dev/null."""
    import stat

    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.stat("/dev/null").st_rdev)
    except (PermissionError, OSError):
        device = "/dev/null"
    with replacing(device, keep_suffix=True) as temporary:
        temporary.write_text("gone")
    atomic_write(device, b"gone too")
    assert stat.S_ISCHR(os.stat(device).st_mode)


def test_a_folder_is_refused_in_one_sentence(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a folder, not a file"):
        atomic_write(tmp_path, "x")
