"""What differs between operating systems in starting, capping, waking and ending the kernel.

Everything else in the kernel's transport is the same on every OS: requests on the child's
stdin, replies and output on its stdout, an interrupt read by a thread in the kernel. What
cannot be the same lives here, each choice taking the platform as an argument so that its
logic is tested on Linux for Windows and macOS too:

- grouping: a POSIX kernel leads a session of its own (a terminal's Ctrl+C does not reach
  it, and ``killpg`` ends the children it started); a Windows kernel runs in a job object
  that kills every process in it when the app closes the job or dies;
- the memory cap the OS enforces: RLIMIT_DATA on Linux, the job's per-process memory limit
  on Windows, none on macOS (which ignores RLIMIT_DATA), where the kernel's RSS watchdog
  is the only cap;
- waking a main thread blocked in a system call, so that a pending interrupt is raised;
- the app's own signals: on Linux a script cannot end the app with ``os.kill(os.getppid(),
  SIGTERM)``, because the app learns who sent each signal and ignores its kernel's.
"""

from __future__ import annotations

import _thread
import contextlib
import ctypes
import functools
import os
import signal
import sys
import threading
from collections.abc import Callable

WINDOWS = "win32"
# Windows process creation flags (winbase.h): no console window, and Ctrl+C in the
# app's console is not sent to the kernel.
CREATE_NEW_PROCESS_GROUP = 0x00000200
CREATE_NO_WINDOW = 0x08000000
# Job object limits (winnt.h).
JOB_OBJECT_LIMIT_PROCESS_MEMORY = 0x00000100
JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE = 0x00002000
JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS = 9
STD_HANDLES = {0: -10, 1: -11, 2: -12}  # STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE
# The signal that wakes a POSIX main thread out of sleep() or a blocking read; its handler
# does nothing, the interrupt already pending is what then raises.
WAKE_SIGNAL = getattr(signal, "SIGUSR2", None)


def current_platform() -> str:
    """sys.platform, or the one a test simulates for the kernel's own choices."""
    return os.environ.get("PLAYGROUND_SIMULATE_PLATFORM", sys.platform)


def launch_options(platform: str = sys.platform) -> dict:
    """subprocess.Popen options that put the kernel in a group of its own."""
    if platform == WINDOWS:
        return {"creationflags": CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW}
    return {"start_new_session": True}


class _BasicLimits(ctypes.Structure):
    _fields_ = [("PerProcessUserTimeLimit", ctypes.c_int64),
                ("PerJobUserTimeLimit", ctypes.c_int64),
                ("LimitFlags", ctypes.c_uint32),
                ("MinimumWorkingSetSize", ctypes.c_size_t),
                ("MaximumWorkingSetSize", ctypes.c_size_t),
                ("ActiveProcessLimit", ctypes.c_uint32),
                ("Affinity", ctypes.c_size_t),
                ("PriorityClass", ctypes.c_uint32),
                ("SchedulingClass", ctypes.c_uint32)]


class _IoCounters(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "ReadOperationCount", "WriteOperationCount", "OtherOperationCount",
        "ReadTransferCount", "WriteTransferCount", "OtherTransferCount")]


class JobLimits(ctypes.Structure):
    """JOBOBJECT_EXTENDED_LIMIT_INFORMATION, as SetInformationJobObject reads it."""

    _fields_ = [("BasicLimitInformation", _BasicLimits),
                ("IoInfo", _IoCounters),
                ("ProcessMemoryLimit", ctypes.c_size_t),
                ("JobMemoryLimit", ctypes.c_size_t),
                ("PeakProcessMemoryUsed", ctypes.c_size_t),
                ("PeakJobMemoryUsed", ctypes.c_size_t)]


def job_limits(memory_limit: int) -> JobLimits:
    """A job that dies with its last handle and caps each process's committed memory."""
    limits = JobLimits()
    flags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
    if memory_limit > 0:
        flags |= JOB_OBJECT_LIMIT_PROCESS_MEMORY
        limits.ProcessMemoryLimit = memory_limit
    limits.BasicLimitInformation.LimitFlags = flags
    return limits


@functools.cache  # loaded once: the standard handles are pointed anew before every run
def _kernel32():
    return ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]


class WindowsJobs:
    """The four kernel32 calls a job object needs (Windows only)."""

    def __init__(self) -> None:
        self.kernel32 = _kernel32()

    def create(self, limits: JobLimits) -> int:
        job = self.kernel32.CreateJobObjectW(None, None)
        if not job:
            raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]
        if not self.kernel32.SetInformationJobObject(
                job, JOB_OBJECT_EXTENDED_LIMIT_INFORMATION_CLASS, ctypes.byref(limits),
                ctypes.sizeof(limits)):
            raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]
        return job

    def assign(self, job: int, process_handle: int) -> None:
        if not self.kernel32.AssignProcessToJobObject(job, process_handle):
            raise ctypes.WinError(ctypes.get_last_error())  # type: ignore[attr-defined]

    def terminate(self, job: int) -> None:
        self.kernel32.TerminateJobObject(job, 1)

    def close(self, job: int) -> None:
        self.kernel32.CloseHandle(job)


