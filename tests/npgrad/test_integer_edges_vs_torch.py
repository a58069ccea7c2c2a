"""Integer, bool and empty tensors at their edges, on npgrad against real torch, run here:
integer division and remainders by zero (torch's ZeroDivisionError; NumPy gives 0), bools
where torch has no kernel, integers to negative integer powers element by element (0, or ±1
for ±1), std and var refused for integers (they computed 0), reductions over no elements
(NaN or -inf, without NumPy's warnings; amax over an empty dimension refused), uint8 images
summed and divided."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.oracle import SHOW, normalize

SCRIPT = SHOW + """
import torch

img = torch.arange(0, 256, 37, dtype=torch.uint8)
show("u8 sum 0", lambda: img.sum())
show("u8 sum 1", lambda: img.sum().dtype)
show("u8 sum 2", lambda: img.prod().dtype)
show("u8 sum 3", lambda: img.cumsum(0).dtype)
show("u8 sum 4", lambda: img.mean(dtype=torch.float32))
show("u8 float 0", lambda: img.float() / 255)
show("u8 float 1", lambda: img / 255)
show("u8 float 2", lambda: (img / 255).dtype)
show("u8 float 3", lambda: img.div(2))
show("u8 float 4", lambda: img.true_divide(3).dtype)
show("i8 sum", lambda: torch.tensor([100, 100], dtype=torch.int8).sum())
show("i8 max", lambda: torch.tensor([100, -128], dtype=torch.int8).abs())
show("int div0", lambda: torch.tensor([1, 2]) // 0)
show("int rem0", lambda: torch.tensor([1, 2]) % 0)
show("int div0 t", lambda: torch.tensor([1, 2]) // torch.tensor([0, 1]))
show("int pow neg", lambda: torch.tensor([2]) ** (-1))
show("int pow neg t", lambda: torch.tensor([2]) ** torch.tensor([-1]))
show("shift 0", lambda: torch.tensor([1], dtype=torch.int8) << 7)
show("shift 1", lambda: torch.tensor([1]) << 64)
show("shift 2", lambda: torch.tensor([-8]) >> 1)
show("shift 3", lambda: torch.tensor([1], dtype=torch.uint8) << 9)
show("bitwise 0", lambda: ~torch.tensor([0, 5], dtype=torch.uint8))
show("bitwise 1", lambda: ~torch.tensor([True, False]))
show("bitwise 2", lambda: torch.tensor([5]) ^ 3)
show("bitwise 3", lambda: torch.tensor([True]) & torch.tensor([1]))
show("int inplace float", lambda: torch.tensor([1, 2]).mul_(1.5))
show("int inplace div", lambda: torch.tensor([1, 2]).div_(2))
show("int float ops 0", lambda: torch.tensor([4]).sqrt())
show("int float ops 1", lambda: torch.tensor([4]).exp().dtype)
show("int float ops 2", lambda: torch.tensor([1, 2]).sigmoid())
show("int float ops 3", lambda: torch.tensor([3]).log2())
show("int round 0", lambda: torch.tensor([3]).round())
show("int round 1", lambda: torch.tensor([3]).floor())
show("int round 2", lambda: torch.tensor([-3]).sign())
show("int round 3", lambda: torch.tensor([5]).clamp(0, 3))
show("int mean", lambda: torch.tensor([1, 2]).float().mean())
show("int std", lambda: torch.tensor([1, 2]).std())
show("bool ops 0", lambda: torch.tensor([True, True]).sum())
show("bool ops 1", lambda: torch.tensor([True]) + torch.tensor([True]))
show("bool ops 2", lambda: torch.tensor([True, False]).float().mean())
show("bool ops 3", lambda: torch.tensor([True]) * 3)
show("argmax int 0", lambda: torch.tensor([1, 3, 3]).argmax())
show("argmax int 1", lambda: torch.tensor([3, 1, 1]).argmin())
show("argmax int 2", lambda: torch.tensor([[1, 5], [5, 1]]).argmax(1))
show("int matmul 0", lambda: torch.tensor([[1, 2]]) @ torch.tensor([[3], [4]]))
show("int matmul 1", lambda: torch.tensor([[1, 2]], dtype=torch.int8)
     @ torch.tensor([[100], [100]], dtype=torch.int8))
show("int matmul float", lambda: torch.tensor([[1, 2]]) @ torch.tensor([[3.0], [4.0]]))
show("int to float16 0", lambda: torch.tensor([70000]).half())
show("int to float16 1", lambda: torch.tensor([2 ** 53 + 1]).double().long())
show("int to float16 2", lambda: torch.tensor([10000000000.0]).int())
show("int to float16 3", lambda: torch.tensor([-1.5, 2.5]).long())
show("int to float16 4", lambda: torch.tensor([float('nan')]).long())
show("uint8 neg", lambda: -torch.tensor([1], dtype=torch.uint8))
show("unique int", lambda: torch.unique(torch.tensor([3, 1, 2, 3, 1]), return_counts=True))
show("histc int", lambda: torch.histc(torch.tensor([1, 2, 3])))
show("linspace int 0", lambda: torch.linspace(0, 10, 4, dtype=torch.int64))
show("linspace int 1", lambda: torch.arange(0, 1, 0.25))
show("linspace int 2", lambda: torch.arange(5, dtype=torch.float16))
show("linspace int 3", lambda: torch.arange(-1, 1, 0.5).dtype)
show("arange float steps 0", lambda: torch.arange(0, 0.3, 0.1))
show("arange float steps 1", lambda: len(torch.arange(1, 2.0000001, 0.1)))
show("arange float steps 2", lambda: torch.arange(10 ** 8, 10 ** 8 + 3, dtype=torch.float32))
show("int empty reduce 0", lambda: torch.tensor([], dtype=torch.int64).sum())
show("int empty reduce 1", lambda: torch.tensor([]).mean())
show("int empty reduce 2", lambda: torch.tensor([]).prod())
show("int empty max", lambda: torch.tensor([], dtype=torch.int64).max())
show("int64 overflow 0", lambda: torch.tensor([2 ** 62]) * 4)
show("int64 overflow 1", lambda: torch.tensor([2 ** 63 - 1]) + 1)
show("int64 overflow 2", lambda: torch.iinfo(torch.int64).max)
show("finfo 0", lambda: torch.finfo(torch.float32).eps)
show("finfo 1", lambda: torch.finfo(torch.float16).max)
show("finfo 2", lambda: torch.finfo().tiny)
show("finfo 3", lambda: torch.iinfo(torch.uint8))
show("fmod", lambda: torch.tensor([1]).fmod(0))
show("fmod t", lambda: torch.tensor([1]).fmod(torch.tensor([0])))
show("rem t", lambda: torch.tensor([1]).remainder(torch.tensor([0])))
show("rrem", lambda: 5 % torch.tensor([0, 1]))
show("u8 rem", lambda: torch.tensor([1], dtype=torch.uint8) % 0)
show("bool rem", lambda: torch.tensor([True]) % torch.tensor([False]))
show("float rem", lambda: torch.tensor([1.0]) % 0)
show("int rem float", lambda: torch.tensor([1]) % 0.0)
show("int rem ok 0", lambda: torch.tensor([7, -7]) % torch.tensor([3, 3]))
show("int rem ok 1", lambda: torch.tensor([7]).fmod(-3))
show("int rem ok 2", lambda: torch.tensor([7, -7]).remainder(-3))
show("pow 0", lambda: torch.tensor([2, 3]) ** torch.tensor([-1, 2]))
show("pow 1", lambda: torch.tensor([1, -1, 2]) ** torch.tensor([-2, -3, 0]))
show("pow 2", lambda: torch.tensor([2]).pow(torch.tensor(-1)))
show("pow 3", lambda: torch.pow(torch.tensor([0]), torch.tensor([-1])))
show("pow scalar", lambda: torch.tensor([2]) ** (-1))
show("pow scalar base", lambda: 2 ** torch.tensor([-1, 3]))
show("pow u8",
     lambda: torch.tensor([2], dtype=torch.uint8) ** torch.tensor([-1], dtype=torch.uint8))
show("pow i8",
     lambda: torch.tensor([2, -2], dtype=torch.int8) ** torch.tensor([7, 7], dtype=torch.int8))
show("pow big", lambda: torch.tensor([3]) ** torch.tensor([50]))
show("std", lambda: torch.tensor([1, 2]).var())
show("std dim", lambda: torch.tensor([[1, 2]]).std(1))
show("std int", lambda: torch.tensor([1, 2]).std())
show("var_mean", lambda: torch.var_mean(torch.tensor([1, 2])))
show("std_mean", lambda: torch.std_mean(torch.tensor([True])))
show("empty mean 0", lambda: torch.tensor([]).mean())
show("empty mean 1", lambda: torch.tensor([]).var())
show("empty mean 2", lambda: torch.zeros(0, 3).mean(0))
show("empty mean 3", lambda: torch.zeros(0, 3).std(0))
show("empty mean 4", lambda: torch.tensor([1.0]).std())
show("empty mean 5", lambda: torch.zeros(0, 3).amax(1))
show("std twice", lambda: (torch.zeros(0, 3).std(0), torch.tensor([1.]).std()))
show("empty amax", lambda: torch.zeros(0, 3).amax(0))
show("empty sum 0", lambda: torch.zeros(0, 3).sum(0))
show("empty sum 1", lambda: torch.zeros(0).prod())
show("empty sum 2", lambda: torch.zeros(0).norm())
show("empty sum 3", lambda: torch.zeros(0, 2).logsumexp(0))
show("empty sum 4", lambda: torch.zeros(0).cumsum(0))
show("floordiv bool", lambda: torch.tensor([True]) // torch.tensor([True]))
show("bool fmod", lambda: torch.tensor([True]).fmod(torch.tensor([True])))
show("bool rem scalar", lambda: torch.tensor([True]) % True)
show("bool rem int", lambda: torch.tensor([True]) % 2)
show("rrem bool", lambda: True % torch.tensor([True]))
show("int % bool tensor", lambda: torch.tensor([3]) % torch.tensor([True]))
show("rrem zero in t", lambda: 7 % torch.tensor([2, 0]))
show("rrem ok", lambda: 7 % torch.tensor([2, -3]))
show("fmod_ zero", lambda: torch.tensor([2]).fmod_(0))
show("rem_ zero", lambda: torch.tensor([2]).remainder_(torch.tensor([0])))
show("p1", lambda: torch.tensor([2, 3]) ** torch.tensor([-1, 2]))
show("p2", lambda: torch.tensor([1, -1, 2]) ** torch.tensor([-2, -3, 0]))
show("p3", lambda: torch.tensor([2]).pow(torch.tensor(-1)))
show("p4", lambda: torch.pow(torch.tensor([0]), torch.tensor([-1])))
show("p5", lambda: torch.tensor([-1, 1, 0]).pow(-2))
show("p6", lambda: torch.pow(-1, torch.tensor([-3, -2])))
show("p7", lambda: torch.tensor([2]).pow_(torch.tensor([-1])))
"""


def _streams(command: list[str]) -> tuple[str, str]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    return normalize(done.stdout), done.stderr


def test_integer_bool_and_empty_edges_as_in_torch(tmp_path):
    """stdout and stderr both: torch's warnings (each once per line, as Python shows them)
    and none of NumPy's."""
    pytest.importorskip("torch")
    path = tmp_path / "edges.py"
    path.write_text(SCRIPT, encoding="utf-8")
    theirs = _streams([sys.executable, str(path)])
    assert _streams([sys.executable, "-m", "playground", "run", str(path)]) == theirs
    assert theirs[1].count("UserWarning: std(): degrees of freedom") == 3  # twice on a line
