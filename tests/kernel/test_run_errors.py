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


# The kernel's control pipe, as user code can find it (the kernel's own arguments).
CONTROL_OUT = "import os, struct, sys\nfd = int(sys.argv[4])\n"


@pytest.mark.parametrize("what", ["garbage", "closed"])
def test_garbage_on_the_control_pipe_restarts_the_kernel_not_the_window(what):
    act = {"garbage": "os.write(fd, struct.pack('>I', 40) + b'{not json at all' * 3)\n",
           "closed": "os.close(fd)\nimport time\ntime.sleep(0.5)\n"}[what]
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
