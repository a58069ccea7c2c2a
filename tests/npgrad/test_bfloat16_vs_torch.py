"""bfloat16 tensors on the NumPy engine, against torch run here: every float32 rounds to the
bfloat16 torch makes of it (bit for bit, halfway cases and NaN included), Python numbers and
float64 arrays by way of float32 as torch converts them; such tensors print, convert and
answer questions about themselves as torch's do (and a NumPy array of two-byte voids is
still refused as torch refuses it). Computed with, each op gives torch's dtype and its values
within a unit of bfloat16's last place (torch's kernels round once in float32, NumPy's steps
may round between), gradients too; every value such a tensor holds is a bfloat16 number."""

from __future__ import annotations

import numpy as np
import pytest

from playground.npgrad._bfloat16 import rounded_to_bfloat16
from tests.oracle import (
    assert_playground_prints_as_torch,
    assert_playground_prints_as_torch_within,
)

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


COMPUTED = r'''
import math
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x, y = torch.randn(3, 4).bfloat16(), torch.randn(3, 4).bfloat16()
m, f, z = torch.randn(4, 5).bfloat16(), torch.randn(3, 4), torch.tensor(1.5)
ops = {
    "exp": lambda: x.exp(), "log": lambda: x.abs().log(), "tanh": lambda: x.tanh(),
    "sigmoid": lambda: x.sigmoid(), "relu": lambda: x.relu(), "pow": lambda: x ** 2,
    "sub": lambda: x - y, "div": lambda: x / y, "number": lambda: 3.3 * x + 0.1,
    "float32": lambda: x + f, "0-d float32": lambda: x * z, "matmul": lambda: x @ m,
    "addmm": lambda: torch.addmm(m[0], x, m), "linear": lambda: F.linear(x, m.t(), m[0]),
    "bmm": lambda: torch.bmm(x[None], m[None]), "sum": lambda: x.sum(1),
    "float32 sum": lambda: x.sum(dtype=torch.float32), "mean": lambda: x.mean(),
    "amax": lambda: x.amax(0), "std": lambda: x.std(1), "cumsum": lambda: x.cumsum(1),
    "softmax": lambda: x.softmax(-1), "log_softmax": lambda: x.log_softmax(-1),
    "view": lambda: x.t().reshape(2, 6), "cat": lambda: torch.cat([x, y]), "item": lambda: x[0, 0],
    "where": lambda: torch.where(x > 0, x, y), "gelu": lambda: F.gelu(x),
    "layer_norm": lambda: F.layer_norm(x, (4,)), "mse": lambda: F.mse_loss(x, y),
    "masked_fill": lambda: x.masked_fill(x > 0, -math.inf), "float": lambda: x.float(),
}
for name, op in ops.items():
    out = op()
    print(name, out.dtype, out.float().flatten().tolist())
w = torch.randn(4, dtype=torch.bfloat16, requires_grad=True)
v = torch.randn(3, 4, dtype=torch.bfloat16, requires_grad=True)
loss = (v * w).tanh().sum()
loss.backward()
print(loss.dtype, loss.grad_fn.name(), w.grad.dtype, w.grad.float().tolist(),
      v.grad.float().tolist())
layer = torch.nn.Linear(4, 2).bfloat16()
out = layer(v.detach()).relu().mean()
out.backward()
print(out.dtype, out.grad_fn.name(), layer.weight.grad.dtype, layer.weight.grad.float().tolist())
'''

# a unit in bfloat16's last place, relative (2^-7), twice: one rounding each side
BFLOAT16_TOLERANCE = 2 * 2.0 ** -7


def test_computing_with_bfloat16_gives_torchs_dtypes_and_values(tmp_path):
    assert_playground_prints_as_torch_within(COMPUTED, tmp_path, BFLOAT16_TOLERANCE)


def test_every_bfloat16_result_holds_bfloat16_numbers():
    import playground.npgrad as npgrad
    import playground.npgrad.nn.functional as F

    npgrad.manual_seed(1)
    x = npgrad.randn(4, 6).bfloat16().requires_grad_()
    weight = npgrad.randn(6, 3).bfloat16().requires_grad_()
    results = [x.exp(), x @ weight, F.softmax(x, -1), x.sum(0), F.linear(x, weight.t()),
               x.tanh() * 1.1, x.mean(), F.layer_norm(x, (6,)), x[1:, ::2] * 3]
    total = sum(r.float().sum() for r in results)
    (x.sigmoid() @ weight).sum().backward()
    total.backward()
    for tensor in (*results, x.grad, weight.grad):
        assert tensor.dtype is npgrad.bfloat16
        values = tensor.detach().float().numpy()
        assert np.array_equal(rounded_to_bfloat16(values), values, equal_nan=True)


