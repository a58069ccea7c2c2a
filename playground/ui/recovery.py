"""The recovery copy of the editor's text: autosaved beside the app's data, offered again."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from pathlib import Path

from playground.files import atomic_write

USER_ONLY = 0o600
WINDOWS_ALIVE_S = 120.0  # Windows: a copy written this recently belongs to a running window


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
        store = cls(Path(folder) / f"recovery-{owner}-{os.urandom(3).hex()}.json")
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
