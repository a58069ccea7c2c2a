"""The corpus per family of public material: how many snippets the NumPy engine prints
byte for byte as plain python with real torch does, and how many within their header's
tolerance, on this machine, now (the table issue notes quote).

``python tests/corpus/families.py``

Each snippet runs twice in fresh processes from this folder with ``PYTHONHASHSEED=0``, as the
corpus test runs it: ``python NN_name.py`` and ``python -m playground run --engine numpy
NN_name.py``, two at a time. The corpus test itself (tests/test_corpus.py) is the judge of
pass and fail; this is the count.
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
sys.path.insert(0, str(CORPUS.parents[1]))  # (run as a script: the repository's root)

from tests.oracle import same_within  # noqa: E402
from tests.test_corpus import SNIPPETS, header_tolerance  # noqa: E402

ENVIRONMENT = {**os.environ, "PYTHONHASHSEED": "0"}


def _printed(arguments: list[str]) -> tuple[str, str, int]:
    done = subprocess.run(arguments, cwd=CORPUS, env=ENVIRONMENT, capture_output=True,
                          text=True, timeout=600)
    return done.stdout, done.stderr, done.returncode


def family(path: Path) -> str:
    """The family a snippet's header names (``# Family: karpathy``)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# Family:"):
            return line.split(":", 1)[1].strip()
    return "(none)"


def compared(path: Path) -> tuple[str, bool, bool]:
    """(family, identical, within the header's tolerance) for one snippet."""
    want = _printed([sys.executable, path.name])
    got = _printed([sys.executable, "-m", "playground", "run", "--engine", "numpy", path.name])
    tolerance = header_tolerance(path)
    within = want == got or (tolerance is not None and want[2] == got[2] and all(
        same_within(a, b, tolerance) for a, b in zip(want[:2], got[:2], strict=True)))
    return family(path), want == got, within


def main() -> None:
    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(SNIPPETS, pool.map(compared, SNIPPETS), strict=True))
    table = collections.defaultdict(lambda: [0, 0, 0])
    for name, identical, within in results.values():
        for column, counted in enumerate((True, identical, within)):
            table[name][column] += counted
    print("| family | snippets | identical | within its tolerance |\n|---|---|---|---|")
    for name, (count, identical, within) in sorted(table.items()):
        print(f"| {name} | {count} | {identical} | {within} |")
    count = len(results)
    identical = sum(r[1] for r in results.values())
    within = sum(r[2] for r in results.values())
    print(f"| all | {count} | {identical} ({100 * identical / count:.1f}%) | {within} |")
    for path, (_, same, inside) in results.items():
        if not same:
            print(f"{path.name}: {'within its tolerance' if inside else 'differs'}")


if __name__ == "__main__":
    main()
