"""Where a line of the text a run was given is in the editor's text now (typing goes on
during a run)."""

from __future__ import annotations


def moved_line(before: str, after: str, line: int) -> int | None:
    """The 1-based ``line`` of ``before`` as a line of ``after``: shifted by the lines added
    or removed above it, or None when the line itself was edited (a mark there would point
    at text that did not run). Typing makes one edited stretch; lines outside the stretch
    the texts share at their start and end are matched, the ones within are not."""
    old = before.split("\n")
    if not 1 <= line <= len(old):
        return None
    if before == after:
        return line
    new = after.split("\n")
    shared = min(len(old), len(new))
    start = 0
    while start < shared and old[start] == new[start]:
        start += 1
    if line <= start:
        return line
    end = 0  # lines shared at the end, not overlapping those at the start
    while end < shared - start and old[-1 - end] == new[-1 - end]:
        end += 1
    if line > len(old) - end:
        return line + len(new) - len(old)
    return None