class ProcessGroup:
    """The kernel and every process it starts, ended together.

    ``jobs`` stands in for kernel32 in tests; on POSIX the group is the kernel's session.
    """

    def __init__(self, process, memory_limit: int = 0, platform: str = sys.platform,
                 jobs=None) -> None:
        self.process = process
        self.platform = platform
        self.job = None
        self.memory_capped = platform.startswith("linux") and memory_limit > 0
        if platform == WINDOWS:
            self.jobs = jobs if jobs is not None else WindowsJobs()
            self.job = self.jobs.create(job_limits(memory_limit))
            self.jobs.assign(self.job, int(process._handle))
            self.memory_capped = memory_limit > 0

    def kill(self) -> None:
        """End the kernel and its children; safe when some or all have ended already."""
        if self.job is not None:
            self.jobs.terminate(self.job)
        else:
            # the kernel leads its session, so its pid names the group
            with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self.process.kill()

    def close(self) -> None:
        """Let go of the job (its processes are ended as it closes)."""
        if self.job is not None:
            self.jobs.close(self.job)
            self.job = None


# ----- the app's own signals ----------------------------------------------------------------
APP_SIGNALS = ("SIGTERM", "SIGHUP", "SIGINT")


class SignalGuard:
    """Signals to the app are taken by a thread that asks who sent each (Linux's
    ``sigwaitinfo``): one from the kernel or a process it started is reported to
    ``on_refused`` and ignored; any other does what it did before (SIGINT raises
    KeyboardInterrupt, SIGTERM and SIGHUP end the app). Elsewhere nothing changes.

    ``install`` must run before the app starts a thread: threads inherit the blocked mask,
    and one that did not block the signals would be handed them instead.
    """

    def __init__(self) -> None:
        self.from_kernel: Callable[[int], bool] = lambda _pid: False
        self.on_refused: Callable[[str], None] = lambda _name: None

    def install(self, platform: str = sys.platform) -> bool:
        if not platform.startswith("linux") or not hasattr(signal, "sigwaitinfo"):
            return False
        numbers = {getattr(signal, name) for name in APP_SIGNALS}
        signal.pthread_sigmask(signal.SIG_BLOCK, numbers)
        threading.Thread(target=self._sort, args=(numbers,), name="playground-signals",
                         daemon=True).start()
        return True

    def _sort(self, numbers: set[int]) -> None:
        while True:
            received = signal.sigwaitinfo(numbers)
            if self.judge(received.si_signo, received.si_pid):
                _deliver(received.si_signo)

    def judge(self, number: int, sender: int) -> bool:
        """Whether the signal is let through; a refused one is reported."""
        try:
            refused = sender > 0 and self.from_kernel(sender)
        except Exception:  # noqa: BLE001 - a question that fails lets the signal through
            refused = False
        if refused:
            self.on_refused(signal.Signals(number).name)
        return not refused


def _deliver(number: int) -> None:
    """What the signal did before the guard took it."""
    if number == signal.SIGINT:
        _thread.interrupt_main()
        return
    # the app sets no handler for SIGTERM or SIGHUP: unblocked in this thread, the signal
    # takes its default action, ending the process
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})
    signal.pthread_kill(threading.get_ident(), number)


def is_stopped(process) -> bool:
    """Whether the process is stopped by a signal (POSIX job control: SIGSTOP, SIGTSTP)."""
    if process is None or sys.platform == WINDOWS:
        return False
    try:
        import psutil

        return psutil.Process(process.pid).status() == psutil.STATUS_STOPPED
    except Exception:  # noqa: BLE001 - gone, or unreadable: not stopped as far as we know
        return False


def continue_process(process) -> bool:
    """Send SIGCONT; whether it could be sent."""
    try:
        os.kill(process.pid, signal.SIGCONT)
    except OSError:
        return False
    return True


def same_session(pid: int, leader: int) -> bool:
    """Whether process ``pid`` is in the session ``leader`` leads (the kernel, or a process
    it started): a process that has ended is in none."""
    getsid = getattr(os, "getsid", None)
    if getsid is None:
        return False
    try:
        return pid == leader or getsid(pid) == leader
    except OSError:
        return False


