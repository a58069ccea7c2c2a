"""Starting a kernel process: light to import, so that the CLI starts its kernel first and
loads NumPy and the rest of the app while the kernel loads its engine (two cores, not one)."""

from __future__ import annotations

import os
import subprocess
import sys

from playground.engines.registry import DEFAULT_ENGINE
from playground.kernel import processes


def default_memory_limit() -> int:
    """Half the machine's RAM: a blow-up fails with MemoryError long before the machine stalls."""
    return machine_memory() // 2


def machine_memory() -> int:
    """The machine's RAM in bytes (0: unknown). The OS says it where it can; psutil is the
    fallback (Windows): its import was 12-15 ms of the start, before the kernel was launched."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf, or not these names
        pass
    try:
        import psutil

        return psutil.virtual_memory().total
    except Exception:  # noqa: BLE001 - no way to know: no limit
        return 0


def head_start() -> subprocess.Popen | None:
    """The default engine's kernel (NumPy), started before the window's imports so that the two load
    at once on two cores; the window adopts it, or ends it when it remembers another engine."""
    try:
        return launch(DEFAULT_ENGINE, "auto", default_memory_limit(), completions=True)
    except OSError:
        return None  # the window starts one itself, and says why if it cannot


def launch(engine: str, device: str, memory_limit: int, completions: bool,
           spare: bool = False, preload: list[str] | None = None) -> subprocess.Popen:
    """The kernel process, starting: requests go to its stdin, frames come from its stdout.
    A ``spare`` imports the ``preload`` libraries and warms itself up with a tiny run while
    it waits to be used."""
    environment = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
    options = ["complete" if completions else "no-complete"]
    if spare:
        names = [name for name in preload or [] if name.isidentifier()]
        options += ["spare", "preload=" + ",".join(names)]
    process = subprocess.Popen(
        [sys.executable, "-m", "playground.kernel.child", engine, device, str(memory_limit),
         *options],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        bufsize=0, env=environment, **processes.launch_options())
    processes.widen_pipe(process.stdout.fileno())  # (its replies: a large graph's is MBs)
    return process


def cuda_driver_found() -> bool:
    """Whether this machine has an NVIDIA driver, without importing torch (seconds): with
    none, CUDA cannot be chosen."""
    if sys.platform.startswith("linux"):
        return os.path.exists("/proc/driver/nvidia/version") or os.path.exists("/dev/nvidia0")
    if sys.platform == "win32":
        system = os.path.join(os.environ.get("SYSTEMROOT", r"C:\Windows"), "System32")
        return os.path.exists(os.path.join(system, "nvcuda.dll"))
    return False  # macOS: no CUDA since 10.14
