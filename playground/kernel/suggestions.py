"""Python 3.11's "Did you mean: 'weight'?" for a misspelt attribute or name: its interpreter
prints it, but its traceback module (which the kernel formats errors with) does not, so the
kernel offers it the interpreter's way (the nearest name by its weighted edit distance)."""

from __future__ import annotations

import sys

_MOVE_COST = 2
_CASE_COST = 1
_MOST_CANDIDATES = 750
_LONGEST = 40


def needed() -> bool:
    """From 3.12 the traceback module offers suggestions itself."""
    return sys.version_info < (3, 12)


def suggestion(error: BaseException) -> str | None:
    """The name Python 3.11 would suggest for ``error``, or None."""
    name = getattr(error, "name", None)
    if not isinstance(name, str):
        return None
    if isinstance(error, AttributeError):
        try:
            return _nearest(dir(error.obj), name)
        except Exception:  # an object whose dir() fails gets no suggestion, as in Python
            return None
    if isinstance(error, NameError) and error.__traceback__ is not None:
        frame = _last_frame(error.__traceback__)
        for names in (frame.f_code.co_varnames, frame.f_globals, frame.f_builtins):
            found = _nearest(list(names), name)
            if found is not None:
                return found
    return None


def _last_frame(trace):
    while trace.tb_next is not None:
        trace = trace.tb_next
    return trace.tb_frame


def _nearest(candidates: list, name: str) -> str | None:
    """The candidate within a third of the characters' edits of ``name``, the nearest first
    met; none among too many candidates."""
    if len(candidates) >= _MOST_CANDIDATES:
        return None
    best, best_distance = None, sys.maxsize
    for candidate in candidates:
        if not isinstance(candidate, str) or candidate == name:
            continue
        allowed = min((len(name) + len(candidate) + 3) * _MOVE_COST // 6, best_distance - 1)
        distance = _distance(name, candidate, allowed)
        if distance <= allowed and (best is None or distance < best_distance):
            best, best_distance = candidate, distance
    return best


def _distance(a: str, b: str, allowed: int) -> int:
    """The edit distance (a move costs 2, a change of case 1), past ``allowed`` cut short;
    common ends set aside first, as the interpreter does (on its UTF-8 bytes)."""
    a, b = a.encode(), b.encode()
    while a and b and a[0] == b[0]:
        a, b = a[1:], b[1:]
    while a and b and a[-1] == b[-1]:
        a, b = a[:-1], b[:-1]
    if not a or not b:
        return (len(a) + len(b)) * _MOVE_COST
    if len(a) > _LONGEST or len(b) > _LONGEST:
        return allowed + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE_COST > allowed:
        return allowed + 1
    row = [(index + 1) * _MOVE_COST for index in range(len(a))]
    result = 0
    for b_index, code in enumerate(b):
        distance = result = b_index * _MOVE_COST
        lowest = sys.maxsize
        for index, other in enumerate(a):
            substitute = distance + _byte_substitution(code, other)
            distance = row[index]
            result = min(min(result, distance) + _MOVE_COST, substitute)
            row[index] = result
            lowest = min(lowest, result)
        if lowest > allowed:
            return allowed + 1
    return result


def _byte_substitution(a: int, b: int) -> int:
    """A byte for another: free, a change of ASCII case, or a move."""
    if a & 31 != b & 31:
        return _MOVE_COST
    if a == b:
        return 0
    lower_a = a + 32 if 65 <= a <= 90 else a
    lower_b = b + 32 if 65 <= b <= 90 else b
    return _CASE_COST if lower_a == lower_b else _MOVE_COST
