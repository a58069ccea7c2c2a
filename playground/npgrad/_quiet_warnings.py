"""NumPy's floating-point warnings from the engine's own arithmetic stay unseen, whatever
filters the script sets: torch says nothing of log(0) or 0/0, and a script that turns
warnings into errors (``simplefilter("error")``) must not fail inside the engine."""

from __future__ import annotations

import re
import warnings

# As warnings.filterwarnings("ignore", category=RuntimeWarning, module=...) stores it. A
# script's own NumPy calls (module __main__) warn as usual.
ENGINE_FILTER = ("ignore", None, RuntimeWarning, re.compile(r"playground\.npgrad"), 0)


def keep_engine_filter_first() -> None:
    """The engine's filter first among the filters in force (a filter the script adds goes
    first, and the first that matches decides)."""
    filters = warnings.filters
    if filters and filters[0] is ENGINE_FILTER:
        return
    while ENGINE_FILTER in filters:
        filters.remove(ENGINE_FILTER)
    filters.insert(0, ENGINE_FILTER)
    warnings._filters_mutated()  # (the C module caches the filters' version)


def install() -> None:
    """The engine's filter, kept first after every filter a script adds (simplefilter,
    filterwarnings, also inside catch_warnings, which copies the list) and after
    resetwarnings. A Python whose warnings module lacks these hooks keeps the filter where
    it was put."""
    add = getattr(warnings, "_add_filter", None)
    if add is not None and not getattr(add, "keeps_engine_filter", False):
        def _add_filter(*item, append):
            add(*item, append=append)
            keep_engine_filter_first()

        _add_filter.keeps_engine_filter = True
        warnings._add_filter = _add_filter
        reset = warnings.resetwarnings

        def resetwarnings() -> None:
            reset()
            keep_engine_filter_first()

        resetwarnings.__doc__ = reset.__doc__
        warnings.resetwarnings = resetwarnings
    keep_engine_filter_first()
