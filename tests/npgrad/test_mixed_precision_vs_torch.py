"""Mixed precision as code pastes it, against torch run here: nanoGPT's preamble (a table of
dtypes naming bfloat16, nullcontext on the CPU, a GradScaler that CUDA's absence disables)
runs and trains; torch.bfloat16 is named, compared, promoted and described by finfo;
torch.cpu and its deprecated amp names, the autocast dtypes; and bfloat16 tensors made by
the factories and computed with, as torch makes and computes them."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

PREAMBLE = r'''
import warnings
from contextlib import nullcontext
import torch
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    device = 'cpu'
    wide_gpu = torch.cuda.is_available() and torch.cuda.is_bf16_supported()
    dtype = 'bfloat16' if wide_gpu else 'float16'
    device_type = 'cuda' if 'cuda' in device else 'cpu'
    names = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}
    ptdtype = names[dtype]
    ctx = nullcontext() if device_type == 'cpu' else \
        torch.amp.autocast(device_type=device_type, dtype=ptdtype)
    scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))
    print(dtype, ptdtype, scaler.is_enabled())
    torch.manual_seed(0)
    x = torch.randn(2, 3, requires_grad=True)
    opt = torch.optim.SGD([x], lr=0.1)
    with ctx:
        loss = (x * 2).sum()
    scaler.scale(loss).backward()
    scaler.unscale_(opt)
    scaler.step(opt)
    scaler.update()
    print(x.grad, x)
    print(torch.get_autocast_dtype('cpu'), torch.get_autocast_dtype('cuda'),
          torch.get_autocast_cpu_dtype(), torch.get_autocast_gpu_dtype())
    print(torch.is_autocast_enabled('cpu'), torch.amp.is_autocast_available('cpu'))
    with torch.cpu.amp.autocast(enabled=False):
        print(torch.is_autocast_enabled())
    print(torch.cpu.is_available(), torch.cpu.device_count(), torch.cpu.current_device())
print([(w.category.__name__, str(w.message)) for w in caught])
print(torch.bfloat16, repr(torch.bfloat16), torch.finfo(torch.bfloat16))
print(torch.finfo(torch.bfloat16).bits, torch.finfo(torch.bfloat16).max)
print(torch.bfloat16.is_floating_point, torch.bfloat16.itemsize, torch.bfloat16.is_signed,
      torch.bfloat16.is_complex, torch.bfloat16.to_complex(), torch.bfloat16 == torch.float16)
print(torch.promote_types(torch.bfloat16, torch.float16),
      torch.promote_types(torch.bfloat16, torch.int64),
      torch.promote_types(torch.float32, torch.bfloat16))
'''

COMPUTED = r'''
import torch
torch.manual_seed(0)
for make in (lambda: torch.zeros(2, dtype=torch.bfloat16), lambda: torch.ones(3).bfloat16() + 1,
             lambda: torch.randn(2).to(torch.bfloat16).sum(),
             lambda: torch.full((2,), 1 / 3, dtype=torch.bfloat16),
             lambda: torch.arange(5, dtype=torch.bfloat16) / 3,
             lambda: torch.rand(3, dtype=torch.bfloat16),
             lambda: torch.randn(5, dtype=torch.bfloat16),
             lambda: torch.randn(37, dtype=torch.bfloat16),
             lambda: torch.linspace(0, 1, 6, dtype=torch.bfloat16),
             lambda: torch.eye(2, dtype=torch.bfloat16).new_ones(2).cumsum(0),
             lambda: torch.cat([torch.ones(2).bfloat16(), torch.ones(1)]),
             lambda: torch.stack([torch.ones(2).bfloat16(), torch.zeros(2).bfloat16()]),
             lambda: torch.ones(2, 3).bfloat16()[1, 2], lambda: torch.ones(2).bfloat16().nbytes,
             lambda: torch.ones(2).bfloat16().element_size()):
    print(make())
'''


def test_mixed_precision_names_print_as_torch(tmp_path):
    assert_playground_prints_as_torch(PREAMBLE, tmp_path)


def test_bfloat16_tensors_are_made_and_computed_as_torch(tmp_path):
    assert_playground_prints_as_torch(COMPUTED, tmp_path)
