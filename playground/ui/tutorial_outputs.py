"""A run cell against what the tutorial printed under it: a ✓, ≈ or ≠ beside the cell in the
editor's gutter, and a line in the console that says why (with the differing lines side by
side for a ≠). Only for documents that show some printed output: a plain script has none."""

from __future__ import annotations

from dataclasses import dataclass

from playground.model import notebook
from playground.model.output_check import DIFFERENT, OutputCheck, check, expected_outputs

SIDE_WIDTH = 46  # characters of each side of a ≠'s lines in the console


@dataclass(frozen=True)
class _Pending:
    """The cell running now: where its mark goes and what it is checked against."""

    line: int
    expected: str
    next_expected: str
    code: str      # the cell's own
    earlier: str   # the code cells before it


class TutorialOutputs:
    """Checks each cell a run finishes; RunControl says when one starts and ends."""

    def __init__(self, editor, document, view_state) -> None:
        self.editor, self.document, self.view_state = editor, document, view_state
        self._pending: _Pending | None = None
        self._read: tuple[str, dict[int, str], list[tuple[int, int]]] | None = None

    def clear(self) -> None:
        """Run all cells starts again, or another document: no marks of earlier runs."""
        self.editor.clear_cell_marks()
        self._pending = None

    def cell_started(self, first: int, keys: dict[int, notebook.CellKey]) -> None:
        """The code cell at line ``first`` (0-based) starts; ``keys``: every cell's key."""
        text = self.editor.toPlainText()
        shown, code_cells = self._outputs_of(text, keys)
        if not shown:
            self._pending = None  # nothing printed in the tutorial: nothing to check
            return
        if not any(start == first for start, _end in code_cells):
            self._pending = None  # a markdown cell: nothing of it runs
            return
        lines = text.split("\n")
        after = [start for start, _end in code_cells if start > first]
        own = next("\n".join(lines[start:end + 1]) for start, end in code_cells
                   if start == first)
        earlier = "\n".join("\n".join(lines[start:end + 1]) for start, end in code_cells
                            if start < first)
        self._pending = _Pending(first, shown.get(first, ""),
                                 shown.get(after[0], "") if after else "", own, earlier)

    def _outputs_of(self, text: str, keys: dict[int, notebook.CellKey]
                    ) -> tuple[dict[int, str], list[tuple[int, int]]]:
        """What the tutorial shows under each code cell, and the code cells' lines: read
        once per text (Run all cells of a long notebook asks at every cell)."""
        if self._read is None or self._read[0] != text:
            spans = notebook.cell_spans(text)
            shown = expected_outputs(text, dump=self.document.file_format == "dump", spans=spans)
            stored = self.document.tutorial_outputs
            for line, key in keys.items():  # an .ipynb's outputs, where the text shows none
                if line not in shown and stored.get(key):
                    shown[line] = stored[key]
            code_cells = [(start, end) for start, end, kind in spans if kind == "code"]
            self._read = (text, shown, code_cells)
        return self._read[1], self._read[2]

    def cell_finished(self, printed: str, number: int | None) -> OutputCheck | None:
        """The cell's run ended (with or without an error): mark it, and say why."""
        pending, self._pending = self._pending, None
        if pending is None:
            return None
        found = check(pending.expected, printed, pending.code, pending.next_expected,
                      pending.earlier)
        self.editor.mark_cell(pending.line, found.mark, found.summary())
        where = f"cell {number}" if number else "this cell"
        self.view_state.remark(f"{where}: {found.summary()}")
        if found.mark == DIFFERENT and found.rows:
            self.view_state.remark(side_by_side(found.rows))
        return found


def side_by_side(rows: tuple[tuple[str, str], ...], width: int = SIDE_WIDTH) -> str:
    """The tutorial's lines beside the printed ones, each cut to ``width``."""
    def cut(text: str) -> str:
        return text if len(text) <= width else text[:width - 1] + "…"

    heading = f"  {'the tutorial':<{width}} │ now"
    return "\n".join([heading] + [f"  {cut(theirs):<{width}} │ {cut(ours)}"
                                  for theirs, ours in rows])
