"""Holds Python's cyclic garbage collector off while a large result is built, then freezes it.

A 10^5-node graph is about 1.6 million objects in the window. Built with the collector on,
it set off a dozen full collections, the last ones over a second each, and each one froze
the window while it examined objects that were all alive. So the work that builds a large
result (decoding it, folding and measuring the graph, laying it out, making its items) runs
paused; when the last pause ends, whatever it left alive is frozen (``gc.freeze``): later
collections skip it, while reference counting still frees it when the next result replaces
it. ``thaw`` gives the frozen objects back to the collector once the window holds a small
result again, so that a reference cycle frozen by mistake is not kept for good.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

FREEZE_FROM = 50_000  # objects made during the pauses, net: below this they are collected as usual

_lock = threading.Lock()
_depth = 0
_enabled_before = True


def pause() -> None:
    """Collect nothing until the matching ``resume``; pauses nest, across threads too."""
    global _depth, _enabled_before
    with _lock:
        if _depth == 0:
            _enabled_before = gc.isenabled()
            gc.disable()
        _depth += 1


def resume() -> None:
    """End one pause; the last one freezes what was made if that was a lot, and collects again."""
    global _depth
    with _lock:
        if _depth == 0:
            return
        _depth -= 1
        if _depth:
            return
        # the youngest generation's count is what was made and kept since the last collection
        if gc.get_count()[0] >= FREEZE_FROM:
            gc.freeze()
        if _enabled_before:
            gc.enable()


@contextmanager
def paused() -> Iterator[None]:
    """``pause`` for the block, ``resume`` after it however it ends."""
    pause()
    try:
        yield
    finally:
        resume()


def is_paused() -> bool:
    return _depth > 0


def thaw() -> bool:
    """Hand frozen objects back to the collector (not during a pause); whether any were."""
    with _lock:
        if _depth or not gc.get_freeze_count():
            return False
        gc.unfreeze()
        return True
