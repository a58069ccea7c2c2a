"""Stop and the memory watchdog in the kernel: turned into an exception in the main thread,
only while user code runs (or the figures it showed are drawn)."""

from __future__ import annotations

import _thread
import sys
import threading
import time

from playground.kernel import processes
from playground.kernel.watchdog import MemoryWatchdog

WAKE_EVERY_S = 0.05  # how often a Stop not yet taken wakes the main thread again
WAKE_FOR_S = 3.0     # for how long (the window kills a kernel that ignores Stop after 2 s)


class Stop:
    """Stop and the memory watchdog, turned into an exception in the main thread.

    A request (from the request thread or the watchdog) leaves a reason and simulates SIGINT
    in the main thread (``_thread.interrupt_main``: the same call on every OS); the handler
    raises what the reason asks for, but only while user code runs.
    """

    armed = False      # user code is running: a request may interrupt it
    reason = ""        # what the next SIGINT raises: "interrupt" or "memory"
    requested = False  # this run's KeyboardInterrupt came from the app's Stop
    platform = sys.platform
    run_id = ""        # the run user code belongs to
    # A Stop for a run that has not started (the kernel was busy): it never starts; or for
    # the run that just ended: the drawing of its figures (which is armed as a run) never starts.
    stopped_before_start = ""
    _lock = threading.Lock()  # arming and a Stop arriving are never interleaved

    @classmethod
    def begin(cls, watchdog: MemoryWatchdog | None, run_id: str = "") -> bool:
        """Arm for run ``run_id``; False when its Stop came first (it must not run)."""
        with cls._lock:
            if run_id and cls.stopped_before_start == run_id:
                cls.stopped_before_start = ""
                return False
            cls.requested, cls.reason, cls.armed, cls.run_id = False, "", True, run_id
        if watchdog is not None:
            watchdog.arm()
        return True

    @classmethod
    def end(cls, watchdog: MemoryWatchdog | None) -> None:
        with cls._lock:
            cls.armed = False
        if watchdog is not None:
            watchdog.disarm()

    @classmethod
    def request(cls, reason: str, run_id: str = "") -> None:
        """Stop (``run_id``: the run it is meant for) or the watchdog's call."""
        with cls._lock:
            if not cls.armed or (run_id and run_id != cls.run_id):
                # between runs: nothing to stop, unless it is for the run about to start,
                # or for the figures of the run just ended, still to be drawn
                if reason == "interrupt" and run_id:
                    cls.stopped_before_start = run_id
                return
            cls.reason = reason
        _thread.interrupt_main()
        processes.wake_main_thread(cls.platform)
        threading.Thread(target=cls._wake_until_taken, daemon=True, name="stop-wake").start()

    @classmethod
    def _wake_until_taken(cls) -> None:
        """Wake the main thread again until the request is taken: a wake that lands after
        the main thread released the GIL but before its blocking call began (``time.sleep``,
        say) is lost, and the call would sleep on (seen under load: 1 Stop in 40)."""
        deadline = time.monotonic() + WAKE_FOR_S
        while time.monotonic() < deadline:
            time.sleep(WAKE_EVERY_S)
            with cls._lock:
                if not cls.armed or not cls.reason:  # taken, or the run ended meanwhile
                    return
            processes.wake_main_thread(cls.platform)

    @classmethod
    def on_signal(cls, number, frame) -> None:
        reason, cls.reason = cls.reason, ""
        if not cls.armed:
            return
        if reason == "memory":
            raise MemoryError  # described as the kernel's limit
        # a script may send itself SIGINT: then it is an ordinary exception
        cls.requested = reason == "interrupt"
        raise KeyboardInterrupt
