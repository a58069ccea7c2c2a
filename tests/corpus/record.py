"""Re-records, as documentation, what real torch prints for the tutorial corpus on this machine
(the tests compare with python run live, never with these files: tests/python_oracle.py).

``python tests/corpus/record.py [NAMES]``

Each snippet ``NN_name.py`` here is run with plain ``python`` (real torch), from inside this
folder with the bare file name as the argument, with ``PYTHONHASHSEED=0`` and the environment
otherwise as it is; its stdout, stderr and exit status go to ``NN_name.expected.json``. With
names (``03_d2l_dot_product.py``, or just ``03``), only those are recorded; without, all.

One thing is normalised, because it must be: Python (3.9 and later) names the main script by
its absolute path in tracebacks and warnings, which names the recording machine's folder; that
folder is cut from stderr here, leaving the bare name (the tests compare absolute paths, live).
Nothing else is touched (the snippets avoid printing torch's own file paths or object
addresses).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent


def snippets() -> list[Path]:
    """The corpus's scripts, in order (this recorder is not one of them)."""
    return sorted(path for path in CORPUS.glob("[0-9][0-9]*_*.py"))


def expected_path(script: Path) -> Path:
    return script.with_name(script.stem + ".expected.json")


def environment() -> dict[str, str]:
    return {**os.environ, "PYTHONHASHSEED": "0"}


def record(script: Path) -> dict:
    done = subprocess.run([sys.executable, script.name], cwd=CORPUS, env=environment(),
                          capture_output=True, text=True, timeout=300)
    stderr = done.stderr.replace(str(CORPUS) + os.sep, "")
    return {"stdout": done.stdout, "stderr": stderr, "status": done.returncode}


def main(argv: list[str]) -> int:
    chosen = snippets()
    if argv:
        chosen = [path for path in chosen
                  if any(path.name == name or path.stem == name or path.name.startswith(name + "_")
                         for name in argv)]
        if not chosen:
            print(f"no snippet matches {' '.join(argv)}", file=sys.stderr)
            return 2
    for script in chosen:
        result = record(script)
        expected_path(script).write_text(
            json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{script.name}: status {result['status']}, {len(result['stdout'])} characters "
              f"of stdout, {len(result['stderr'])} of stderr")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
