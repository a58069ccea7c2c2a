"""Why Qt could not open a window here, said before Qt tries (and aborts the process)."""

from __future__ import annotations

import ctypes
import os
import re
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

# The libraries Qt's X11 plugin needs that minimal Linux installs lack, and their Debian and
# Ubuntu packages.
PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1", "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb-shape.so.0": "libxcb-shape0", "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-image.so.0": "libxcb-image0",
    "libxcb-xkb.so.1": "libxcb-xkb1", "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1", "libdbus-1.so.3": "libdbus-1-3",
}
OTHER_WAYS = ("Without a screen, `QT_QPA_PLATFORM=offscreen playground --screenshot out.png "
              "SCRIPT` draws the window to a file, and `playground run SCRIPT` runs a script "
              "and writes its graph, plots and animation (see `playground run --help`).")
_MISSING = re.compile(r"(\S+\.so(?:\.\d+)*): cannot open shared object file")


def display_problem(environ: Mapping[str, str] = os.environ, platform: str = sys.platform,
                    load: Callable[[str], object] = ctypes.CDLL) -> str | None:
    """A paragraph naming why the window cannot open and what to do, or None when Qt can
    open it (or it is not ours to tell: Windows and macOS always have a screen)."""
    if not platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "").split(":")[0]
    if chosen and chosen != "xcb":
        return None  # offscreen, wayland, vnc, ...: the user chose; Qt says the rest
    if not environ.get("DISPLAY") and not (environ.get("WAYLAND_DISPLAY") and not chosen):
        return ("Autograd Playground cannot open its window: there is no display (DISPLAY "
                "and WAYLAND_DISPLAY are not set, as over SSH or in a container). Start it "
                "from a desktop session, or use `ssh -X` to show it on your own screen. "
                + OTHER_WAYS)
    if environ.get("WAYLAND_DISPLAY") and not chosen:
        return None  # Qt picks its Wayland plugin first there
    return _missing_x11_library(load)


def _missing_x11_library(load: Callable[[str], object]) -> str | None:
    plugin = _xcb_plugin()
    if plugin is None:
        return None
    try:
        load(str(plugin))  # the dynamic loader names the first library it cannot find
    except OSError as error:
        found = _MISSING.search(str(error))
        library = found.group(1) if found else str(error)
        package = PACKAGES.get(library)
        fix = (f"install it with `sudo apt install {package}` (Debian, Ubuntu), or your "
               "distribution's package of that name" if package else
               "install the package that provides it")
        return (f"Autograd Playground cannot open its window: Qt's X11 support needs "
                f"{library}, which is not installed; {fix}. Qt 6 usually wants all of: "
                f"`sudo apt install {' '.join(sorted(set(PACKAGES.values())))}`. "
                + OTHER_WAYS)
    return None


def _xcb_plugin() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    plugin = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.exists() else None
