"""The tutorials in ../shared/seeds, read as a list of code cells (never copied into the repo)."""

from __future__ import annotations

import re
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
_FENCE = re.compile(r"```python\n(.*?)```", re.DOTALL)
_PROMPT = re.compile(r"^In \[\d*\]:\n(.*?)(?:\n\n|\Z)", re.DOTALL | re.MULTILINE)


def seed_files() -> list[Path]:
    return sorted(SEEDS.glob("*.txt")) if SEEDS.is_dir() else []


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
    npgrad see the same random numbers (and a seed's ``while`` loop runs as often on both)."""
    import numpy as np

    stream = np.random.default_rng(99)

    def randn(*size, **kwargs):
        size = tuple(size[0]) if len(size) == 1 and isinstance(size[0], tuple | list) else size
        return module.tensor(stream.standard_normal(size).astype(np.float32), **kwargs)

    return randn
