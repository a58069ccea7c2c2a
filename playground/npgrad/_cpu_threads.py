"""torch's default thread counts, found as its CPU build (MKL's OpenMP) finds them: what
torch.get_num_threads() answers before a script sets it, and so how many runs of rows its
threaded kernels split a batch into."""

from __future__ import annotations

import os
from pathlib import Path

_TOPOLOGY = Path("/sys/devices/system/cpu")


def _allowed_cpus() -> list[int]:
    if hasattr(os, "sched_getaffinity"):
        return sorted(os.sched_getaffinity(0))
    return list(range(os.cpu_count() or 1))


def _physical_cores(cpus) -> int:
    """How many cores the logical CPUs ``cpus`` sit on (hyperthreads of one core count once);
    where the system does not say, each CPU counts."""
    cores = set()
    for cpu in cpus:
        place = _TOPOLOGY / f"cpu{cpu}" / "topology"
        try:
            cores.add(((place / "physical_package_id").read_text().strip(),
                       (place / "core_id").read_text().strip()))
        except OSError:
            cores.add(("cpu", str(cpu)))
    return max(1, len(cores))


def _machine_cpus() -> list[int]:
    return list(range(os.cpu_count() or 1))


def _asked(name: str) -> int | None:
    """A positive count from the environment variable ``name`` (its first, for a list)."""
    text = os.environ.get(name, "").split(",")[0].strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def intra_op_default() -> int:
    """MKL's: MKL_NUM_THREADS, else OMP_NUM_THREADS, held to the machine's physical cores
    unless MKL_DYNAMIC is false; else the physical cores this process may run on."""
    asked = _asked("MKL_NUM_THREADS") or _asked("OMP_NUM_THREADS")
    if asked is None:
        return _physical_cores(_allowed_cpus())
    if os.environ.get("MKL_DYNAMIC", "").strip().lower() in ("false", "0", "no", "n", "f"):
        return asked
    return min(asked, _physical_cores(_machine_cpus()))


def inter_op_default() -> int:
    """torch's thread pool: the machine's physical cores, whatever the affinity."""
    return _physical_cores(_machine_cpus())


def torch_threads() -> int:
    """torch.get_num_threads() as the script set it (imported late: _torch_calls imports
    the ops that import this module)."""
    from ._torch_calls import get_num_threads

    return get_num_threads()
