"""Notebook habits in the kernel: IPython's %magic and !shell lines, and a cell's Out[n]."""

from __future__ import annotations

import re

# At the start of a statement line: %matplotlib inline, %%time, !pip install torch
_SHELL_LINE = re.compile(r"^(?P<indent>\s*)(?P<text>[%!].*)$")


def without_shell_lines(code: str) -> tuple[str, list[tuple[int, str]]]:
    """The code with IPython-only lines turned into ``pass`` (line numbers kept), and those
    lines as (line number, text). Code that is valid Python is left as it is: a line that
    starts with ``%`` inside brackets is a modulo, not a magic."""
    try:
        compile(code, "<cell>", "exec")
        return code, []
    except SyntaxError:
        pass
    lines, skipped = code.split("\n"), []
    for number, line in enumerate(lines, start=1):
        found = _SHELL_LINE.match(line)
        if found:
            skipped.append((number, found["text"].strip()))
            lines[number - 1] = found["indent"] + "pass"
    return ("\n".join(lines), skipped) if skipped else (code, [])


def out_text(number: int, shown: str) -> str:
    """``Out[3]: tensor([2., 4.])`` as IPython prints it (a multi-line repr on its own lines)."""
    return f"Out[{number}]: {chr(10) if chr(10) in shown else ''}{shown}\n"