MISMATCHED = r'''
import torch
a, b, c = torch.ones(2, 2).bfloat16(), torch.ones(2, 2).half(), torch.ones(2, 2)
for product in (lambda: a @ b, lambda: a @ c, lambda: torch.mm(c, a), lambda: torch.addmm(c, a, a),
                lambda: torch.nn.functional.linear(c, a), lambda: torch.dot(a[0], c[0]),
                lambda: torch.nn.functional.layer_norm(a, (2,), c[0], c[0]),
                lambda: torch.nn.functional.layer_norm(c, (2,), a[0], a[0])):
    try:
        print(product().dtype)
    except RuntimeError as error:
        print("RuntimeError:", error)
'''


def test_matrix_products_refuse_a_bfloat16_operand_beside_another_dtype(tmp_path):
    """As torch's kernels refuse them (NumPy would promote); a normalization takes a
    bfloat16 input with float32 parameters (torch's mixed types), not the other way round."""
    assert_playground_prints_as_torch(MISMATCHED, tmp_path)


KEPT = r'''
import copy, io, pickle
import torch
x = torch.tensor([1.1, 2.2], dtype=torch.bfloat16)
buffer = io.BytesIO()
torch.save({"x": x, "state": torch.nn.Linear(2, 1).bfloat16().state_dict()}, buffer)
buffer.seek(0)
loaded = torch.load(buffer)
print(loaded["x"], loaded["state"]["weight"].dtype, pickle.loads(pickle.dumps(x[1:])))
print(copy.deepcopy(x), x.clone().dtype, x.detach().dtype, x.t().contiguous().dtype)
print(torch.equal(x, x.clone()), x.eq(x.float()), x.to(torch.float16), x.half().bfloat16())
print(x.abs().max(), x.norm(), torch.where(x > 2, x, 0.5), x.clamp(max=torch.tensor(2.0)))
print(x.unsqueeze(0).expand(2, 2).sum(0), x.sort().values, x.topk(1))
'''


def test_bfloat16_tensors_are_saved_copied_and_selected_as_torchs(tmp_path):
    """torch.save and pickle keep the dtype (weights_only loading too), and so do the
    selections and comparisons."""
    assert_playground_prints_as_torch(KEPT, tmp_path)


MADE = r'''
import torch
torch.manual_seed(0)
x = torch.randn(3, 4).bfloat16()
print(torch.randn_like(x), torch.logspace(0, 2, 5, dtype=torch.bfloat16))
print(torch.randint(0, 10, (4,), dtype=torch.bfloat16), torch.randperm(4, dtype=torch.bfloat16))
print(torch.randn(2).type("torch.BFloat16Tensor"), torch.BFloat16Tensor([1.5, 2]))
print(torch.nn.Linear(2, 1).type(torch.bfloat16).weight.dtype, x.type())
print(torch.bernoulli(torch.full((4,), 0.5, dtype=torch.bfloat16)))
for a, b, n in ((0, 1, 7), (-3, 5, 11), (0.1, 0.7, 20), (2.5, -1.25, 33)):
    print(torch.linspace(a, b, n, dtype=torch.bfloat16).float().tolist())
b = torch.tensor([1.0, -2.0, 0.1, 3e38], dtype=torch.bfloat16)
print(b.view(torch.int16), b.view(torch.float16), b.view(torch.int16).view(torch.bfloat16))
print(torch.tensor([16256, -16384], dtype=torch.int16).view(torch.bfloat16), b.view(torch.int32))
print((torch.tensor([-0.1], dtype=torch.bfloat16) + 0.1).item(),
      (torch.tensor([0.3], dtype=torch.bfloat16) * 0.1).item())
y = torch.tensor([1.0, -2.0], dtype=torch.bfloat16)
y += 0.1
print(y, y.mul_(0.3), y - torch.tensor(0.1), y + torch.tensor([0.1, 0.2]))
'''


def test_bfloat16_factories_views_and_numbers_are_torchs(tmp_path):
    """The factories draw and step as torch's bfloat16 kernels (randn_like, linspace's
    rounded step), a view of the bits is torch's, and a number added or subtracted is
    rounded to bfloat16 first (torch's add and sub; mul keeps it whole)."""
    assert_playground_prints_as_torch(MADE, tmp_path)


def test_each_bfloat16_op_rounds_once():
    """An op on bfloat16 values is its float32 computation rounded once, as torch's kernels
    compute (its NumPy steps keep float32's digits between them)."""
    import playground.npgrad as npgrad
    import playground.npgrad.nn.functional as F

    npgrad.manual_seed(0)
    values = (npgrad.randn(2000) * 3).bfloat16()
    ops = [npgrad.sigmoid, F.silu, F.gelu, lambda t: F.gelu(t, approximate="tanh"), F.softplus,
           F.mish, F.hardswish, lambda t: t.softmax(0), lambda t: t.view(40, 50).mean(1),
           lambda t: t.view(40, 50).sum(1), lambda t: F.layer_norm(t.view(40, 50), (50,)),
           lambda t: t * 0.3, lambda t: t / 3, lambda t: t.view(40, 50).norm(dim=1)]
    for op in ops:
        once = op(values.float()).bfloat16()
        assert npgrad.equal(op(values), once), op