def unblock_app_signals() -> None:
    """The kernel inherits the app's blocked signals: it takes them back, so that its
    scripts and their processes get SIGTERM and SIGINT as usual."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK,
                               {getattr(signal, name) for name in APP_SIGNALS})


# ----- the kernel may not signal the app ---------------------------------------------------
# Linux's seccomp: a filter the kernel process installs on itself (inherited by every process
# it starts) that fails, with EPERM, the system calls that would send a signal to the app: a
# script's ``os.kill(os.getppid(), SIGSTOP)`` froze the window (no paint, no input, no Stop),
# and SIGSTOP cannot be caught. The app is named by its pid, its process group, its threads
# at the kernel's start, and -1 (every process). Offsets and numbers are the kernel ABI's
# (linux/seccomp.h, linux/filter.h, the arch's unistd.h).
_SECCOMP_ARCHES = {
    # machine: (AUDIT_ARCH_*, {syscall: number}, first number of another ABI or None)
    "x86_64": (0xC000003E, {"kill": 62, "tkill": 200, "tgkill": 234, "rt_sigqueueinfo": 129,
                            "rt_tgsigqueueinfo": 297, "pidfd_send_signal": 424,
                            "pidfd_open": 434}, 0x40000000),  # x32's numbers: refused
    "aarch64": (0xC00000B7, {"kill": 129, "tkill": 130, "tgkill": 131, "rt_sigqueueinfo": 138,
                             "rt_tgsigqueueinfo": 240, "pidfd_send_signal": 424,
                             "pidfd_open": 434}, None),
}
_TARGETED = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "pidfd_open")
_REFUSED = ("tkill", "pidfd_send_signal")  # by thread id, or through a pidfd: never needed
_LOAD, _JUMP_EQUAL, _JUMP_AT_LEAST, _RETURN = 0x20, 0x15, 0x35, 0x06
_ALLOW, _FAIL_EPERM = 0x7FFF0000, 0x00050000 | 1
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte),
                ("k", ctypes.c_uint)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def signal_filter(arch: int, numbers: dict[str, int], other_abi: int | None,
                  protected: list[int]) -> list[tuple[int, int, int, int]]:
    """The BPF program: (code, jump if true, jump if false, k) rows; ``protected`` are the
    pid-like values (as they travel in the first argument) no signal may be sent to."""
    targeted = [numbers[name] for name in _TARGETED]
    refused = [numbers[name] for name in _REFUSED]
    values = sorted({value & 0xFFFFFFFF for value in protected})
    # layout: arch check, number checks, allow; then the target checks, allow; deny; allow
    head = 3 + (other_abi is not None) + len(refused) + len(targeted)
    check = head + 1            # first row of the target checks
    deny = check + 1 + len(values) + 1
    allow = deny + 1
    rows = [(_LOAD, 0, 0, 4), (_JUMP_EQUAL, 0, allow - 2, arch), (_LOAD, 0, 0, 0)]
    if other_abi is not None:
        rows.append((_JUMP_AT_LEAST, deny - len(rows) - 1, 0, other_abi))
    for number in refused:
        rows.append((_JUMP_EQUAL, deny - len(rows) - 1, 0, number))
    for number in targeted:
        rows.append((_JUMP_EQUAL, check - len(rows) - 1, 0, number))
    rows.append((_RETURN, 0, 0, _ALLOW))
    rows.append((_LOAD, 0, 0, 16))  # the first argument's low 32 bits (pid_t is 32-bit)
    for value in values:
        rows.append((_JUMP_EQUAL, deny - len(rows) - 1, 0, value))
    rows += [(_RETURN, 0, 0, _ALLOW), (_RETURN, 0, 0, _FAIL_EPERM), (_RETURN, 0, 0, _ALLOW)]
    assert len(rows) == allow + 1
    return rows


def app_targets(app_pid: int) -> list[int]:
    """What names the app in a signal call: its pid, -its group, its threads, -1 (all)."""
    targets = [app_pid, -1]
    with contextlib.suppress(OSError):
        targets.append(-os.getpgid(app_pid))
    with contextlib.suppress(OSError):
        targets += [int(name) for name in os.listdir(f"/proc/{app_pid}/task")]
    return targets


def forbid_signals_to(app_pid: int, platform: str) -> bool:
    """Install the filter in this process (the kernel, before user code runs); whether it
    could be (Linux on x86-64 and arm64; elsewhere the app's SignalGuard is what is left)."""
    import platform as platforms

    arch = _SECCOMP_ARCHES.get(platforms.machine())
    if not platform.startswith("linux") or arch is None or app_pid <= 1:
        return False
    rows = signal_filter(*arch, app_targets(app_pid))
    program = (_SockFilter * len(rows))(*(_SockFilter(*row) for row in rows))
    header = _SockFprog(len(rows), program)
    libc = ctypes.CDLL(None, use_errno=True)
    long = ctypes.c_ulong
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, long(1), long(0), long(0), long(0)) != 0:
        return False
    return libc.prctl(_PR_SET_SECCOMP, long(_SECCOMP_MODE_FILTER), ctypes.byref(header),
                      long(0), long(0)) == 0


