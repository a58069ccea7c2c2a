"""Scripts that run fine but leave values the graph builder cannot read as plain arrays: the
kernel reports what it can, keeps the namespace, and never dies (issue 20, item 5)."""

from __future__ import annotations

import pytest

from playground.kernel.client import Kernel

HOSTILE = {
    "bfloat16": "w = torch.ones(3, dtype=torch.bfloat16, requires_grad=True)\n"
                "(w * 2).sum().backward()\n",
    "sparse": "s = torch.eye(3).to_sparse().requires_grad_()\n",
    "meta": "m = torch.empty(4, device='meta', requires_grad=True)\ny = m * 2\n",
    "complex": "c = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)\n"
               "(c * c.conj()).real.sum().backward()\n",
    "getattr": "class Sly:\n    def __getattr__(self, name):\n        raise RuntimeError('no')\n"
               "sly = Sly()\nw = torch.ones(2, requires_grad=True)\n",
    "class": "class Masked:\n    @property\n    def __class__(self):\n"
             "        raise RuntimeError('no class')\nmasked = Masked()\n",
    "named_parameters": "class Fake:\n    def named_parameters(self):\n"
                        "        raise RuntimeError('no parameters')\nfake = Fake()\n",
    "key_repr": "class Key:\n    def __repr__(self):\n        raise RuntimeError('no repr')\n"
                "    def __hash__(self):\n        return 1\n"
                "table = {Key(): torch.ones(2, requires_grad=True)}\n",
}


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_values_the_builder_cannot_read_never_end_the_kernel(engine):
    with Kernel(engine, "cpu") as kernel:
        for name, body in HOSTILE.items():
            if engine == "numpy" and name == "complex":
                continue  # torch-only tensors
            result = kernel.run("import torch\nkept = 41\n" + body, f"{name}.py")
            assert result.error is None or result.error.kind == "exception", (name, result.error)
            assert "ended the kernel" not in (result.error.message if result.error else "")
            assert "Traceback" not in result.output, (name, result.output)
            # the kernel lived on, with the namespace of that run
            after = kernel.run("print(kept + 1)", "after.py", fresh=False)
            assert after.ok and after.output == "42\n", (name, after.error, after.output)
