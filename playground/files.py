"""Every file the app writes is written whole or not at all (no Qt: the CLI, the kernel's
exports and the window share it).

A temporary file is written beside the target and then replaces it, so a crash, a full disk
or a killed process leaves the old file or the new one, never half of one. Temporary files
are named ``.NAME.playground-save-XXXXXXXX.SUFFIX``; a pattern only this module makes, so the
clean-up of ones a killed write left behind never touches a user's own files. A target that is
a device or a named pipe (``/dev/null``, ``/dev/stdout``, a FIFO) is written into as a stream,
as a shell redirection would: replacing it would put a regular file in its place (run as root,
in place of the system's ``/dev/null``). A directory or a socket is refused.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

STALE_S = 60.0
TEMPORARY_MARK = ".playground-save-"  # in the names of the temporary files saves write


@contextlib.contextmanager
def replacing(path: Path | str, mode: int | None = None, keep_suffix: bool = False
              ) -> Iterator[Path]:
    """A temporary file beside ``path`` for the block to write; it replaces ``path`` when the
    block ends without an error, and never stays behind. ``keep_suffix``: its name ends as
    ``path``'s does (Qt's and Pillow's writers read the format from it). ``mode``: the new
    file's permissions; by default an existing file's are kept and a new file gets the usual
    ones (0666 less the umask); the temporary file is user-only until it replaces ``path``.
    A symbolic link stays a link: the file it points to is the one replaced."""
    path = Path(os.path.realpath(path))
    if _is_stream(path):
        with _streaming(path, keep_suffix) as temporary:
            yield temporary
        return
    _remove_stale_temporaries(path)
    suffix = path.suffix if keep_suffix and path.suffix else ".tmp"
    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}{TEMPORARY_MARK}", suffix=suffix,
                                        dir=path.parent)
    os.close(descriptor)
    temporary = Path(name)
    try:
        yield temporary
        os.chmod(temporary, _permissions(path) if mode is None else mode)
        os.replace(temporary, path)
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def _is_stream(path: Path) -> bool:
    """Whether ``path`` is a device or a FIFO (written as a stream); a directory, a socket
    or anything else that is not a regular file is refused with a clear error."""
    try:
        kind = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISREG(kind):
        return False
    if stat.S_ISCHR(kind) or stat.S_ISFIFO(kind) or stat.S_ISBLK(kind):
        return True
    if stat.S_ISDIR(kind):
        raise IsADirectoryError(f"{path} is a folder, not a file")
    raise OSError(f"{path} is not a file that can be written")


@contextlib.contextmanager
def _streaming(path: Path, keep_suffix: bool) -> Iterator[Path]:
    """A temporary file elsewhere for the block to write; its bytes then go into the device
    or pipe ``path`` as a stream (which is never replaced)."""
    suffix = path.suffix if keep_suffix and path.suffix else ".tmp"
    descriptor, name = tempfile.mkstemp(prefix=f"{path.name}{TEMPORARY_MARK}", suffix=suffix)
    os.close(descriptor)
    temporary = Path(name)
    try:
        yield temporary
        with open(temporary, "rb") as source, open(path, "wb") as target:
            shutil.copyfileobj(source, target)
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def atomic_write(path: Path | str, content: str | bytes, mode: int | None = None) -> None:
    """Write ``content`` (text as UTF-8, newlines as given; or bytes) to ``path`` whole."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    with replacing(path, mode) as temporary, open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _remove_stale_temporaries(path: Path) -> None:
    """Temporary files a killed write left beside ``path`` (older than a minute: another
    window may be saving the same file right now)."""
    now = time.time()
    # only names this module makes: a user's own ".name.backup.tmp" is left alone
    made = re.compile(re.escape(f".{path.name}{TEMPORARY_MARK}") + r"[a-z0-9_]{8}\.\w+")
    for leftover in path.parent.glob(f".{glob.escape(path.name)}{TEMPORARY_MARK}*"):
        with contextlib.suppress(OSError):
            if made.fullmatch(leftover.name) and now - leftover.stat().st_mtime > STALE_S:
                leftover.unlink()


def _permissions(path: Path) -> int:
    try:
        return path.stat().st_mode & 0o777
    except FileNotFoundError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it (os.umask would, for every thread)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    return 0o022
