"""``json.loads`` for large documents read off the UI thread, decoded a piece at a time.

json's C decoder holds the GIL for a whole document: 0.5 s for a 100,000-cell notebook, in
which the window's thread could not paint. Here the outer containers (down to ``depth``) are
walked in Python and each element is handed to the C decoder on its own, so another thread
gets the GIL between elements. The result, and every error's message and position, are
json.loads's.
"""

from __future__ import annotations

import json
import re

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def loads_in_pieces(text: str, depth: int = 2):
    """What ``json.loads(text)`` gives; containers down to ``depth`` levels are decoded
    element by element."""
    index = _skip(text, 0)
    value, index = _value(text, index, depth)
    index = _skip(text, index)
    if index != len(text):
        raise json.JSONDecodeError("Extra data", text, index)
    return value


def _skip(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()


def _value(text: str, index: int, depth: int):
    opening = text[index:index + 1]
    if depth > 0 and opening == "[":
        return _array(text, index, depth - 1)
    if depth > 0 and opening == "{":
        return _object(text, index, depth - 1)
    try:
        return _DECODER.raw_decode(text, index)
    except StopIteration as stop:  # raw_decode's way of saying nothing was there
        raise json.JSONDecodeError("Expecting value", text, stop.value) from None


def _array(text: str, index: int, depth: int) -> tuple[list, int]:
    items: list = []
    index = _skip(text, index + 1)
    if text.startswith("]", index):
        return items, index + 1
    while True:
        item, index = _value(text, index, depth)
        items.append(item)
        index = _skip(text, index)
        if text.startswith("]", index):
            return items, index + 1
        if not text.startswith(",", index):
            raise json.JSONDecodeError("Expecting ',' delimiter", text, index)
        index = _skip(text, index + 1)


def _object(text: str, index: int, depth: int) -> tuple[dict, int]:
    members: dict = {}
    index = _skip(text, index + 1)
    if text.startswith("}", index):
        return members, index + 1
    while True:
        if not text.startswith('"', index):
            raise json.JSONDecodeError(
                "Expecting property name enclosed in double quotes", text, index)
        key, index = _DECODER.raw_decode(text, index)
        index = _skip(text, index)
        if not text.startswith(":", index):
            raise json.JSONDecodeError("Expecting ':' delimiter", text, index)
        members[key], index = _value(text, _skip(text, index + 1), depth)
        index = _skip(text, index)
        if text.startswith("}", index):
            return members, index + 1
        if not text.startswith(",", index):
            raise json.JSONDecodeError("Expecting ',' delimiter", text, index)
        index = _skip(text, index + 1)
