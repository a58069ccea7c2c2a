"""The app's remembered settings: a JSON file only the user can read (QSettings would unpickle).

PySide6's QSettings turns any Python object it is given into a pickle in the settings file, and
unpickles what it finds there when read; this store keeps plain JSON values (and byte strings,
such as Qt's saved window geometry, as base64) so reading the file can never run code.
"""

from __future__ import annotations

import base64
import contextlib
import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QStandardPaths

from playground.files import atomic_write
from playground.ui.recovery import USER_ONLY


class Settings:
    """``value``/``setValue``/``sync`` like QSettings, for JSON values and bytes."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._values: dict = {}
        with contextlib.suppress(OSError, ValueError):
            loaded = json.loads(self.path.read_text(encoding="utf-8"))
            if isinstance(loaded, dict):
                self._values = loaded

    def value(self, key: str, default=None):
        """The stored value, or ``default`` when there is none or it is of another kind
        than the default (a hand-edited ``"recent_files": 5`` must not stop the app)."""
        value = self._values.get(key, default)
        if isinstance(value, dict) and set(value) == {"base64"}:
            try:
                return QByteArray(base64.b64decode(value["base64"]))
            except (TypeError, ValueError):
                return default
        return value if _same_kind(value, default) else default

    def setValue(self, key: str, value) -> None:  # noqa: N802 - QSettings' name
        if isinstance(value, QByteArray | bytes | bytearray):
            value = {"base64": base64.b64encode(bytes(value)).decode("ascii")}
        json.dumps(value)  # refuses what JSON cannot hold, now rather than at sync
        self._values[key] = value

    def sync(self) -> None:
        """Write the file (user-only, in a user-only folder); a failure is not fatal."""
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps(self._values, indent=1), mode=USER_ONLY)

    def fileName(self) -> str:  # noqa: N802 - QSettings' name
        return str(self.path)


def _same_kind(value, default) -> bool:
    if default is None or value is None:
        return True
    if isinstance(default, bool):  # older files said "true"/"false"
        return isinstance(value, bool | str)
    if isinstance(default, int | float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(default, list | tuple):
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    return isinstance(value, type(default))


def default_settings_path() -> Path:
    folder = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppConfigLocation)
    return Path(folder or Path.home() / ".autograd-playground") / "settings.json"
