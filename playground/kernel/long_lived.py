"""What the kernel keeps for its whole life, out of the cyclic garbage collector's walks.

A full collection walks every tracked object of the oldest generation. The kernel's own
objects (the engine, the libraries it warmed up: some 250,000, whose walk took 0.3 s) and
jedi's (its parse trees of the engine and the standard library: some 170,000 after the
completion warm-up, a walk of 20-60 ms) live as long as the process: walking them finds
nothing, and a run paid for it whenever Python's own full collection fell in it (every few
runs of the 300-node example, when jedi's warm-up ended after the window's first run).
``gc.freeze`` moves every tracked object to the permanent generation; reference counting still
frees them, but a cycle among them is never collected: only the kernel's own objects may be
frozen, never a script's (a namespace with a function in it is a cycle: the function's
globals are the namespace).
"""

from __future__ import annotations

import gc


def keep_out_of_collections() -> None:
    """Freeze what the process holds now (gc.freeze): called where it holds no script's objects.
    (No collection first at start: the little garbage start-up left is not worth delaying the
    first run.)"""
    gc.freeze()


class LongLived:
    """When to freeze jedi's objects: at once if no script has run yet, else at the start of
    the next fresh run, once the last script's namespace is let go and collected."""

    def __init__(self) -> None:
        self.due = False  # objects made since the last freeze wait for a fresh run

    def after_warm_up(self, scripts_ran: bool) -> None:
        """jedi's warm-up is over (its thread): its objects are the kernel's for good."""
        if scripts_ran:
            self.due = True
        else:
            keep_out_of_collections()

    def at_fresh_run(self, figures_pending: bool) -> None:
        """A fresh run's namespace replaced the last one: if a freeze is due, the last
        script's garbage is collected, then the rest frozen (one collection, once a process).
        Not while the last run's figures wait to be drawn (matplotlib's figures are cycles):
        at a later fresh run."""
        if self.due and not figures_pending:
            self.due = False
            gc.collect()
            keep_out_of_collections()
