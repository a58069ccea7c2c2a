"""Installs the Linux desktop entry and icon for this user (`playground --install-desktop`)."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from importlib.resources import files
from pathlib import Path

ENTRY_NAME = "autograd-playground"


def data_home() -> Path:
    """Where the freedesktop specifications put a user's applications and icons."""
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def launch_command() -> str:
    """The command the menu entry runs: this installation's ``playground``, by absolute path,
    because a desktop session's PATH rarely includes a virtual environment."""
    script = Path(sys.executable).with_name("playground")
    if script.exists():
        return shlex.quote(str(script))
    found = shutil.which("playground")
    if found:
        return shlex.quote(found)
    return f"{shlex.quote(sys.executable)} -m playground"


def entry_text(command: str) -> str:
    """The shipped entry with its Exec and TryExec lines pointing at ``command``."""
    lines = []
    template = (files("playground.resources") / f"{ENTRY_NAME}.desktop").read_text("utf-8")
    for line in template.splitlines():
        if line.startswith("Exec="):
            line = f"Exec={command} %f"
        elif line.startswith("TryExec="):
            line = f"TryExec={shlex.split(command)[0]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def install(home: Path | None = None) -> list[Path]:
    """Write the entry and the icon under ``home`` (the user's data folder); return their paths."""
    home = home or data_home()
    entry = home / "applications" / f"{ENTRY_NAME}.desktop"
    icon = home / "icons" / "hicolor" / "scalable" / "apps" / f"{ENTRY_NAME}.svg"
    entry.parent.mkdir(parents=True, exist_ok=True)
    icon.parent.mkdir(parents=True, exist_ok=True)
    entry.write_text(entry_text(launch_command()), encoding="utf-8")
    icon.write_bytes((files("playground.resources") / "icon.svg").read_bytes())
    return [entry, icon]
