"""Running the same code on real torch and on npgrad, to compare what they print and compute."""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import math
import re
import subprocess
import sys
import warnings

import numpy as np

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def normalize(text: str) -> str:
    """Object addresses differ between any two runs; everything else must be identical."""
    return ADDRESS.sub(" at 0xADDR>", text)


def _importer(torch_module):
    """An ``__import__`` under which ``import torch`` (and torch.nn...) means ``torch_module``."""
    real_import = builtins.__import__

    def import_(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            target = torch_module.__name__ + name[len("torch"):]
            module = importlib.import_module(target)
            return module if fromlist else torch_module
        return real_import(name, globals, locals, fromlist, level)

    return import_


def run_printing(code: str, torch_module, extra: dict | None = None) -> str:
    """Execute ``code`` with ``torch`` bound to ``torch_module``; return what it printed."""
    namespace = {"torch": torch_module, "np": np, "__name__": "__main__",
                 "__builtins__": dict(vars(builtins), __import__=_importer(torch_module))}
    namespace.update(extra or {})
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exec(compile(code, "<tutorial>", "exec"), namespace)
    return normalize(buffer.getvalue())


# torch's CPU kernels that npgrad reproduces bit for bit are the x86 ones torch builds for AVX2
# and AVX-512: compiled with FMA contraction (a*b + c rounded once), sums over 8-lane vectors,
# normal numbers from its AVX2 Box-Muller. Under ATEN_CPU_CAPABILITY=default, on x86 CPUs
# without AVX2 and on ARM, torch runs other code: its last bits differ (measured under DEFAULT
# on an AVX-512 machine: 387 of 1,000 randn values, relative 7e-5 at most; 286 of 1,000 sines).
REPRODUCED_CAPABILITIES = ("AVX2", "AVX512")


def kernels_reproduced(torch) -> bool:
    """Whether torch here runs the CPU kernels npgrad promises to match bit for bit."""
    return torch.backends.cpu.get_cpu_capability() in REPRODUCED_CAPABILITIES


def math_library_exact(torch) -> bool:
    """Whether torch's vector math library (MKL, which its float32 sqrt, exp, log... call)
    gives correctly rounded square roots here, as npgrad's do. On Intel CPUs it does; on others
    it takes a generic path (measured on an AMD EPYC with AVX-512: one ulp off in a fifth of
    float32 square roots), and a script's printed digits may follow. Asked of torch live."""
    if id(torch) not in _MATH_LIBRARY:
        values = np.linspace(1e-4, 1e3, 4096, dtype=np.float32)
        roots = torch.from_numpy(values.copy()).sqrt().numpy()
        _MATH_LIBRARY[id(torch)] = np.array_equal(roots.view(np.uint32),
                                                  np.sqrt(values).view(np.uint32))
    return _MATH_LIBRARY[id(torch)]


_MATH_LIBRARY: dict[int, bool] = {}


def scripts_reproduced(torch) -> bool:
    """Whether npgrad promises a whole script's printed digits to be torch's here: torch runs
    the kernels it reproduces, and its math library rounds as npgrad does."""
    return kernels_reproduced(torch) and math_library_exact(torch)


def assert_torchs_bits(mine, theirs, torch, rtol: float, atol: float = 0.0) -> None:
    """Bit for bit where torch runs the kernels npgrad reproduces; elsewhere within the
    tolerance the caller states for torch's other kernels."""
    mine, theirs = np.asarray(mine), np.asarray(theirs)
    if kernels_reproduced(torch):
        np.testing.assert_array_equal(mine, theirs)
    else:
        np.testing.assert_allclose(mine, theirs, rtol=rtol, atol=atol)


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|[-+]?(?:inf|nan)")


def same_within(expected_text: str, actual_text: str, tolerance: float,
                absolute: float = 0.0, last_place: bool = False) -> bool:
    """The same text but for numbers, which may differ by ``tolerance`` (relative) or by
    ``absolute``, and for the spaces torch pads them with (a sign that differs in one
    element, -0.0000 for 0.0000, takes the place of a column's padding space). With
    ``last_place`` a number may also differ by one unit in the last place printed: values
    within the tolerance either side of a rounding boundary print so (-0.7244 and -0.7243)."""
    if _between_numbers(expected_text) != _between_numbers(actual_text):
        return False
    for want, got in zip(_NUMBER.findall(expected_text), _NUMBER.findall(actual_text),
                         strict=True):
        if want == got:
            continue
        a, b = float(want), float(got)
        slack = max(absolute, _unit_in_last_place(want) * 1.000001 if last_place else 0.0)
        if not (math.isclose(a, b, rel_tol=tolerance, abs_tol=slack)
                or (math.isnan(a) and math.isnan(b))):
            return False
    return True


def _unit_in_last_place(number: str) -> float:
    """One unit in the last decimal a printed number shows: 1e-4 for -0.7244, 1e-9 for
    1.5000e-05; 0 for a whole number (a count: 38929, a step) and for inf and nan."""
    mantissa, _, exponent = number.lower().partition("e")
    if "." not in mantissa or not any(character.isdigit() for character in mantissa):
        return 0.0
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def _between_numbers(text: str) -> list[str]:
    return [part.replace(" ", "") for part in _NUMBER.split(text)]


def assert_prints_as_torch(mine: str, theirs: str, torch, tolerance: float,
                           absolute: float = 0.0) -> None:
    """Printed text identical where torch runs the kernels npgrad reproduces; elsewhere the
    same text with numbers within ``tolerance`` (relative) or ``absolute``."""
    if scripts_reproduced(torch):
        assert mine == theirs
    else:
        assert same_within(theirs, mine, tolerance, absolute), (theirs, mine)


def node_names(tensor) -> list[str]:
    """The names of the nodes of ``tensor``'s graph, depth first from its grad_fn, each once
    (the same walk on torch's graph and the engine's)."""
    seen, order, waiting = set(), [], [tensor.grad_fn]
    while waiting:
        node = waiting.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        order.append(type(node).__name__)
        waiting.extend(next_node for next_node, _ in reversed(node.next_functions))
    return order


def _printed(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    return normalize(done.stdout)


def printed_by_playground(script: str, folder) -> str:
    """What ``playground run`` (the NumPy engine's kernel) prints of ``script``."""
    path = folder / "script.py"
    path.write_text(script, encoding="utf-8")
    return _printed([sys.executable, "-m", "playground", "run", str(path)])


def assert_playground_prints_as_torch(script: str, folder) -> None:
    """``script`` run by python with real torch and by ``playground run`` (the NumPy engine's
    kernel) prints the same text, each in a fresh interpreter: in the suite's own process
    earlier tests leave torch's global state changed (its distributions' argument checks off,
    a once-only warning already seen)."""
    import pytest

    pytest.importorskip("torch")
    path = folder / "script.py"
    path.write_text(script, encoding="utf-8")
    assert _printed([sys.executable, "-m", "playground", "run", str(path)]) == \
        _printed([sys.executable, str(path)])


def assert_playground_prints_as_torch_within(script: str, folder, tolerance: float,
                                             last_place: bool = False) -> None:
    """As assert_playground_prints_as_torch, but each number printed may differ from torch's
    by ``tolerance`` (relative): for float32 matrix products, which MKL rounds otherwise;
    with ``last_place``, by one unit in the last place printed too (same_within)."""
    import pytest

    pytest.importorskip("torch")
    path = folder / "script.py"
    path.write_text(script, encoding="utf-8")
    mine = _printed([sys.executable, "-m", "playground", "run", str(path)])
    theirs = _printed([sys.executable, str(path)])
    assert same_within(theirs, mine, tolerance, last_place=last_place), (theirs, mine)


# The head of a script that walks through many calls, some of which torch refuses:
# ``show(name, make)`` prints what ``make()`` returns, or the error's type and message.
SHOW = """
def show(name, make):
    try:
        print(name, make())
    except Exception as ex:
        print(name, type(ex).__name__, ex)
"""
