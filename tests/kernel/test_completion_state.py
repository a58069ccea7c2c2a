"""Completion runs in the kernel beside the user's script (the warm-up's thread, a popup's
request between runs): it must leave the process as the script and the next run's
fingerprint see it, the recursion limit above all (jedi raises it while it infers)."""

from __future__ import annotations

import sys

from playground.kernel import child


def test_completing_leaves_the_recursion_limit_alone(monkeypatch):
    real = sys.setrecursionlimit
    limits: list[int] = []
    monkeypatch.setattr(sys, "setrecursionlimit", lambda limit: (limits.append(limit),
                                                                 real(limit)))
    found = child.completions("import os\nos.pa", 2, 5, {}, None)
    assert "path" in [name for name, _ in found]  # (jedi did complete)
    assert limits == []