WIDE_PIPE = 1 << 20  # what an unprivileged process may ask for (/proc/sys/fs/pipe-max-size)


def widen_pipe(fd: int) -> int:
    """Give the pipe ``fd`` room for a large frame at once, where the OS lets it (Linux):
    through the default 64 KB a 250 KB reply went in four writes, each waiting for the
    window's reader to wake up and empty it. The capacity it has now."""
    if not sys.platform.startswith("linux"):
        return 0
    import fcntl

    try:
        return fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, WIDE_PIPE)
    except OSError:  # a lower limit set by the machine's owner: the pipe stays as it is
        return 0


# ----- the kernel's side -----------------------------------------------------------------
def hidden_copy(fd: int) -> int:
    """A copy of ``fd`` at a random free descriptor number in the upper half of what this
    process may open (its soft limit raised to the hard one first), not inherited."""
    if sys.platform == WINDOWS:
        return os.dup(fd)
    import random
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    top = hard if hard != resource.RLIM_INFINITY else 1 << 16
    top = min(top, 1 << 16)  # a table of a million descriptors costs the kernel memory
    if soft != resource.RLIM_INFINITY and soft < top:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (top, hard))
            soft = top
    ceiling = min(top, soft if soft != resource.RLIM_INFINITY else top)
    for _ in range(64):
        target = random.randrange(max(ceiling // 2, 64), ceiling)
        try:
            os.fstat(target)
        except OSError:  # free
            os.dup2(fd, target, inheritable=False)
            return target
    return os.dup(fd)



def cap_memory(limit_bytes: int, platform: str) -> bool:
    """Make allocations past the limit fail with MemoryError where this process can ask the
    OS to (Linux: RLIMIT_DATA); whether it did. Windows is capped by its job, from outside;
    macOS accepts RLIMIT_DATA and ignores it."""
    if limit_bytes <= 0 or not platform.startswith("linux"):
        return False
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (limit_bytes, limit_bytes))
    return True


# glibc's malloc hands freed memory at the top of its heap back to the OS once more than twice
# its mmap threshold is free (8 MB after a 4 MB array), and maps blocks above that threshold
# afresh: a chain of ops on a 10^6-element float32 tensor faulted each page of each new array
# in again (9,500 page faults, half the time of the chain). The kernel keeps this much freed
# memory for the next arrays instead; arrays above glibc's largest threshold (32 MB) are mapped
# afresh in any case, as in python.
KEPT_FREE_BYTES = 256 << 20
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _MMAP_THRESHOLD_MAX = -1, -3, 32 << 20


def keep_freed_memory(platform: str) -> bool:
    """Have malloc keep freed memory for reuse (Linux with glibc: KEPT_FREE_BYTES); whether
    it could."""
    if not platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # not glibc (musl has no mallopt)
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_TRIM_THRESHOLD, KEPT_FREE_BYTES)) and \
        bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD_MAX))


def install_wake_handler(platform: str) -> None:
    """A handler for the wake signal that does nothing: its arrival alone interrupts a
    blocking system call, and Python then runs the interrupt that was pending."""
    if platform != WINDOWS and WAKE_SIGNAL is not None:
        signal.signal(WAKE_SIGNAL, _wake)


def _wake(_number, _frame) -> None:
    """The wake signal's handler: nothing to do (see install_wake_handler)."""


def wake_main_thread(platform: str) -> None:
    """Break the main thread out of a blocking call (POSIX). Windows has no signal to send:
    there a call that blocks for over 2 s past Stop ends with the kernel's restart."""
    if platform != WINDOWS and WAKE_SIGNAL is not None:
        with contextlib.suppress(OSError, ValueError):
            signal.pthread_kill(threading.main_thread().ident, WAKE_SIGNAL)


def point_std_handles(platform: str) -> None:
    """On Windows, child processes inherit the Win32 standard handles, not file descriptors
    0-2: point the handles at what the descriptors now are, so that a subprocess's output
    joins the user's output instead of the control pipe."""
    if platform != WINDOWS or sys.platform != WINDOWS:
        return
    import msvcrt

    kernel32 = _kernel32()
    for fd, which in STD_HANDLES.items():
        kernel32.SetStdHandle(which, msvcrt.get_osfhandle(fd))


def end_children() -> None:
    """Kill every process this one started (the kernel ends without leaving them behind)."""
    try:
        import psutil

        children = psutil.Process().children(recursive=True)
    except Exception:  # noqa: BLE001 - ending must never fail
        return
    for child in children:
        with contextlib.suppress(Exception):
            child.kill()
