"""Writing one kind of values into another tensor, on npgrad against real torch, run here:
in place and through out=, integers of either sign go into each other (int16 results into
a uint8 tensor wrap; NumPy's same_kind refused them), never a float into an integer, a
complex into a float or anything into a bool; bitwise ops refuse floating types with torch's
NotImplementedError naming the type."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + """
import torch

f = torch.tensor([1., 2.])
for a in ("f", "f.double()", "f.half()", "torch.tensor([1j])", "torch.tensor([1])"):
    for op in ("&", "|", "^"):
        show(f"{a} {op}", lambda: eval(f"{a} {op} {a}"))
show("and int float", lambda: torch.tensor([1]) & f)
show("and float int", lambda: f & 1)
show("inplace uint8 int8", lambda: torch.tensor([1], dtype=torch.uint8)
     .add_(torch.tensor([-2], dtype=torch.int8)))
show("inplace int8 uint8", lambda: torch.tensor([1], dtype=torch.int8)
     .add_(torch.tensor([200], dtype=torch.uint8)))
show("inplace int float", lambda: torch.tensor([1]).add_(torch.tensor([1.5])))
show("inplace bool int", lambda: torch.tensor([True]).add_(torch.tensor([1])))
show("inplace float complex", lambda: torch.tensor([1.]).add_(torch.tensor([1j])))
show("out uint8", lambda: torch.add(torch.tensor([1], dtype=torch.uint8),
                                    torch.tensor([-2], dtype=torch.int8),
                                    out=torch.empty(1, dtype=torch.uint8)))
show("out int float", lambda: torch.add(torch.tensor([1]), torch.tensor([1.5]),
                                        out=torch.empty(1, dtype=torch.int64)))
show("out float int", lambda: torch.add(torch.tensor([1]), torch.tensor([2]), out=torch.empty(1)))
show("copy_", lambda: torch.empty(1, dtype=torch.uint8).copy_(torch.tensor([-1.7])))
"""


def test_writes_across_kinds_as_in_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
