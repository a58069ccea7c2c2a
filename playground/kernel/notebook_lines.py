"""Notebook habits in the kernel: IPython's %magic and !shell lines, and a cell's Out[n]."""

from __future__ import annotations

import io
import re
import tokenize

# A statement that is IPython's, not Python's: %matplotlib inline, %%time, !pip install torch,
# and the assignments files = !ls, t = %timeit -o f(x)
_SHELL_LINE = re.compile(r"^(?P<indent>\s*)(?P<text>(?:[\w.]+\s*=\s*)?[%!].*)$")


def without_shell_lines(code: str) -> tuple[str, list[tuple[int, str]]]:
    """The code with IPython-only lines turned into ``pass`` (line numbers kept), and those
    lines as (line number, text). Code that is valid Python is left as it is: a line that
    starts with ``%`` inside brackets is a modulo, not a magic; only lines that start a
    statement outside a string are looked at (a ``%`` line in a docstring stays)."""
    lines, skipped = code.split("\n"), []
    if not any(map(_SHELL_LINE.match, lines)):
        return code, []  # (most code: no compiling it twice to find out)
    try:
        compile(code, "<cell>", "exec")
        return code, []
    except (SyntaxError, ValueError):
        pass
    starts = _statement_starts(code)
    for number, line in enumerate(lines, start=1):
        found = _SHELL_LINE.match(line)
        if found and (starts is None or number in starts):
            skipped.append((number, found["text"].strip()))
            lines[number - 1] = found["indent"] + "pass"
    return ("\n".join(lines), skipped) if skipped else (code, [])


def _statement_starts(code: str) -> set[int] | None:
    """The numbers of the lines a statement starts on: not inside a string, not continuing a
    bracket; None when the code cannot be read into tokens (then every line is looked at)."""
    starts: set[int] = set()
    depth, at_start = 0, True
    try:
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            kind = token.type
            if kind in (tokenize.NEWLINE, tokenize.NL) and depth == 0:
                at_start = True
                continue
            if kind in (tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT,
                        tokenize.ENDMARKER):
                continue
            if at_start and depth == 0:
                starts.add(token.start[0])
                at_start = False
            if kind == tokenize.OP and token.string in "([{":
                depth += 1
            elif kind == tokenize.OP and token.string in ")]}":
                depth = max(depth - 1, 0)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return None
    return starts


def out_text(number: int, shown: str) -> str:
    """``Out[3]: tensor([2., 4.])`` as IPython prints it (a multi-line repr on its own lines)."""
    return f"Out[{number}]: {chr(10) if chr(10) in shown else ''}{shown}\n"
