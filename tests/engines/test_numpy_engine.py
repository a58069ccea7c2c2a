"""User code's torch imports resolve to npgrad under the NumPy engine, and only there."""

from __future__ import annotations

import subprocess
import sys
import textwrap

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
        print("torch" in sys.modules, type(x).__module__)
    """))
    result = subprocess.run([sys.executable, "-m", "playground", "run", str(script)],
                            capture_output=True, text=True, check=True, timeout=60)
    assert result.stdout == (
        "tensor(27., grad_fn=<MeanBackward0>)\n"
        "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"
        "True playground.npgrad._tensor\n"
    )
