"""Saving without losing work: atomic writes, and the recovery copy of the editor's text."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path

USER_ONLY = 0o600
WINDOWS_ALIVE_S = 120.0  # Windows: a copy written this recently belongs to a running window
STALE_S = 60.0
TEMPORARY_MARK = ".playground-save-"  # in the names of the temporary files saves write


def atomic_write(path: Path, content: str | bytes, mode: int | None = None) -> None:
    """Write a temporary file beside ``path``, then replace: the file is old or new, never half.

    ``content``: text (written as UTF-8, newlines as given) or the file's bytes. ``mode``: the
    new file's permissions; by default an existing file's are kept and a new file gets the
    usual ones (0666 less the umask). The temporary file is user-only throughout. A symbolic
    link stays a link: the file it points to is the one replaced.
    """
    path = Path(os.path.realpath(path))
    _remove_stale_temporaries(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}{TEMPORARY_MARK}",
                                             suffix=".tmp", dir=path.parent)
    data = content.encode("utf-8") if isinstance(content, str) else content
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, _permissions(path) if mode is None else mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _remove_stale_temporaries(path: Path) -> None:
    """Temporary files a killed save left beside ``path`` (older than a minute: another
    window may be saving the same file right now)."""
    now = time.time()
    # only names this function makes: a user's own ".name.backup.tmp" is left alone
    made = re.compile(re.escape(f".{path.name}{TEMPORARY_MARK}") + r"[a-z0-9_]{8}\.tmp")
    for leftover in path.parent.glob(f".{glob.escape(path.name)}{TEMPORARY_MARK}*.tmp"):
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


class RecoveryStore:
    """The editor's text as of a few seconds ago, readable by the user only.

    Each window writes a file of its own (``for_window``): two windows never replace or
    delete each other's copy. After a crash, a new window offers the newest copy left by a
    window whose process has ended, and deletes it once the user has answered.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.orphans_in: Path | None = None  # the folder where ended windows' copies lie
        self.claimed: Path | None = None      # the copy load() offered from an ended window

    @classmethod
    def for_window(cls, folder: Path, owner: int | None = None) -> RecoveryStore:
        """A file of this window's own in ``folder`` (named after its process)."""
        owner = os.getpid() if owner is None else owner
        store = cls(Path(folder) / f"recovery-{owner}-{secrets.token_hex(3)}.json")
        store.orphans_in = Path(folder)
        return store

    def save(self, text: str, document_path: Path | None) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        payload = json.dumps({"text": text, "path": str(document_path) if document_path else None,
                              "saved_at": time.time()})
        atomic_write(self.path, payload, mode=USER_ONLY)

    def load(self) -> dict | None:
        """This window's copy, else the newest copy of a window that ended without closing."""
        data = self._read(self.path)
        if data is not None or self.orphans_in is None:
            return data
        for orphan in self._orphans():
            data = self._read(orphan)
            if data is not None:
                self.claimed = orphan
                return data
        return None

    def release_claimed(self) -> None:
        """The user answered about the copy of an ended window: it is not offered again."""
        if self.claimed is not None:
            with contextlib.suppress(OSError):
                self.claimed.unlink()
            self.claimed = None

    def _orphans(self) -> list[Path]:
        """Copies of windows whose process has ended (and the one file of older versions),
        newest first."""
        found = []
        for candidate in self.orphans_in.glob("recovery*.json"):
            if candidate == self.path:
                continue
            owner = candidate.stem.split("-")[1] if candidate.stem.count("-") == 2 else ""
            if owner.isdigit() and _process_alive(int(owner), candidate):
                continue
            with contextlib.suppress(OSError):
                found.append((candidate.stat().st_mtime, candidate))
        return [path for _, path in sorted(found, reverse=True)]

    @staticmethod
    def _read(path: Path) -> dict | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or not isinstance(data.get("text"), str):
            return None
        if not isinstance(data.get("path"), str | None):
            data["path"] = None  # a broken path field: the text is still worth offering
        return data

    def clear(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()


def _process_alive(pid: int, copy: Path) -> bool:
    """Whether the window that wrote ``copy`` may still be running."""
    if pid == os.getpid():
        return True
    if sys.platform == "win32":  # os.kill would end the process there: judge by the copy's age
        with contextlib.suppress(OSError):
            return time.time() - copy.stat().st_mtime < WINDOWS_ALIVE_S
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # someone else's process (permission denied): alive
        return True
    return True
