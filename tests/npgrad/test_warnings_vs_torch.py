"""Warnings torch gives once in a process (TORCH_WARN_ONCE), given once by npgrad too: each
side runs in a fresh interpreter here, and their warnings are compared line by line."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import warnings
warnings.simplefilter("default")
x = torch.ones((), requires_grad=True) * 2
int(x)
with torch.no_grad():
    float(x)  # no warning: grad mode is off
complex(x)
float(x)
float(x * 3)
print(x.item(), float(x.detach()))
"""


def _warnings_of(module: str) -> list[str]:
    code = f"import {module} as torch\n" + SCRIPT
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    # (each warning's first line names where it was raised: <string>:9)
    return [line.split(": ", 1)[1] if "Warning:" in line else line
            for line in done.stderr.splitlines()] + done.stdout.splitlines()


def test_converting_a_tensor_that_needs_grad_warns_once_as_torch_does():
    expected = _warnings_of("torch")
    assert _warnings_of("playground.npgrad") == expected
    assert sum("Converting a tensor" in line for line in expected) == 1
