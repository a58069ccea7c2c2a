"""The forked python oracle gives what plain ``python NAME`` gives, for the kinds of script the
corpus has: printing, warnings printed once, random numbers, a traceback, ``sys.exit`` with a
message, threads and atexit, ``input()`` at end of input, torch's thread pool after the fork."""

from __future__ import annotations

import pytest

from tests.python_oracle import PythonOracle, plain_python, torch_available

pytestmark = pytest.mark.skipif(not torch_available(), reason="the oracle is real torch, "
                                "which is not installed")

SCRIPTS = {
    "printing.py": "import torch\ntorch.manual_seed(3)\n"
                   "x = torch.linspace(0, 1, 7, requires_grad=True)\n"
                   "y = (x.sin() ** 2).sum()\ny.backward()\nprint(y, x.grad)\n"
                   "print(torch.randn(3), torch.rand(2, 2))\n",
    "warned.py": "import torch\nx = torch.ones(2, requires_grad=True)\ny = x * 2\n"
                 "for _ in range(2):\n    print(y.grad)\n",
    "raising.py": "import torch\n\ndef f(x):\n    return x.backward()\n\n"
                    "f(torch.ones(2, requires_grad=True) * 2)\n",
    "exit_message.py": "import sys\nprint('bye')\nsys.exit('the end')\n",
    "threads.py": "import atexit, threading, time\natexit.register(print, 'at exit')\n"
                  "def late():\n    time.sleep(0.2)\n    print('late')\n"
                  "threading.Thread(target=late).start()\nprint('main', input.__name__)\n"
                  "try:\n    input()\nexcept EOFError:\n    print('end of input')\n",
    "threaded_torch.py": "import torch\nprint(torch.get_num_threads() >= 1)\n"
                         "a = torch.ones(300, 300)\nprint((a @ a).sum(), __file__[-19:])\n",
}


@pytest.fixture(scope="module")
def oracle():
    made = PythonOracle({"PYTHONHASHSEED": "0"})
    yield made
    made.close()


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_forked_run_is_a_plain_python_run(name, oracle, tmp_path):
    script = tmp_path / name
    script.write_text(SCRIPTS[name])
    expected = plain_python(script, {"PYTHONHASHSEED": "0"})
    assert oracle.run(script) == expected
    assert expected["stdout"] or expected["stderr"]  # the comparison says something
