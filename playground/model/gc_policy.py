"""The app's policy for Python's cyclic garbage collector, in one place, with its reasons.

1. **Collect on the UI thread only** (``collect_due``, called by ui/gc_timer.py's timer).
   Left to itself the collector runs in whichever thread happens to allocate, and a cycle that
   holds Qt objects (an old plot's menus) is then destroyed on a worker thread: its C++
   destructor takes Qt's connection locks and waits there for the GIL, while the UI thread,
   holding the GIL, waits for those locks to connect a signal; the window froze for good (a
   layout thread collecting a pyqtgraph PlotItem while the UI thread made a new one). So in
   the window automatic collection is off and the UI thread collects each generation when its
   count passes its threshold, as the automatic collector would. (The cure at the source,
   making sure no Python object with Qt parts is ever last released on a worker, cannot be
   held for pyqtgraph's own objects, which keep cycles we do not make.)
2. **Pause while a large result is built, then freeze it** (``pause``/``resume``/``paused``).
   A 10^5-node graph is about 1.6 million objects in the window. Built with the collector on,
it set off a dozen full collections, the last ones over a second each, and each one froze
the window while it examined objects that were all alive. So the work that builds a large
result (decoding it, folding and measuring the graph, laying it out, making its items) runs
paused; when the last pause ends, whatever it left alive is frozen (``gc.freeze``): later
collections skip it, while reference counting still frees it when the next result replaces
it. ``thaw`` gives the frozen objects back to the collector once the window holds a small
result again, so that a reference cycle frozen by mistake is not kept for good.
3. **Freeze what the window holds from the start** (``freeze_start_up``). The window's own
   objects (Qt wrappers, pyqtgraph, the modules: some 77,000) live as long as it does, yet each
   full collection walked them again: 75 ms, now and then in the middle of a run's drawing.
   Frozen once the window is up, they stay out of every later collection. ``thaw`` then gives
   back the objects frozen for a large result with one full collection and freezes what is
   still alive again (the start-up objects and the small result on screen).
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
_start_up_frozen = 0  # objects frozen by freeze_start_up (and by thaw after it); 0: none
# whether a large result was frozen since: kept here because gc.get_freeze_count() walks every
# frozen object (7 ms for the window's 77,000 under Python 3.11)
_frozen_for_result = False


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
    global _depth, _frozen_for_result
    with _lock:
        if _depth == 0:
            return
        _depth -= 1
        if _depth:
            return
        # the youngest generation's count is what was made and kept since the last collection
        if gc.get_count()[0] >= FREEZE_FROM:
            gc.freeze()
            _frozen_for_result = True
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


def freeze_start_up() -> None:
    """Collect once, then keep every object alive now out of later collections."""
    global _start_up_frozen, _frozen_for_result
    with _lock:
        if _depth:
            return
        gc.collect()
        gc.freeze()
        _start_up_frozen = gc.get_freeze_count()
        _frozen_for_result = False


def thaw() -> bool:
    """Hand objects frozen for a large result back to the collector (not during a pause);
    whether any were. After freeze_start_up, what survives a full collection is frozen again."""
    global _start_up_frozen, _frozen_for_result
    with _lock:
        if _depth or not _frozen_for_result:
            return False
        gc.unfreeze()
        _frozen_for_result = False
        if _start_up_frozen:
            gc.collect()
            gc.freeze()
            _start_up_frozen = gc.get_freeze_count()
        return True


# a graph this small was built without a pause (ui/graph_scene.py PREPARED_IN_PLACE): once the
# window shows one, nothing frozen for a large one is still on screen
THAW_AT_NODES = 2000


def settle(nodes_on_screen: int, drawing: bool) -> bool:
    """Quiet after a run: with a small graph on screen (and none being drawn), the window's
    start-up objects frozen the first time, else the objects frozen for a large graph handed
    back to the collector; whether anything changed."""
    if drawing or nodes_on_screen > THAW_AT_NODES:
        return False
    if not _start_up_frozen:
        freeze_start_up()
        return True
    return thaw()


def collect_due() -> None:
    """Each generation whose count passed its threshold, collected now (in the thread that
    calls it: the window's UI thread), none while a result is being built (a pause)."""
    if is_paused():
        return
    counts, thresholds = gc.get_count(), gc.get_threshold()
    for generation in (2, 1, 0):  # the oldest due one: collecting it collects the younger
        if counts[generation] > thresholds[generation]:
            gc.collect(generation)
            return
