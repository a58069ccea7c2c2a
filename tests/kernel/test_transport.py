"""The kernel transport every OS runs: stdin/stdout frames, the interrupt thread, the watchdog,
and a kernel whose lifetime is tied to the app. Each test runs the real kernel process;
``as_platform`` makes the kernel take the choices it makes on Windows or macOS.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time

import psutil
import pytest

from playground.kernel.client import Kernel


@pytest.fixture
def as_platform(monkeypatch):
    def simulate(platform: str) -> None:
        monkeypatch.setenv("PLAYGROUND_SIMULATE_PLATFORM", platform)

    return simulate


def _gone(pid: int, within: float = 5.0) -> bool:
    """Whether the process ended (a zombie waiting for its parent counts as ended)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.05)
    return False


SLEEPER = ("import subprocess, sys\n"
           "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
           "print(child.pid, flush=True)\n")


@pytest.mark.parametrize("platform", ["linux", "darwin", "win32"])
def test_stop_interrupts_a_python_loop_on_every_platform(as_platform, platform):
    as_platform(platform)
    with Kernel("numpy", completions=False) as kernel:
        threading.Timer(0.4, kernel.interrupt).start()
        started = time.perf_counter()
        result = kernel.run("total = 0\nwhile True:\n    total += 1\n", "loop.py")
        assert result.error.kind == "interrupted"
        # the line the loop was on when Stop landed (its test or its body)
        assert result.error.line in (2, 3)
        assert result.error.message == f"The run was interrupted at line {result.error.line}."
        assert time.perf_counter() - started < 1.5  # not the kill 2 s later
        # the namespace survived: the next cell sees the loop's variable
        after = kernel.run("print(total > 0)", "after.py", fresh=False)
        assert after.output == "True\n"


@pytest.mark.skipif(sys.platform == "win32", reason="the wake signal is POSIX")
def test_stop_wakes_a_long_sleep_without_killing_the_kernel():
    with Kernel("numpy", completions=False) as kernel:
        pid = kernel.process.pid
        threading.Timer(0.4, kernel.interrupt).start()
        started = time.perf_counter()
        result = kernel.run("import time\nkept = 1\ntime.sleep(60)\n", "sleepy.py")
        assert result.error.kind == "interrupted" and time.perf_counter() - started < 1.5
        assert kernel.process.pid == pid


def test_a_script_sending_itself_sigint_gets_pythons_keyboardinterrupt():
    with Kernel("numpy", completions=False) as kernel:
        result = kernel.run("import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n"
                            "import time\ntime.sleep(1)\n", "self.py")
        assert result.error.kind == "exception"
        assert result.error.exception_type == "KeyboardInterrupt" and result.error.line == 2


def test_a_script_that_replaces_the_sigint_handler_can_still_be_stopped_next_run():
    with Kernel("numpy", completions=False) as kernel:
        kernel.run("import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n", "ign.py")
        threading.Timer(0.4, kernel.interrupt).start()
        result = kernel.run("while True:\n    pass\n", "loop.py")
        assert result.error.kind == "interrupted" and "restarted" not in result.error.message


@pytest.mark.parametrize("platform", ["darwin", "win32"])
def test_the_watchdog_caps_memory_where_the_os_does_not(as_platform, platform):
    as_platform(platform)  # no RLIMIT_DATA: only the watchdog can stop this
    with Kernel("numpy", memory_limit=700 << 20, completions=False) as kernel:
        result = kernel.run("import resource\nprint(resource.getrlimit(resource.RLIMIT_DATA)[0])"
                            "\nimport numpy as np\nblocks = []\nwhile True:\n"
                            "    blocks.append(np.ones(10**7))\n", "grow.py", timeout=60)
        assert result.output == f"{__import__('resource').RLIM_INFINITY}\n"
        assert result.error.kind == "memory" and result.error.line == 6
        assert result.error.message == ("MemoryError: the code asked for more memory than the "
                                        "kernel's limit of 0.7 GB (line 6).")
        after = kernel.run("print('still here')", "after.py")
        assert after.ok and after.output == "still here\n"


def test_code_that_will_not_give_memory_back_is_ended_by_the_watchdog(as_platform):
    as_platform("darwin")
    with Kernel("numpy", memory_limit=500 << 20, completions=False) as kernel:
        started = time.perf_counter()
        result = kernel.run("import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                            "import numpy as np\nheld = np.ones(10**8)\ntime.sleep(60)\n",
                            "hold.py", timeout=60)
        assert time.perf_counter() - started < 10
        assert result.error.kind == "memory"
        assert result.error.message == (
            "The run used more memory than the kernel's limit of 0.5 GB and did not stop when "
            "asked, so the kernel was ended; it restarts for the next run.")
        assert kernel.run("print(1)", "after.py").output == "1\n"


