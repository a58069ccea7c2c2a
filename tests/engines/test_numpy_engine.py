"""User code's torch imports resolve to npgrad under the NumPy engine, and only there."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

import playground.npgrad as npgrad
from playground.engines.numpy_engine import torch_is_npgrad


def test_every_import_form_resolves_to_the_engine():
    with torch_is_npgrad():
        import torch
        import torch as t
        import torch.nn.functional as F
        from torch import autograd, tensor

        assert torch is npgrad and t is npgrad
        assert tensor is npgrad.tensor and autograd is npgrad.autograd
        assert F is npgrad.nn.functional
        assert torch.autograd.grad is npgrad.autograd.grad


def test_real_torch_comes_back_after_the_block():
    import torch as real_before

    with torch_is_npgrad():
        import torch

        assert torch is npgrad
    import torch as real_after

    assert real_after is real_before and real_after is not npgrad



def test_the_blocks_nest_and_leave_no_torch_name_behind():
    """Each block takes out the torch names it gave (an inner one's submodules too) and any
    put into sys.modules by hand; the outer block's are as they were after an inner one."""
    import torch as real

    with torch_is_npgrad():
        import torch.nn as outer_nn

        with torch_is_npgrad():
            import torch.optim

            assert torch.optim is npgrad.optim
            sys.modules["torch.by_hand"] = npgrad
        assert "torch.by_hand" not in sys.modules and "torch.optim" not in sys.modules
        assert sys.modules["torch.nn"] is outer_nn is npgrad.nn
        sys.modules["torch.by_hand"] = npgrad
    assert "torch.by_hand" not in sys.modules
    assert sys.modules["torch"] is real and sys.modules["torch.nn"] is real.nn

def test_playground_runs_a_script_on_the_engine(tmp_path):
    script = tmp_path / "tutorial.py"
    script.write_text(textwrap.dedent("""
        import sys
        import torch
        x = torch.ones(2, 2, requires_grad=True)
        out = ((x + 2) * (x + 2) * 3).mean()
        out.backward()
        print(out)
        print(x.grad)
        print("torch" in sys.modules, torch.__name__, type(x))
    """))
    result = subprocess.run([sys.executable, "-m", "playground", "run", str(script)],
                            capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout == (
        "tensor(27., grad_fn=<MeanBackward0>)\n"
        "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"
        "True playground.npgrad <class 'torch.Tensor'>\n"
    )


@pytest.mark.parametrize(("message", "lacking"), [
    ("module 'torch.linalg' has no attribute 'lstsq' in the built-in NumPy engine; if real "
     "torch has it, switch the engine to torch", "torch.linalg.lstsq"),
    ("'Tensor' object has no attribute 'cummax' in the built-in NumPy engine; if real torch "
     "has it, switch the engine to torch", "Tensor.cummax"),
    ("No module named 'torch.func.x' in the built-in NumPy engine; if real torch has it, "
     "switch the engine to torch", "torch.func.x"),
    ("cannot import name 'cpp_extension' from 'torch.utils' in the built-in NumPy engine; if "
     "real torch has it, switch the engine to torch", "torch.utils.cpp_extension"),
    ("LBFGS(line_search_fn='strong_wolfe') is not in the built-in NumPy engine; switch the "
     "engine to torch", "LBFGS(line_search_fn='strong_wolfe')"),
    ("'Tensor' object has no attribute 'sizee'. Did you mean: 'size'?", ""),
    ("'Gamma' object has no attribute 'support' in the built-in NumPy engine; if real torch "
     "has it, switch the engine to torch", "Gamma.support"),
    ("'Net' object has no attribute 'fc3'", ""),
    ("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)", ""),
])
def test_what_the_engine_lacks_is_read_from_what_it_says(message, lacking):
    from playground.engines.numpy_engine import lacking_in

    assert lacking_in(message) == lacking


PROCESS_STATE_AFTER = """
import sys
from playground.engines.base import run_code
from playground.engines.numpy_engine import NumpyEngine
from playground.kernel import fingerprint

engine = NumpyEngine()
before = fingerprint.capture(engine)["engine"]
run_code(sys.argv[1], engine)
print(fingerprint.unchanged(before, fingerprint.capture(engine)["engine"]))
"""
USES_LAZY_LAYERS = """import torch
import torch.nn.functional as F
x = torch.randn(4, 3, requires_grad=True)
loss = F.cross_entropy(F.selu(x), torch.tensor([0, 1, 2, 0])) + torch.nn.ZeroPad2d(1)(x).sum()
loss.backward()
"""


# A dual level opened and closed: the engine's tangent hooks are let go again.
USES_FORWARD_MODE = """import torch
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    dual = fwAD.make_dual(torch.ones(3), torch.ones(3))
    pieces = dual.sin().split(1)
"""


@pytest.mark.parametrize(("script", "changed"), [
    (USES_LAZY_LAYERS, False),
    (USES_FORWARD_MODE, False),
    ("import torch.nn.functional as F\nF.selu = abs\n", True),
    ("import torch.nn.functional as F\nF.selu\nF.selu = abs\n", True),
    ("import torch\ntorch.nn.ZeroPad2d\ntorch.nn.padding.ZeroPad2d = lambda: 0\n", True),
])
def test_layers_loaded_on_first_use_leave_the_process_as_a_new_one_would_find_it(
        script, changed):
    """A script whose layers the engine loads on first use (cross_entropy, selu, padding)
    lets the next fresh run use the same warm kernel; one that replaces such a name does
    not (kernel/fingerprint.py)."""
    result = subprocess.run([sys.executable, "-c", PROCESS_STATE_AFTER, script],
                            capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout.splitlines()[-1] == str(not changed)
