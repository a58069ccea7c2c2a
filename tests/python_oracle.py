"""The tests' oracle for whole scripts: what ``python SCRIPT`` prints on this machine, live.

A script's stdout, stderr and exit status are what plain python gives when it runs the script
as ``python NAME`` from the script's folder, with real torch, here and now: a recorded output
is a fact about the machine that recorded it (torch's and NumPy's kernels differ by CPU), so no
test compares with one. ``import torch`` takes 1.5 s; to keep a corpus of hundreds of scripts
cheap, one server process imports it once and forks a child per script, which then becomes
the script's own process (``__main__``, ``sys.argv``, the working folder, descriptors 0-2,
exceptions, ``sys.exit``, threads and ``atexit`` as python handles them).
``tests/test_python_oracle.py`` holds the forked runs equal to plain ``python`` subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SERVER = Path(__file__).with_name("python_oracle_server.py")
TIMEOUT_S = 300


def torch_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("torch") is not None


def plain_python(script: Path, environment: dict[str, str] | None = None,
                 timeout: float = TIMEOUT_S) -> dict:
    """``python NAME`` in the script's folder: the slow oracle the forked one is held to."""
    done = subprocess.run([sys.executable, script.name], cwd=script.parent,
                          env={**os.environ, **(environment or {})}, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=timeout)
    return _decoded(done.stdout, done.stderr, done.returncode, script)


def _decoded(stdout: bytes, stderr: bytes, status: int, script: Path) -> dict:
    """As ``subprocess.run(text=True)`` reads them (python names the main script by its
    absolute path in tracebacks and warnings, and so does ``playground run``)."""
    return {"stdout": stdout.decode("utf-8", "replace"),
            "stderr": stderr.decode("utf-8", "replace"), "status": status}


class PythonOracle:
    """A server that runs scripts as plain python would, each in a process of its own.

    ``environment`` is fixed for its life (PYTHONHASHSEED, PYTHONWARNINGS... are read when an
    interpreter starts): one oracle per environment."""

    def __init__(self, environment: dict[str, str] | None = None) -> None:
        self.environment = {**os.environ, **(environment or {})}
        self._server: subprocess.Popen | None = None
        self._cache: dict[Path, dict] = {}

    def run(self, script: Path) -> dict:
        """{"stdout", "stderr", "status"} of ``python NAME`` in the script's folder."""
        script = script.resolve()
        if script not in self._cache:
            self._cache[script] = self._ask(script)
        return self._cache[script]

    def _ask(self, script: Path) -> dict:
        server = self._started()
        server.stdin.write(json.dumps({"script": str(script), "timeout": TIMEOUT_S}) + "\n")
        server.stdin.flush()
        answer = server.stdout.readline()
        if not answer:
            self.close()
            raise RuntimeError(f"the python oracle ended while running {script.name}")
        reply = json.loads(answer)
        return _decoded(_taken(reply["stdout"]), _taken(reply["stderr"]), reply["status"],
                        script)

    def _started(self) -> subprocess.Popen:
        if self._server is None or self._server.poll() is not None:
            self._server = subprocess.Popen(
                [sys.executable, str(SERVER)], env=self.environment, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None)
        return self._server

    def close(self) -> None:
        if self._server is not None:
            self._server.stdin.close()
            self._server.wait(timeout=30)
            self._server = None


def _taken(name: str) -> bytes:
    """The bytes of a file the server wrote for one reply, which is then deleted."""
    path = Path(name)
    try:
        return path.read_bytes()
    finally:
        path.unlink(missing_ok=True)
