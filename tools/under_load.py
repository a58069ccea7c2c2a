"""Run a command with a CPU hog on every core beside it, as a busy laptop would: a test that
fails only under load has a timing assumption to fix.

    python tools/under_load.py python -m pytest

The hogs (``python -c "while True: pass"``, one per core) start before the command and are
ended when it ends, however it ends; the command's exit status is returned.
"""

from __future__ import annotations

import os
import subprocess
import sys


def main(command: list[str]) -> int:
    if not command:
        print(__doc__, file=sys.stderr)
        return 2
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(os.cpu_count() or 1)]
    try:
        return subprocess.call(command)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
