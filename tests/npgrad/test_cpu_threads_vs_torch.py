"""torch.get_num_threads() and get_num_interop_threads() before a script sets them, on
npgrad against real torch run here in fresh interpreters under the environment variables
people set (OMP_NUM_THREADS, MKL_NUM_THREADS, MKL_DYNAMIC) and a narrowed CPU affinity:
torch's threaded kernels split batches by that count, so npgrad's bits follow it."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")

ASK = """
import os, sys
if {narrow} and hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {{min(os.sched_getaffinity(0))}})
{module}
print(torch.get_num_threads(), torch.get_num_interop_threads())
"""

SETTINGS = [{}, {"OMP_NUM_THREADS": "1"}, {"OMP_NUM_THREADS": "64"},
            {"MKL_NUM_THREADS": "1", "OMP_NUM_THREADS": "2"},
            {"MKL_NUM_THREADS": "abc", "OMP_NUM_THREADS": "1"}, {"OMP_NUM_THREADS": "0"},
            {"OMP_NUM_THREADS": "1,2"}, {"MKL_DYNAMIC": "false", "OMP_NUM_THREADS": "5"}]


def _counts(module: str, settings: dict, narrow: bool) -> str:
    quiet = {key: value for key, value in os.environ.items()
             if key not in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "MKL_DYNAMIC")}
    script = ASK.format(narrow=narrow, module=module)
    return subprocess.run([sys.executable, "-c", script], env={**quiet, **settings},
                          capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("narrow", [False, True])
@pytest.mark.parametrize("settings", SETTINGS, ids=lambda settings: " ".join(
    f"{key}={value}" for key, value in settings.items()) or "none")
def test_default_thread_counts_as_torch(settings: dict, narrow: bool) -> None:
    theirs = _counts("import torch", settings, narrow)
    mine = _counts("import playground.npgrad as torch", settings, narrow)
    assert mine == theirs
