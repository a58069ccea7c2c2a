"""Saving without losing work: atomic writes, and the recovery copy of the editor's text."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path


def atomic_write(path: Path, text: str) -> None:
    """Write a temporary file beside ``path``, then replace: the file is old or new, never half."""
    path = Path(path)
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp",
                                             dir=path.parent)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o777)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


class RecoveryStore:
    """The editor's text as of a few seconds ago, readable by the user only."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    def save(self, text: str, document_path: Path | None) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"text": text, "path": str(document_path) if document_path else None,
                              "saved_at": time.time()})
        atomic_write(self.path, payload)
        os.chmod(self.path, 0o600)

    def load(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and isinstance(data.get("text"), str) else None

    def clear(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()
