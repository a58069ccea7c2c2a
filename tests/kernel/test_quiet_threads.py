"""The kernel's helper threads stay asleep while a short script runs (issue 36): each wake of a
thread takes the GIL from the script at an odd moment, and one or two of them cost a 25 ms run
3-5 ms. The output flusher wakes only when a stream holds text; the memory watchdog takes its
first sample a fifth of a second into a run."""

from __future__ import annotations

import os
import time

import pytest

from playground.kernel import streams
from playground.kernel.client import Kernel
from playground.kernel.watchdog import MemoryWatchdog


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, bytes]]:
    """What LineStreams send, kept here instead of going to the pipe."""
    chunks: list[tuple[str, bytes]] = []
    monkeypatch.setattr(streams, "_send", lambda stream, data: chunks.append((stream, data)))
    streams._flusher_due.clear()
    yield chunks
    streams._flusher_due.clear()


def test_printed_lines_go_out_at_once_and_leave_the_flusher_asleep(sent):
    stream = streams.LineStream("stdout")
    for word in ("step", " ", "0", "  loss", " ", "21.0000", "\n"):  # as print() writes
        stream.write(word)
    assert sent == [("stdout", b"step 0  loss 21.0000\n")]
    assert not stream.waiting() and not streams._flusher_due.is_set()


def test_a_line_that_grows_for_a_tick_wakes_the_flusher_which_sends_it(sent, monkeypatch):
    now = [100.0]
    monkeypatch.setattr(streams.time, "monotonic", lambda: now[0])
    stream = streams.LineStream("stdout")
    stream.write("training")
    stream.write(".")
    assert not streams._flusher_due.is_set() and sent == []  # (print's next word may end it)
    now[0] += 2 * streams.TICK_S
    stream.write(".")
    assert streams._flusher_due.is_set()
    assert stream.tick() is False  # idle since the write: sent, nothing left to tick for
    assert sent == [("stdout", b"training..")]
    streams._flusher_due.clear()
    now[0] += 1.0
    stream.write(".")  # the same line, still growing: at the next tick
    assert streams._flusher_due.is_set()


def test_over_a_hundred_lines_within_a_tick_are_a_flood_sent_in_batches(sent):
    stream = streams.LineStream("stdout")
    for number in range(1000):
        stream.write(f"line {number}\n")
    assert stream.flooding and streams._flusher_due.is_set()
    one_by_one = len(sent)
    assert one_by_one <= 2 * streams.FLOOD_LINES + 2  # the counting window's lines, then held
    assert stream.tick() is True  # lines this tick: still a flood, still ticking
    assert stream.tick() is False  # a quiet tick ends it
    text = b"".join(data for _, data in sent).decode()
    assert text == "".join(f"line {number}\n" for number in range(1000))
    assert len(sent) == one_by_one + 1


def test_lines_written_slowly_are_never_a_flood(sent, monkeypatch):
    clock = iter(range(0, 10_000, 1))  # a second between lines
    monkeypatch.setattr(streams.time, "monotonic", lambda: float(next(clock)))
    stream = streams.LineStream("stdout")
    for number in range(500):
        stream.write(f"{number}\n")
    assert not stream.flooding and len(sent) == 500


def _counting_watchdog(first_after: float) -> tuple[MemoryWatchdog, list[float]]:
    samples: list[float] = []

    def resident() -> int:
        samples.append(time.monotonic())
        return 0

    watchdog = MemoryWatchdog(1 << 40, on_over=lambda: None, on_stuck=lambda: None,
                              resident=resident, interval=0.02, first_after=first_after)
    watchdog.start()
    return watchdog, samples


def test_the_watchdog_does_not_wake_during_a_short_run():
    watchdog, samples = _counting_watchdog(first_after=0.3)
    watchdog.arm()
    time.sleep(0.15)  # a run of 150 ms
    watchdog.disarm()
    time.sleep(0.3)
    assert samples == []


def test_the_watchdog_samples_a_long_run_every_interval_after_its_first_sample():
    watchdog, samples = _counting_watchdog(first_after=0.15)
    armed = time.monotonic()
    watchdog.arm()
    time.sleep(0.5)
    watchdog.disarm()
    assert len(samples) >= 5
    assert samples[0] - armed >= 0.15


def test_a_short_run_in_the_kernel_leaves_the_helper_threads_asleep():
    """The kernel's own threads, seen from the script: none of them is woken while a short
    script prints whole lines (their CPU time does not move)."""
    script = (
        "import threading, time\n"
        "def woken(tid):  # how often the thread went to sleep and was woken\n"
        "    with open(f'/proc/self/task/{tid}/status') as f:\n"
        "        return [l for l in f if l.startswith('voluntary_ctxt_switches')][0]\n"
        "helpers = {t.name: t.native_id for t in threading.enumerate()\n"
        "           if t.name in ('playground-flusher', 'playground-memory')}\n"
        "before = {name: woken(tid) for name, tid in helpers.items()}\n"
        "end, n = time.perf_counter() + 0.12, 0\n"
        "while time.perf_counter() < end:\n"
        "    n += 1\n"
        "    if n % 100000 == 0:\n"
        "        print('busy', n)\n"
        "after = {name: woken(tid) for name, tid in helpers.items()}\n"
        "print(sorted(helpers), before == after)\n")
    if not os.path.exists("/proc/self/task"):
        pytest.skip("reads /proc (Linux)")
    with Kernel("numpy", completions=False) as kernel:
        kernel.run("print('warm')\n", "warm.py")
        result = kernel.run(script, "quiet.py")
    assert result.ok, result.error
    assert result.output.splitlines()[-1] == "['playground-flusher', 'playground-memory'] True"

