"""Python numbers meeting integer tensors, on npgrad against real torch, run here: arithmetic
and comparisons take the number cast into the tensor's type as torch's static cast does (an
int8 tensor times 200 is times -56, a uint8 tensor minus 1 wraps; NumPy 2 refuses both), fills
(full, fill_, masked_fill, index_fill, where, clamp) refuse it past the type's range with
torch's error, and a Python int beyond 64 bits is refused by every op, float tensors' too."""

from __future__ import annotations

from tests.oracle import SHOW, assert_playground_prints_as_torch

SCRIPT = SHOW + """
import numpy as np
import torch

ARITHMETIC = ('x * 200', 'x + 1000', 'x - 300', 'x + 2**40', 'x * -1', 'x == 257', 'x < 300',
              'x // 300', 'x % 300', 'x & 257', 'torch.add(x, 1000, alpha=2)', 'x.mul(2**31)',
              'x.mul(2**63 - 1)', '300 - x', '1000 * x', 'x.sub(-200)',
              'x.div(300, rounding_mode="floor")', 'x.ne(300)', 'x.bitwise_xor(300)',
              'x.remainder(-300)', 'x.eq(-255)', 'x + np.int64(300)', 'x * np.uint8(200)',
              'x.clone().add_(1000)', 'x.clone().mul_(-3)', 'x + 300.5', 'x + True')
for dtype in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64):
    x = torch.tensor([1, 100], dtype=dtype)
    for expression in ARITHMETIC:
        show(f"{dtype} {expression}", lambda: eval(expression).tolist())

FILLS = ('torch.full((1,), v, dtype=dtype)', 'torch.zeros(1, dtype=dtype).fill_(v)',
         'torch.zeros(2, dtype=dtype).masked_fill(torch.tensor([True, False]), v)',
         'torch.where(torch.tensor([True, False]), torch.zeros(2, dtype=dtype), v)',
         'torch.zeros(1, dtype=dtype).clamp(max=v)', 'torch.zeros(1, dtype=dtype).clamp(min=v)',
         'torch.zeros(1, dtype=dtype).index_fill(0, torch.tensor([0]), v)')
for dtype, v in ((torch.int8, 300), (torch.uint8, -1), (torch.uint8, -255), (torch.uint8, -256),
                 (torch.int16, 40000), (torch.int32, 2**40), (torch.int64, 2**63),
                 (torch.int64, 2**64), (torch.int32, -2**64), (torch.bool, 5),
                 (torch.int8, 300.5), (torch.int8, 127.9), (torch.uint8, -1.0),
                 (torch.int8, float('nan')), (torch.int16, np.int64(70000)),
                 (torch.uint8, np.float32(3.5)), (torch.int32, True)):
    for expression in FILLS:
        show(f"{dtype} {v!r} {expression}", lambda: eval(expression).tolist())

for expression in ('torch.tensor([1]) + 2**70', 'torch.tensor([1], dtype=torch.int8) + 2**64',
                   'torch.tensor([1.]) * 2**70', 'torch.tensor([1.]) + 2**64 - 1',
                   'torch.tensor([1.], dtype=torch.float64) - 2**63',
                   'torch.tensor([1], dtype=torch.uint8) * 2**63', 'torch.tensor([1]) - 2**63',
                   'torch.tensor([1.]) * -2**63 - 1', 'torch.ones(2) * (-2**63 - 1)'):
    show(expression, lambda: eval(expression))
"""


def test_python_numbers_meet_integer_tensors_as_in_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
