"""The tutorials the tests run: the project's own corpus in tests/tutorials (written for these
tests, in the formats tutorials come in), and the shared seed tutorials when a checkout has
them beside it. Nothing depends on the latter: a fresh clone runs the same tests on its own."""

from __future__ import annotations

import re
from pathlib import Path

TUTORIALS = Path(__file__).resolve().parent / "tutorials"
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"  # optional, never required
_FENCE = re.compile(r"```python\n(.*?)```", re.DOTALL)
_PROMPT = re.compile(r"^In \[\d*\]:\n(.*?)(?:\n\n|\Z)", re.DOTALL | re.MULTILINE)


def tutorial_files() -> list[Path]:
    """Our corpus, then the seeds if present (never empty: the corpus is in the repo)."""
    seeds = sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []
    return sorted(TUTORIALS.glob("*.txt")) + seeds


def tutorial_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def code_cells(path: Path) -> list[str]:
    """Fenced ```python blocks, or the cells of an ``In [n]:`` notebook dump."""
    text = path.read_text(encoding="utf-8")
    cells = _FENCE.findall(text)
    if not cells:
        cells = _PROMPT.findall(text)
    return [cell for cell in cells if cell.strip()]


def uses_matplotlib(cell: str) -> bool:
    return "matplotlib" in cell or "plt." in cell


def fixed_randn(module):
    """``randn`` for an engine module drawing from one fixed NumPy stream, so that torch and
    npgrad see the same random numbers (and a tutorial's ``while`` loop runs as often on both)."""
    import numpy as np

    stream = np.random.default_rng(99)

    def randn(*size, **kwargs):
        size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], tuple | list) else size
        return module.tensor(stream.standard_normal(size).astype(np.float32), **kwargs)

    return randn
