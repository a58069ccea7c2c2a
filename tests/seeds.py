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
