"""What differs between OSes (processes.py) and the memory watchdog, tested here for all three.

Windows and macOS are simulated: the job object's calls go to a recorder in place of kernel32,
and the kernel's own choices follow PLAYGROUND_SIMULATE_PLATFORM.
"""

from __future__ import annotations

import ctypes
import os
import signal
import types

import psutil
import pytest

from playground.kernel import launch, processes
from playground.kernel.watchdog import MemoryWatchdog


class RecordedJobs:
    """kernel32's job-object calls, written down instead of made."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def create(self, limits):
        self.calls.append(("create", limits.BasicLimitInformation.LimitFlags,
                           limits.ProcessMemoryLimit))
        return 77

    def assign(self, job, handle):
        self.calls.append(("assign", job, handle))

    def terminate(self, job):
        self.calls.append(("terminate", job))

    def close(self, job):
        self.calls.append(("close", job))


class FakeProcess:
    pid = 4242
    _handle = 1234

    def __init__(self) -> None:
        self.killed = False

    def kill(self) -> None:
        self.killed = True


def test_each_os_starts_the_kernel_in_a_group_of_its_own():
    assert processes.launch_options("linux") == {"start_new_session": True}
    assert processes.launch_options("darwin") == {"start_new_session": True}
    windows = processes.launch_options("win32")
    assert windows == {"creationflags": processes.CREATE_NEW_PROCESS_GROUP
                       | processes.CREATE_NO_WINDOW}
    assert "start_new_session" not in windows and "pass_fds" not in windows


def test_a_windows_kernel_runs_in_a_job_that_caps_its_memory_and_ends_with_it():
    jobs, process = RecordedJobs(), FakeProcess()
    group = processes.ProcessGroup(process, memory_limit=1 << 30, platform="win32", jobs=jobs)
    flags = processes.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | \
        processes.JOB_OBJECT_LIMIT_PROCESS_MEMORY
    assert jobs.calls == [("create", flags, 1 << 30), ("assign", 77, 1234)]
    assert group.memory_capped
    group.kill()
    assert jobs.calls[-1] == ("terminate", 77) and process.killed
    group.close()
    group.close()  # once only
    assert jobs.calls[-1] == ("close", 77) and jobs.calls.count(("close", 77)) == 1


def test_without_a_limit_the_job_only_ends_with_the_app():
    jobs = RecordedJobs()
    group = processes.ProcessGroup(FakeProcess(), memory_limit=0, platform="win32", jobs=jobs)
    assert jobs.calls[0] == ("create", processes.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE, 0)
    assert not group.memory_capped


def test_the_job_limits_have_the_layout_windows_reads():
    # JOBOBJECT_EXTENDED_LIMIT_INFORMATION is 144 bytes on 64-bit Windows, 112 on 32-bit
    expected = 144 if ctypes.sizeof(ctypes.c_void_p) == 8 else 112
    assert ctypes.sizeof(processes.JobLimits) == expected
    assert processes.JobLimits.ProcessMemoryLimit.offset == (112 if expected == 144 else 88)


def test_a_posix_group_is_killed_by_its_leaders_pid(monkeypatch):
    sent = []
    monkeypatch.setattr(processes.os, "killpg", lambda pid, number: sent.append((pid, number)))
    process = FakeProcess()
    group = processes.ProcessGroup(process, memory_limit=1 << 30, platform="linux")
    group.kill()
    assert sent == [(4242, signal.SIGKILL)] and process.killed
    assert group.memory_capped  # RLIMIT_DATA, set by the kernel itself
    assert not processes.ProcessGroup(FakeProcess(), 1 << 30, platform="darwin").memory_capped


def test_a_group_already_gone_is_not_an_error(monkeypatch):
    def gone(_pid, _number):
        raise ProcessLookupError

    monkeypatch.setattr(processes.os, "killpg", gone)
    processes.ProcessGroup(FakeProcess(), platform="linux").kill()


def test_only_linux_caps_memory_with_rlimit(monkeypatch):
    limits = []
    fake_resource = types.SimpleNamespace(RLIMIT_DATA=2,
                                          setrlimit=lambda which, pair: limits.append(pair))
    monkeypatch.setitem(__import__("sys").modules, "resource", fake_resource)
    assert not processes.cap_memory(1 << 30, "darwin")  # accepted there, and ignored
    assert not processes.cap_memory(1 << 30, "win32")   # the job caps it, from outside
    assert not processes.cap_memory(0, "linux")
    assert processes.cap_memory(1 << 30, "linux") and limits == [(1 << 30, 1 << 30)]


def test_windows_sends_no_signal_to_wake_the_main_thread(monkeypatch):
    sent = []
    monkeypatch.setattr(processes.signal, "pthread_kill",
                        lambda ident, number: sent.append(number))
    processes.wake_main_thread("win32")
    assert sent == []
    processes.wake_main_thread("darwin")
    assert sent == [processes.WAKE_SIGNAL]


def test_the_simulated_platform_is_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("PLAYGROUND_SIMULATE_PLATFORM", "win32")
    assert processes.current_platform() == "win32"
    monkeypatch.delenv("PLAYGROUND_SIMULATE_PLATFORM")
    assert processes.current_platform() == __import__("sys").platform


# ----- the memory watchdog ---------------------------------------------------------------
class Memory:
    def __init__(self, resident: int) -> None:
        self.resident = resident
        self.events: list[str] = []

    def watchdog(self, limit: int = 1000, grace: float = 2.0) -> MemoryWatchdog:
        return MemoryWatchdog(limit, on_over=lambda: self.events.append("over"),
                              on_stuck=lambda: self.events.append("stuck"),
                              resident=lambda: self.resident, grace=grace)


def test_the_watchdog_asks_once_when_a_run_goes_over_the_limit():
    memory = Memory(500)
    watchdog = memory.watchdog()
    watchdog.arm()
    watchdog.check(0.0)
    memory.resident = 1500
    for now in (0.1, 0.2, 0.3):
        watchdog.check(now)
    assert memory.events == ["over"]


def test_the_watchdog_ends_the_kernel_when_memory_stays_over_past_the_grace():
    memory = Memory(1500)
    watchdog = memory.watchdog(grace=2.0)
    watchdog.arm()
    for now in (10.0, 11.0, 12.0, 12.1, 12.2):
        watchdog.check(now)
    assert memory.events == ["over", "stuck"]


def test_memory_that_falls_back_under_the_limit_starts_the_count_again():
    memory = Memory(1500)
    watchdog = memory.watchdog(grace=2.0)
    watchdog.arm()
    watchdog.check(0.0)
    memory.resident = 100  # the MemoryError freed it
    watchdog.check(1.0)
    memory.resident = 1500
    watchdog.check(2.5)
    watchdog.check(3.0)
    assert memory.events == ["over", "over"]


def test_between_runs_the_watchdog_does_nothing():
    memory = Memory(5000)
    watchdog = memory.watchdog()
    for now in (0.0, 5.0, 10.0):
        watchdog.check(now)
    watchdog.arm()
    watchdog.disarm()
    watchdog.check(20.0)
    assert memory.events == []


def test_a_watchdog_without_a_limit_starts_no_thread(monkeypatch):
    started = []
    monkeypatch.setattr("threading.Thread.start", lambda thread: started.append(thread))
    Memory(0).watchdog(limit=0).start()
    assert started == []
    Memory(0).watchdog(limit=10).start()
    assert len(started) == 1 and started[0].name == "playground-memory"


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_every_platform_has_launch_options_popen_accepts(platform):
    import inspect
    import subprocess

    accepted = inspect.signature(subprocess.Popen).parameters
    assert set(processes.launch_options(platform)) <= set(accepted)


# ----- the app's signals -----------------------------------------------------------------
def test_a_signal_from_the_kernel_is_refused_and_said_and_others_pass():
    guard = processes.SignalGuard()
    refused = []
    guard.from_kernel = lambda pid: pid == 900
    guard.on_refused = refused.append
    assert not guard.judge(signal.SIGTERM, 900)
    assert guard.judge(signal.SIGTERM, 901)
    assert guard.judge(signal.SIGHUP, 0)  # from the kernel of the OS (a closing terminal)
    assert refused == ["SIGTERM"]


def test_a_failing_question_lets_the_signal_through():
    guard = processes.SignalGuard()

    def broken(_pid):
        raise RuntimeError("no kernel yet")

    guard.from_kernel = broken
    assert guard.judge(signal.SIGTERM, 900)


def test_the_guard_changes_nothing_off_linux():
    assert not processes.SignalGuard().install(platform="darwin")
    assert not processes.SignalGuard().install(platform="win32")


@pytest.mark.skipif(not hasattr(__import__("os"), "getsid"), reason="POSIX sessions")
def test_a_process_the_kernel_started_is_in_its_session():
    import os
    import subprocess
    import sys

    leader = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time\n"
                               "child = subprocess.Popen([sys.executable, '-c', "
                               "'import time; time.sleep(30)'])\nprint(child.pid, flush=True)\n"
                               "time.sleep(30)\n"], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        child = int(leader.stdout.readline())
        assert processes.same_session(leader.pid, leader.pid)
        assert processes.same_session(child, leader.pid)
        assert not processes.same_session(os.getpid(), leader.pid)
        assert not processes.same_session(2 ** 22 + 7, leader.pid)  # no such process
    finally:
        os.killpg(leader.pid, signal.SIGKILL)
        leader.wait()


def test_the_machine_memory_is_what_psutil_reads_and_psutil_is_the_fallback(monkeypatch):
    assert launch.machine_memory() == psutil.virtual_memory().total  # (the OS's own figure)
    assert launch.default_memory_limit() == psutil.virtual_memory().total // 2
    monkeypatch.delattr(os, "sysconf")  # Windows has none
    assert launch.machine_memory() == psutil.virtual_memory().total
