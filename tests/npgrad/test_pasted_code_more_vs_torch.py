"""More of what pasted code meets, on npgrad against real torch run here: in-place ops that
would need broadcasting, losses of mismatched shapes, kernels larger than their input,
softmax without a dim, padding='same' with a padding_mode, devices named but not used and
as context managers, and forward hooks with kwargs, prepend and always_call."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

SCRIPTS = {
    'ib': r'''
import torch
CALLS = [lambda: torch.ones(2).add_(torch.ones(2, 2)),
         lambda: torch.ones(2).mul_(torch.ones(3, 2)),
         lambda: torch.ones(3).sub_(torch.ones(2, 3), alpha=2),
         lambda: torch.ones(1, 2).div_(torch.ones(2, 1)),
         lambda: torch.ones(2, 2).add_(torch.ones(2))]
for f in CALLS:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
''',
    'ms': r'''
import torch
import torch.nn.functional as F
CALLS = [F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss, F.binary_cross_entropy_with_logits,
         F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss, F.binary_cross_entropy_with_logits]
for f in CALLS:
    try:
        print(f(torch.ones(4, 3), torch.ones(4, 2)))
    except Exception as e:
        print(type(e).__name__, e)
''',
    'ck': r'''
import torch
import torch.nn.functional as F
CALLS = [lambda: F.conv2d(torch.ones(1,1,3,3), torch.ones(1,1,5,5)),
         lambda: F.conv1d(torch.ones(1,1,3), torch.ones(1,1,5)),
         lambda: F.conv2d(torch.ones(1,1,3,4), torch.ones(1,1,3,3), dilation=2),
         lambda: F.conv2d(torch.ones(1,1,3,3), torch.ones(1,1,5,5), padding=1),
         lambda: F.conv3d(torch.ones(1,1,2,3,3), torch.ones(1,1,3,3,3)),
         lambda: torch.nn.MaxPool2d(5)(torch.ones(1,1,3,3))]
for f in CALLS:
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, e)
''',
    'sm': r'''
import torch
import torch.nn.functional as F
x = torch.tensor([[1., 2.], [3., 5.]])
print(F.softmax(x), F.log_softmax(x[0]), F.softmax(x, 0), F.softmax(x, dim=1, dtype=torch.float64))
print(F.softmax(x))
''',
    'cs': r'''
import torch
torch.manual_seed(0)
from torch import nn
x = torch.arange(16.).view(1, 1, 4, 4)
for m in [nn.Conv2d(1, 1, 3, padding="same", padding_mode="reflect"),
          nn.Conv2d(1, 1, 2, padding="same", padding_mode="replicate"),
          nn.Conv2d(1, 1, 3, padding="valid", padding_mode="circular"),
          nn.Conv2d(1, 1, 3, padding=1, padding_mode="reflect")]:
    print(m, m(x))
print(nn.Conv1d(1, 1, 4, padding="same", padding_mode="reflect")(torch.arange(6.).view(1, 1, 6)))
''',
    'hk': r'''
import torch
torch.manual_seed(0)
lin = torch.nn.Linear(2, 2)
lin.register_forward_hook(lambda m, args, kwargs, out: print("hook", kwargs, out.shape),
                          with_kwargs=True)
lin.register_forward_pre_hook(lambda m, args: print("pre second"))
h = lin.register_forward_pre_hook(lambda m, args: print("pre first"), prepend=True)
lin.register_forward_pre_hook(lambda m, args, kwargs: ((args[0] * 2,), kwargs), with_kwargs=True)
print(lin(torch.ones(1, 2)))
h.remove()
print(lin(torch.ones(1, 2)))
class Bad(torch.nn.Module):
    def forward(self, x):
        raise ValueError("no")
b = Bad()
b.register_forward_hook(lambda m, a, o: print("always", o), always_call=True)
b.register_forward_hook(lambda m, a, o: print("not always"))
try:
    b(torch.ones(1))
except ValueError as e:
    print("ValueError", e)
''',
    'dv': r'''
import torch
d = torch.device("cuda", 0)
print(d, repr(d), torch.device("cuda" if torch.cuda.is_available() else "cpu"))
with torch.device("cpu"):
    print(torch.ones(1).device)
try:
    torch.device("foo")
except RuntimeError as error:
    print(error)
''',
    'always_called': r'''
import torch
from torch.nn.modules.module import register_module_forward_hook
class Bad(torch.nn.Module):
    def forward(self, x):
        raise ValueError("no")
b = Bad()
b.register_forward_hook(lambda m, a, o: print("own always", o), always_call=True)
b.register_forward_hook(lambda m, a, o: print("not always"))
h = register_module_forward_hook(lambda m, a, o: print("global always", type(m).__name__),
                                 always_call=True)
try:
    b(torch.ones(1))
except ValueError as e:
    print("ValueError", e)
h.remove()
''',
}


@pytest.mark.parametrize("name", list(SCRIPTS))
def test_pasted_code_runs_and_fails_as_on_torch(name, tmp_path):
    assert_playground_prints_as_torch(SCRIPTS[name], tmp_path)