def test_the_kernel_and_what_it_started_end_when_the_app_dies(tmp_path):
    pids = tmp_path / "pids"
    app = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        from playground.kernel.client import Kernel
        kernel = Kernel("numpy", completions=False)
        def keep(stream, text):
            with open({str(pids)!r}, "a") as log:
                log.write(text)
        code = {SLEEPER!r} + "import os\\nprint(os.getpid(), flush=True)\\n"
        code += "while True:\\n    pass\\n"
        kernel.run(code, "busy.py", on_output=keep)
        """)])
    try:
        deadline = time.monotonic() + 30
        while len(pids.read_text().split() if pids.exists() else []) < 2:
            assert time.monotonic() < deadline and app.poll() is None
            time.sleep(0.05)
        sleeper, kernel = map(int, pids.read_text().split())
        app.kill()  # the window dies without a word: no shutdown request
        app.wait()
        assert _gone(kernel), "the kernel outlived the app"
        assert _gone(sleeper), "a process the script started outlived the app"
    finally:
        app.kill()


def test_a_killed_kernel_takes_its_children_with_it():
    with Kernel("numpy", completions=False) as kernel:
        result = kernel.run(SLEEPER + "import os, time\ntime.sleep(0.2)\nos.kill(os.getpid(), 9)\n",
                            "die.py")
        assert result.error.kind == "crash"
        assert _gone(int(result.output.split()[0]))
        assert kernel.run("print('next')", "next.py").output == "next\n"


def test_a_stopped_kernel_takes_its_children_with_it():
    with Kernel("numpy", completions=False) as kernel:
        threading.Timer(1.0, kernel.interrupt).start()
        result = kernel.run(SLEEPER + "import signal\nsignal.signal(signal.SIGINT, "
                            "signal.SIG_IGN)\nwhile True:\n    pass\n", "stubborn.py")
        assert result.error.kind == "interrupted" and "restarted" in result.error.message
        assert _gone(int(result.output.split()[0]))


def test_a_threads_late_output_stays_out_of_the_next_fresh_run():
    starts_a_thread = ("import threading, time\ndef later():\n    time.sleep(0.4)\n"
                       "    print('late')\nthreading.Thread(target=later).start()\n"
                       "print('first')\n")
    with Kernel("numpy", completions=False) as kernel:
        assert kernel.run(starts_a_thread, "one.py").output == "first\n"
        second = kernel.run("import time\ntime.sleep(0.8)\nprint('second')\n", "two.py")
        assert second.output == "second\n"
        # in cells, as in a notebook, the thread belongs to the session and is heard
        kernel.run(starts_a_thread, "cell.py", fresh=False)
        cell = kernel.run("import time\ntime.sleep(0.8)\n", "cell2.py", fresh=False)
        assert cell.output == "late\n"


def test_closing_the_standard_descriptors_breaks_only_that_run():
    with Kernel("numpy", completions=False) as kernel:
        kernel.run("import os, sys\nos.close(0)\nos.close(1)\nos.close(2)\nsys.stdout.close()\n",
                   "close.py")
        # (flushed: what goes straight to descriptor 2 may otherwise land mid-line)
        result = kernel.run("import os, sys\nprint('out', flush=True)\n"
                            "print('err', file=sys.stderr, flush=True)\n"
                            "os.write(1, b'fd1\\n')\nos.write(2, b'fd2\\n')\n"
                            "try:\n    input()\nexcept EOFError:\n    print('end of input')\n",
                            "after.py")
        assert result.ok
        assert result.output.splitlines() == ["out", "err", "fd1", "fd2", "end of input"]


def test_descriptors_one_and_two_keep_their_order():
    """As a terminal shows them: lines written to descriptors 1 and 2 (C code, processes a
    script starts) arrive in the order they were written, however many."""
    with Kernel("numpy", completions=False) as kernel:
        result = kernel.run("import os\nfor n in range(5000):\n"
                            "    os.write(1, b'one %d\\n' % n)\n"
                            "    os.write(2, b'two %d\\n' % n)\n", "descriptors.py")
    assert result.ok
    assert result.output.splitlines() == [f"{what} {n}" for n in range(5000)
                                          for what in ("one", "two")]


def test_printed_lines_keep_their_place_among_descriptor_writes():
    """print() is line-buffered as in a terminal: a printed line is out before the next
    descriptor write (outside a flood of over a hundred lines a tick, which is batched);
    Python's sys.stderr is told apart (red in the console, stderr in the CLI)."""
    with Kernel("numpy", completions=False) as kernel:
        pieces = []
        result = kernel.run("import os, sys, time\nfor n in range(20):\n"
                            "    print('out', n)\n    os.write(1, b'one %d\\n' % n)\n"
                            "    print('err', n, file=sys.stderr)\n"
                            "    os.write(2, b'two %d\\n' % n)\n    time.sleep(0.001)\n",
                            "mixed.py", on_output=lambda stream, text: pieces.append(
                                (stream, text)))
    expected = [f"{what} {n}" for n in range(20) for what in ("out", "one", "err", "two")]
    assert result.ok and result.output.splitlines() == expected
    errors = "".join(text for stream, text in pieces if stream == "stderr")
    assert errors == "".join(f"err {n}\n" for n in range(20))


def test_what_a_subprocess_prints_is_the_runs_output_and_never_the_control_pipes():
    with Kernel("numpy", completions=False) as kernel:
        result = kernel.run("import subprocess, sys\n"
                            "subprocess.run([sys.executable, '-c', 'print(\"from a child\")'])\n"
                            "import os\nos.system('echo from a shell')\nprint('done')\n",
                            "children.py")
        assert result.ok and result.output == "from a child\nfrom a shell\ndone\n"


def test_stdout_and_stderr_arrive_in_the_order_they_were_written():
    with Kernel("numpy", completions=False) as kernel:
        result = kernel.run("import sys\nfor n in range(50):\n"
                            "    print(n)\n    print(-n, file=sys.stderr)\n", "mixed.py")
        expected = "".join(f"{n}\n{-n}\n" for n in range(50))
        assert result.output == expected
