"""What pasted code gets wrong and torch refuses or computes otherwise, on npgrad against real
torch run here: operands of two dtypes in matrix products, convolutions, normalizations and
recurrent layers (torch raises; NumPy would promote), torch.where of two numbers and clamp of
integers by float bounds (torch's promotion), Embedding's max_norm and its index errors, and
cross_entropy/nll_loss's checks of their targets, F.linear with a 1-D weight or input (torch's
matmul, its nodes) and with a bias and a 1-D weight (refused)."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

MIXED_DTYPES = r'''
import torch
d = torch.float64
a = torch.ones(2, 3, dtype=d)
b = torch.ones(3, 2)
i = torch.ones(2, 3, dtype=torch.long)
CALLS = """
a @ b
b.T @ a.T
torch.mm(a, b)
torch.matmul(a, b)
a.matmul(b)
torch.bmm(a[None], b[None])
torch.mv(a, b[:, 0])
torch.dot(a[0], b[:, 0])
torch.nn.functional.linear(a, b.T)
torch.nn.functional.linear(a[None], b.T)
torch.nn.functional.linear(a, b.T, torch.ones(2))
torch.nn.Linear(3, 2)(i)
torch.nn.Linear(3, 2)(a[None])
i @ b
torch.addmm(torch.ones(2), a, b)
torch.einsum('ij,jk->ik', a, b)
torch.nn.Conv1d(2, 1, 1)(torch.ones(1, 2, 3, dtype=torch.float64))
a @ b.double()
torch.ones(3, dtype=torch.float64) @ torch.ones(3)
torch.outer(a[0], b[:, 0])
torch.nn.functional.embedding(torch.tensor([0]), torch.ones(2, 2, dtype=torch.float64))
torch.nn.LSTM(3, 2)(a[None])[0].dtype
torch.nn.functional.layer_norm(a, (3,), torch.ones(3))
torch.tensordot(a, b, 1)
a.float() @ b
torch.mv(torch.ones(2, 3), torch.ones(3, dtype=d))
torch.mv(torch.ones(2, 3, dtype=d), torch.ones(3))
torch.addmm(torch.ones(2, dtype=d), torch.ones(2, 3), torch.ones(3, 2))
torch.addmm(torch.ones(2), torch.ones(2, 3, dtype=d), torch.ones(3, 2, dtype=d))
torch.nn.functional.conv1d(torch.ones(1, 2, 3, dtype=d), torch.ones(1, 2, 1))
torch.nn.functional.conv2d(torch.ones(1, 2, 3, 3), torch.ones(1, 2, 1, 1, dtype=d))
torch.nn.functional.conv2d(torch.ones(1, 2, 3, 3), torch.ones(1, 2, 1, 1), torch.ones(1, dtype=d))
torch.nn.functional.conv2d(torch.ones(1, 2, 3, 3, dtype=d), torch.ones(1, 2, 1, 1), torch.ones(1))
torch.nn.functional.linear(torch.ones(2, 3), torch.ones(2, 3), torch.ones(2, dtype=d))
torch.ones(2, 3) @ torch.ones(3, dtype=d)
torch.ones(3) @ torch.ones(3, 2, dtype=d)
torch.ones(2, 2, 3) @ torch.ones(3, 2, dtype=d)
torch.ones(2, 2, 3) @ torch.ones(2, 3, 2, dtype=d)
torch.nn.functional.layer_norm(torch.ones(2, 3), (3,), torch.ones(3, dtype=d))
torch.nn.GRU(3, 2)(torch.ones(1, 1, 3, dtype=d))
torch.nn.functional.conv_transpose2d(torch.ones(1, 2, 3, 3, dtype=d), torch.ones(2, 1, 1, 1))
torch.baddbmm(torch.ones(1, 2, 2), torch.ones(1, 2, 3, dtype=d), torch.ones(1, 3, 2))
torch.nn.functional.batch_norm(torch.ones(2, 3, dtype=d), torch.zeros(3), torch.ones(3))
torch.nn.functional.embedding(torch.tensor([0]), torch.ones(2, 2)) @ torch.ones(2, 1, dtype=d)
"""
for call in CALLS.split("\n")[1:-1]:
    try:
        result = eval(call)
        print(call, "->", (result.dtype, tuple(result.shape)) if isinstance(result, torch.Tensor)
              else result)
    except Exception as error:
        print(call, "->", type(error).__name__, error)
'''

WHERE_AND_CLAMP = r'''
import torch
c = torch.arange(3) > 0
print(torch.where(c, 1.0, 0.0), torch.where(c, 1, 0), torch.where(c, 1, 0.5))
print(torch.where(c, True, False), torch.where(c, 1j, 0))
torch.set_default_dtype(torch.float64)
print(torch.where(c, 1.0, 0))
import torch
x = torch.arange(3)
print(torch.clamp(x, 0.5, 1.5), x.clamp(min=torch.tensor(1.5)), x.clamp(max=1),
      torch.ones(2).clamp(torch.tensor(0.), torch.tensor([0.5, 2.], dtype=torch.float64)),
      torch.ones(2, dtype=torch.float64).clamp(0.2, 0.5), x.clamp_min(0.5), x.clamp_max(0.5),
      torch.tensor([True, False]).clamp(0, 0.5))
y = torch.tensor([0.2, 3.], requires_grad=True)
z = y.clamp(0.5, 2)
z.sum().backward()
print(z, y.grad)
'''

EMBEDDING_MAX_NORM = r'''
import torch
from torch import nn
torch.manual_seed(0)
e = nn.Embedding(4, 3, max_norm=1.0)
idx = torch.tensor([0, 2, 2])
out = e(idx)
print(e, out, out.norm(dim=1), e.weight)
out.sum().backward()
print(e.weight.grad)
print(nn.Embedding(3, 2, padding_idx=1, max_norm=2.0, norm_type=1.0),
      nn.Embedding(2, 2, norm_type=3))
try:
    e(torch.tensor([4]))
except IndexError as error:
    print("IndexError", error)
'''

CLASS_TARGETS = r'''
import torch
import torch.nn.functional as F
CASES = [(torch.zeros(2, 3), torch.tensor([[0, 1]])), (torch.zeros(2, 3), torch.tensor([0., 1.])),
         (torch.zeros(2, 3), torch.tensor([0, 1, 2])),
         (torch.zeros(2, 3, 4), torch.tensor([[0, 1, 2]])),
         (torch.zeros(2, 3), torch.tensor([0, 1], dtype=torch.int32)),
         (torch.zeros(2, 3), torch.zeros(2, 4)),
         (torch.zeros(2, 3), torch.zeros(2, 3, dtype=torch.long)),
         (torch.zeros(3), torch.tensor(1)),
         (torch.zeros(2, 3, 2, 2), torch.zeros(2, 2, 2, dtype=torch.long))]
for input, target in CASES:
    for loss in (F.cross_entropy, F.nll_loss):
        try:
            print(loss(input, target))
        except Exception as error:
            print(type(error).__name__, error)
'''

LINEAR_OF_VECTORS = r'''
import torch
import torch.nn.functional as F
x = torch.ones(3, 4, requires_grad=True)
w = torch.arange(4.0, requires_grad=True)
v = torch.ones(4, requires_grad=True)
W = torch.arange(8.0).reshape(2, 4).requires_grad_()
outputs = [F.linear(x, w), F.linear(v, W, torch.ones(2)), F.linear(v, W),
           F.linear(torch.ones(2, 3, 4), W, torch.ones(2)), F.linear(torch.ones(2, 3, 4), w),
           F.linear(v, w)]
for y in outputs:
    print(tuple(y.shape), y.grad_fn.name(), [type(f).__name__ for f, _ in y.grad_fn.next_functions])
sum(y.sum() for y in outputs).backward()
print(w.grad, W.grad, x.grad, v.grad)
try:
    F.linear(x, w, torch.tensor(0.5))
except RuntimeError as error:
    print(error)
'''


def test_linear_of_vectors_goes_through_matmul_as_torchs(tmp_path):
    assert_playground_prints_as_torch(LINEAR_OF_VECTORS, tmp_path)


def test_operands_of_two_dtypes_are_refused_in_torchs_words(tmp_path):
    assert_playground_prints_as_torch(MIXED_DTYPES, tmp_path)


def test_where_of_numbers_and_clamp_by_float_bounds_promote_as_torch(tmp_path):
    assert_playground_prints_as_torch(WHERE_AND_CLAMP, tmp_path)


def test_embedding_renormalises_rows_past_max_norm(tmp_path):
    assert_playground_prints_as_torch(EMBEDDING_MAX_NORM, tmp_path)


def test_class_targets_are_checked_as_torch_checks_them(tmp_path):
    assert_playground_prints_as_torch(CLASS_TARGETS, tmp_path)
