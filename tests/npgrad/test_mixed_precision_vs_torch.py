"""Mixed precision as code pastes it, against torch run here: nanoGPT's preamble (a table of
dtypes naming bfloat16, nullcontext on the CPU, a GradScaler that CUDA's absence disables)
runs and trains; torch.bfloat16 is named, compared, promoted and described by finfo;
torch.cpu and its deprecated amp names, the autocast dtypes; and computing with a bfloat16
tensor (or an autocast to it on the CPU) is refused saying it is not in the NumPy engine."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch, printed_by_playground

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

REFUSALS = r'''
import torch
for make in (lambda: torch.zeros(2, dtype=torch.bfloat16), lambda: torch.ones(3).bfloat16() + 1,
             lambda: torch.randn(2).to(torch.bfloat16).sum(), lambda: torch.autocast("cpu"),
             lambda: torch.autocast("cpu", dtype=torch.bfloat16)):
    try:
        make()
    except NotImplementedError as error:
        print(error)
'''


def test_mixed_precision_names_print_as_torch(tmp_path):
    assert_playground_prints_as_torch(PREAMBLE, tmp_path)


def test_bfloat16_tensors_are_refused_saying_so(tmp_path):
    printed = printed_by_playground(REFUSALS, tmp_path)
    assert printed.count("bfloat16 tensors is not in the built-in NumPy engine (it makes them "
                         "with torch.tensor, .to and .bfloat16(), converts and prints them); "
                         "switch the engine to torch") == 2
    assert printed.count("computing with bfloat16 tensors is not in the built-in NumPy engine "
                         "(it makes, converts and prints them); switch the engine to torch") == 1
    assert printed.count("autocast to bfloat16 or float16 on the CPU is not in the built-in "
                         "NumPy engine") == 2
