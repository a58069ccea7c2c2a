"""Saving without losing work: atomic writes, and the recovery copy of the editor's text."""

from __future__ import annotations

import contextlib
import glob
import json
import os
import tempfile
import time
from pathlib import Path

USER_ONLY = 0o600
STALE_S = 60.0


def atomic_write(path: Path, text: str, mode: int | None = None) -> None:
    """Write a temporary file beside ``path``, then replace: the file is old or new, never half.

    ``mode``: the new file's permissions; by default an existing file's are kept and a new file
    gets the usual ones (0666 less the umask). The temporary file is user-only throughout.
    """
    path = Path(path)
    _remove_stale_temporaries(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                             dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
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
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        with contextlib.suppress(OSError):
            if now - leftover.stat().st_mtime > STALE_S:
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
    """The editor's text as of a few seconds ago, readable by the user only."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def save(self, text: str, document_path: Path | None) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        payload = json.dumps({"text": text, "path": str(document_path) if document_path else None,
                              "saved_at": time.time()})
        atomic_write(self.path, payload, mode=USER_ONLY)

    def load(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
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
