"""Why a kernel did not become ready, in one sentence (the client's start says it)."""

from __future__ import annotations

from playground.kernel import protocol


def not_started(hello: protocol.Message | None, unclaimed: str, memory_limit: int | None) -> str:
    """From the kernel's first frame (None: it ended first) and the end of what it printed."""
    if isinstance(hello, protocol.Failed):
        return hello.message
    if isinstance(hello, protocol.Ready):
        return (f"The kernel speaks protocol version {hello.version}, the window "
                f"{protocol.VERSION}: reinstall the app.")
    if isinstance(hello, protocol.Broken):
        return f"The kernel's first message could not be read ({hello.detail})."
    said = [line for line in unclaimed.splitlines() if line.strip()]
    if said and "MemoryError" not in said[-1]:  # it crashed on import, and said why
        return f"The kernel process failed to start: {said[-1].strip()}"
    return "The kernel process failed to start" + (
        f" under its memory limit of {memory_limit / (1 << 20):,.0f} MB: raise "
        "the limit." if memory_limit else ".")
