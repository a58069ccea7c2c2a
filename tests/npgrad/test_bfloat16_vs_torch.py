"""bfloat16 tensors on the NumPy engine, against torch run here: every float32 rounds to the
bfloat16 torch makes of it (bit for bit, halfway cases and NaN included), Python numbers and
float64 arrays by way of float32 as torch converts them; such tensors print, convert and
answer questions about themselves as torch's do (and a NumPy array of two-byte voids is
still refused as torch refuses it); computing with them, or autograd through
them, is refused saying so and naming the torch engine."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad._bfloat16 import rounded_to_bfloat16
from tests.oracle import assert_playground_prints_as_torch, printed_by_playground

pytest.importorskip("torch")


def _float32_cases() -> np.ndarray:
    """Random bit patterns (NaNs, infinities and subnormals among them), every halfway case
    around both parities, and the largest floats, which round up to infinity."""
    generator = np.random.default_rng(5)
    random_bits = generator.integers(0, 2**32, 200_000, dtype=np.uint64).astype(np.uint32)
    high = generator.integers(0, 2**16, 4_000, dtype=np.uint64).astype(np.uint32) << 16
    halfway = np.concatenate([high | 0x8000, high | 0x7FFF, high | 0x8001, high])
    edges = np.array([0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0x00008000, 0x80000001,
                      0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001, 0x7F800001],
                     dtype=np.uint32)
    return np.concatenate([random_bits, halfway, edges]).view(np.float32)


def test_float32_rounds_as_torch_rounds_it(torch):
    values = _float32_cases()
    theirs = torch.from_numpy(values).to(torch.bfloat16).float().numpy()
    mine = rounded_to_bfloat16(values)
    nan = np.isnan(theirs)
    assert np.array_equal(np.isnan(mine), nan)
    assert np.array_equal(mine[~nan].view(np.uint32), theirs[~nan].view(np.uint32))


def test_numbers_and_float64_round_by_way_of_float32(torch, engine):
    generator = np.random.default_rng(6)
    doubles = np.concatenate([generator.standard_normal(5_000) * 10.0 ** generator.integers(
        -30, 30, 5_000), [1 / 3, 0.1, 1.00390625 + 2**-40, 1.01171875 - 2**-40, 3.0e38, 1e-40]])
    for data in (doubles, doubles.tolist()):
        theirs = torch.tensor(data, dtype=torch.bfloat16).float().numpy()
        mine = engine.tensor(data, dtype=engine.bfloat16).float().numpy()
        assert np.array_equal(mine.view(np.uint32), theirs.view(np.uint32))
    integers = np.arange(-70_000, 70_000, 7, dtype=np.int64) * 1_001
    assert np.array_equal(engine.from_numpy(integers).bfloat16().float().numpy(),
                          torch.from_numpy(integers).bfloat16().float().numpy())


PRINTED = r'''
import torch
b = torch.tensor([[0.1, -2.5, 1 / 3], [1e4, 7.0, -0.0]], dtype=torch.bfloat16)
print(b)
print(b.dtype, b.shape, b.size(1), b.dim(), b.numel(), len(b), b.element_size(), b.nbytes)
print(b.is_floating_point(), b.is_complex(), b.requires_grad, b.grad_fn, b.is_leaf, b.type())
print(b.float(), b.double(), b.half(), b.long(), b.int(), b.bool(), sep="\n")
print(b.to(torch.float32).dtype, b.tolist())
print(torch.tensor(2.75, dtype=torch.bfloat16).item(),
      float(torch.tensor([9.1], dtype=torch.bfloat16)))
print(torch.tensor([1e-30, 3e38, float("inf"), float("nan"), 123456.0], dtype=torch.bfloat16))
print(torch.tensor([1, 2, 3], dtype=torch.bfloat16), torch.tensor(0.5, dtype=torch.bfloat16))
print(torch.tensor([], dtype=torch.bfloat16), torch.arange(12).reshape(3, 4).bfloat16())
print(torch.linspace(-1, 1, 7, dtype=torch.float64).to(torch.bfloat16))
print(torch.tensor([0.3], dtype=torch.bfloat16, device="meta"))
torch.manual_seed(0)
x = torch.randn(3, 4, requires_grad=True)
with torch.no_grad():
    print(x.bfloat16())
h = x.detach().to(dtype=torch.bfloat16)
print(h.bfloat16() is h, h.to(torch.bfloat16) is h, h.data.dtype, h.detach().dtype)
print(torch.tensor(h.float() * 2), torch.as_tensor(h).dtype, torch.tensor(h, dtype=torch.float64))
try:
    h.numpy()
except TypeError as error:
    print("TypeError:", error)
import numpy as np
print(torch.as_tensor(np.array([0.1, 2.5], dtype=np.float32), dtype=torch.bfloat16),
      torch.as_tensor([1 / 3], dtype=torch.bfloat16))
for array in (np.zeros(2, "V2"), np.array([None]), np.array(["ab"])):  # (a void is no bfloat16)
    for make in (torch.from_numpy, torch.as_tensor, torch.tensor):
        try:
            make(array)
        except TypeError as error:
            print("TypeError:", error)
'''


def test_bfloat16_tensors_print_and_convert_as_torch(tmp_path):
    assert_playground_prints_as_torch(PRINTED, tmp_path)


REFUSED = r'''
import torch
b = torch.tensor([1.5, -2.0, 0.25], dtype=torch.bfloat16)
x = torch.ones(3, requires_grad=True)
for compute in (lambda: b + 1, lambda: b * b, lambda: b.sum(), lambda: b.mean(), lambda: b[0],
                lambda: b.exp(), lambda: b @ b, lambda: torch.equal(b, b), lambda: b.reshape(3, 1),
                lambda: torch.relu(b), lambda: b.clone(), lambda: b.zero_(), lambda: b > 0,
                lambda: torch.zeros(2, dtype=torch.bfloat16), lambda: torch.zeros_like(b),
                lambda: torch.tensor([1.0], dtype=torch.bfloat16, requires_grad=True),
                lambda: x.bfloat16(), lambda: b.requires_grad_()):
    try:
        compute()
        print("computed")
    except NotImplementedError as error:
        print(str(error).split(" is not in the built-in NumPy engine")[0], "|",
              str(error).endswith("switch the engine to torch"))
'''


def test_computing_with_bfloat16_is_refused_saying_so(tmp_path):
    lines = printed_by_playground(REFUSED, tmp_path).splitlines()
    assert len(lines) == 18 and "computed" not in lines
    assert all(line.endswith("| True") for line in lines)
    assert lines.count("autograd through bfloat16 tensors | True") == 3
    assert lines[0] in ("computing with bfloat16 tensors | True",
                        "this use of bfloat16 tensors | True")
