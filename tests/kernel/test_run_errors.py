"""Errors as the user's code caused them: the editor's lines, one sentence, no app frames."""

from __future__ import annotations

import time
import tracemalloc

import numpy as np
import pytest

from playground.kernel.client import Kernel
from playground.model.arrays import ArrayData

BLOW_UP = """import torch
kept = []
while True:
    kept.append(torch.ones(10_000_000))
"""


def test_a_memory_blow_up_is_one_sentence_and_the_kernel_lives_on(tmp_path):
    script = tmp_path / "greedy.py"
    script.write_text(BLOW_UP)
    with Kernel("numpy", memory_limit=1536 << 20) as kernel:
        result = kernel.run(BLOW_UP, str(script))
        error = result.error
        assert error.kind == "memory" and error.line == 4
        assert error.message.startswith("MemoryError: ") and error.message.count("\n") == 0
        frames = [line for line in error.traceback.splitlines() if line.startswith("  File")]
        assert frames == [f'  File "{script}", line 4, in <module>']
        assert error.traceback.rstrip().splitlines()[-1].startswith("MemoryError: ")
        after = kernel.run("print('still here')", str(script), fresh=False)
        assert after.error is None and after.output == "still here\n"


def test_a_syntax_error_quotes_the_code_that_ran_not_the_file(tmp_path):
    script = tmp_path / "lesson.py"
    script.write_text("import torch\nprint('saved version')\n")
    with Kernel("numpy") as kernel:
        result = kernel.run("import torch\ny = (1 +\n", str(script))
    assert result.error.kind == "syntax" and result.error.line == 2
    assert "y = (1 +" in result.error.traceback
    assert "saved version" not in result.error.traceback


def test_a_huge_tensor_is_summarised_without_a_float64_copy():
    values = np.ones(10_000_000, dtype=np.float32)
    tracemalloc.start()
    summary = ArrayData.from_array(values, "torch.float32")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 20 << 20  # a float64 copy alone is 80 MB
    assert summary.values is None and summary.mean == 1.0 and summary.maximum == 1.0


# The kernel's control pipe, as hostile user code can find it (the channel object in memory).
# (the kernel keeps what it made at start out of the collector's lists: gc.freeze; a hostile
# script can hand them back first)
CONTROL_OUT = ("import gc, os, struct\nfrom playground.kernel.channel import KernelChannel\n"
               "gc.unfreeze()\n"
               "fd = next(o for o in gc.get_objects() if isinstance(o, KernelChannel))"
               ".control_out\n")


@pytest.mark.parametrize("what", ["garbage", "closed", "huge"])
def test_garbage_on_the_control_pipe_restarts_the_kernel_not_the_window(what):
    act = {"garbage": "os.write(fd, struct.pack('>I', 40) + b'{not json at all' * 3)\n",
           "closed": "os.close(fd)\nimport time\ntime.sleep(0.5)\n",
           # a 4 GiB length, then a stream of bytes: nobody may buffer it
           "huge": "os.write(fd, struct.pack('>I', 0xFFFFFFF0))\nimport time\n"
                   "for _ in range(200):\n    os.write(fd, bytes(1 << 20))\n"}[what]
    with Kernel("numpy") as kernel:
        started = time.perf_counter()
        result = kernel.run(CONTROL_OUT + act, "pipe.py", timeout=20)
        assert time.perf_counter() - started < 10
        assert result.error is not None and result.error.kind in ("crash", "exit")
        after = kernel.run("print(6 * 7)", "after.py")
        assert after.ok and after.output == "42\n"


def test_a_forged_result_is_not_taken_for_the_run():
    forge = ("from playground.kernel import wire\n"
             "wire.send(fd, {'op': 'result', 'id': 'guess', 'result': {'engine': 'forged',"
             " 'error': None, 'graph': None, 'traces': {}, 'elapsed': 0}})\n"
             "print('real output')\n")
    with Kernel("numpy") as kernel:
        result = kernel.run(CONTROL_OUT + forge, "forge.py", timeout=20)
        assert result.ok and result.engine == "numpy" and result.output == "real output\n"
        # the runs after it get their own results, not the one before
        for number in range(3):
            after = kernel.run(f"print({number})", "after.py")
            assert after.ok and after.output == f"{number}\n"


def _printed(kernel, code: str, fresh: bool = True, **options) -> tuple[str, object]:
    printed = []
    result = kernel.run(code, "script.py", fresh=fresh,
                        on_output=lambda _stream, text: printed.append(text), **options)
    return "".join(printed), result


def test_a_fresh_run_starts_from_numpys_default_error_handling():
    code = "import numpy as np\nprint(np.geterr()['divide'])\nnp.seterr(all='raise')\n"
    with Kernel("numpy", completions=False) as kernel:
        first, second = (_printed(kernel, code)[0] for _ in range(2))
        assert first == second != "raise\n"
        assert _printed(kernel, "print(np.geterr()['divide'])", fresh=False)[0] == "raise\n"


def test_a_fresh_run_finds_the_modules_a_script_removed():
    """A script that blocks or deletes loaded modules (sys.modules[name] = None) leaves its
    process to itself: the next fresh run goes to a new one and imports them."""
    breaking = ("import sys\nsys.modules['threading'] = None\ndel sys.modules['json']\n"
                "print('broken')\n")
    needing = "import json, threading\nprint(json.dumps([threading.active_count() > 0]))\n"
    with Kernel("numpy", completions=False, spare=True) as kernel:  # (the window's way)
        assert _printed(kernel, breaking)[0] == "broken\n"
        assert _printed(kernel, needing)[0] == "[true]\n"
        assert _printed(kernel, needing)[0] == "[true]\n"  # (a run that changed nothing)


def test_a_null_byte_names_its_line():
    with Kernel("numpy", completions=False) as kernel:
        _, result = _printed(kernel, "x = 1\ny = 2\x00\n")
    assert result.error.line == 2
    assert result.error.message == ("SyntaxError: source code string cannot contain null "
                                    "bytes (line 2).")


def test_a_pool_runs_a_function_the_script_defined():
    code = ("import multiprocessing\ndef square(x):\n    return x * x\n"
            "if __name__ == '__main__':\n    with multiprocessing.Pool(2) as pool:\n"
            "        print(pool.map(square, [1, 2, 3]))\n")
    with Kernel("numpy", completions=False) as kernel:
        printed, result = _printed(kernel, code, timeout=60)
    assert result.error is None and printed == "[1, 4, 9]\n"


def test_completion_never_runs_a_property_of_the_users():
    code = ("class Slow:\n    @property\n    def forever(self):\n        while True:\n"
            "            pass\nobj = Slow()\n")
    with Kernel("numpy") as kernel:
        _printed(kernel, code)
        names = [name for name, _kind in kernel.complete("obj.", 1, 4)]
        assert "forever" in names
        printed, result = _printed(kernel, "print(type(obj).__name__)", fresh=False, timeout=10)
    assert result.error is None and printed == "Slow\n"


def test_a_kernel_that_dies_on_import_says_why():
    """Not "its memory limit": the last line the dying process printed (an engine module
    that fails to import, say) is the one sentence the user reads."""
    import subprocess
    import sys

    from playground.kernel.client import KernelError

    crashing = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stderr.write('Traceback (most recent call "
         "last):\\nNameError: name _missing is not defined\\n'); sys.exit(1)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with pytest.raises(KernelError) as failure:
        Kernel(launched=crashing, spare=False)
    assert str(failure.value) == ("The kernel process failed to start: NameError: name "
                                  "_missing is not defined")
