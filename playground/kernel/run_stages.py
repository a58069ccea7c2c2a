"""A run's stages, from the moments the window and the kernel noted on the machine's monotonic
clock (``perf_counter``: the same in every process of the machine)."""

from __future__ import annotations

import time

from playground.model import RunResult


def add_stages(result: RunResult, sent: float, arrived: float, decode: float,
               answered: float) -> None:
    """The request's way in, the kernel's work around the script (before exec, after
    build), encoding and the way out, the decoding here and the hand-over to the thread that
    waits; and the drain of its output after: seconds each, in ``result.timings``."""
    timings = result.timings
    picked, encoding = timings.pop("@picked", None), timings.pop("@encoding", None)
    drain = time.perf_counter() - answered
    timings.update(decode=decode, drain=drain)
    if picked is None or encoding is None:  # (an old or a failed kernel's answer)
        return
    work = sum(timings.get(stage, 0.0) for stage in ("exec", "build"))
    timings.update({"request": picked - sent, "around": encoding - picked - work,
                    "encode + reply": arrived - encoding,
                    "hand-over": answered - arrived - decode})
