"""``torch.nn.attention`` against torch run here: ``sdpa_kernel`` and torch.backends.cuda's
switches choose between the CPU's fused kernel (one ScaledDotProductFlashAttentionForCpu
node) and the math (scaled q and k, bmm, SafeSoftmax, bmm: torch's nodes), with no viable
backend refused in torch's words; grouped-query attention (``enable_gqa``) on both paths,
with its head checks. Values may differ from torch's in the last float32 bits (MKL's matrix
products round otherwise), so numbers are compared within 1e-5 relative."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch_within

pytest.importorskip("torch")

SCRIPT = r'''
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
torch.manual_seed(0)
q, k, v = (torch.randn(2, 2, 5, 4, requires_grad=True) for _ in range(3))
print(SDPBackend.MATH, repr(SDPBackend.FLASH_ATTENTION), SDPBackend.MATH.name,
      SDPBackend.MATH.value)
def grads(out):
    q.grad = k.grad = v.grad = None
    (out * torch.arange(out.numel()).reshape(out.shape).sin()).sum().backward()
    return [t.grad.abs().sum().item() for t in (q, k, v)]
for kw in ({}, {"is_causal": True}, {"attn_mask": torch.ones(5, 5, dtype=torch.bool).tril()},
           {"attn_mask": torch.randn(5, 5)}, {"scale": 0.3}):
    fused = F.scaled_dot_product_attention(q, k, v, **kw)
    with sdpa_kernel(SDPBackend.MATH):
        math_out = F.scaled_dot_product_attention(q, k, v, **kw)
        print(torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.flash_sdp_enabled())
    print(list(kw), fused.grad_fn.name(), math_out.grad_fn.name(),
          math_out.grad_fn.next_functions[0][0].name(),
          torch.allclose(fused, math_out, atol=1e-6), grads(math_out))
    print(math_out[0, 1, 2].tolist())
print(torch.backends.cuda.math_sdp_enabled(), torch.backends.cuda.flash_sdp_enabled())
with sdpa_kernel([SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION]):
    print(F.scaled_dot_product_attention(q, k, v).grad_fn.name())
for backends in (SDPBackend.EFFICIENT_ATTENTION, [SDPBackend.CUDNN_ATTENTION]):
    with sdpa_kernel(backends):
        try:
            F.scaled_dot_product_attention(q, k, v)
        except RuntimeError as error:
            print(error)
try:
    with sdpa_kernel("math"):
        pass
except AssertionError as error:
    print(error)
torch.backends.cuda.enable_flash_sdp(False)
print(F.scaled_dot_product_attention(q, k, v).grad_fn.name(),
      torch.backends.cuda.flash_sdp_enabled())
torch.backends.cuda.enable_flash_sdp(True)
q8 = torch.randn(2, 4, 5, 4, requires_grad=True)
for backend in (SDPBackend.FLASH_ATTENTION, SDPBackend.MATH):
    with sdpa_kernel(backend):
        out = F.scaled_dot_product_attention(q8, k, v, enable_gqa=True, is_causal=True)
    k.grad = v.grad = q8.grad = None
    out.pow(2).sum().backward()
    print(out.grad_fn.name(), out.sum().item(), v.grad.abs().sum().item(),
          q8.grad.abs().sum().item(), k.grad.abs().sum().item())
for args, kw in (((torch.randn(2, 3, 5, 4), k, v), {"enable_gqa": True}), ((q8, k, v), {})):
    try:
        F.scaled_dot_product_attention(*args, **kw)
    except RuntimeError as error:
        print(error)
'''


def test_attention_kernels_as_torch_chooses_them(tmp_path):
    assert_playground_prints_as_torch_within(SCRIPT, tmp_path, 1e-5)


DEPRECATED_SWITCH = r'''
import warnings
import torch
import torch.nn.functional as F
warnings.showwarning = lambda message, category, filename, line, *rest: print(
    category.__name__, message, filename.rsplit("/", 1)[-1], line)
q = torch.randn(1, 1, 3, 4, requires_grad=True)
with torch.backends.cuda.sdp_kernel(enable_flash=False, enable_mem_efficient=False):
    o = F.scaled_dot_product_attention(q, q, q)
    print(o.grad_fn.name(), torch.backends.cuda.flash_sdp_enabled(),
          torch.backends.cuda.math_sdp_enabled())
print(torch.backends.cuda.flash_sdp_enabled(),
      F.scaled_dot_product_attention(q, q, q).grad_fn.name())
with torch.backends.cuda.sdp_kernel(enable_math=False) as ctx:
    print(ctx, F.scaled_dot_product_attention(q, q, q).grad_fn.name())
'''


def test_the_deprecated_switch_warns_and_switches_as_torch(tmp_path):
    """torch.backends.cuda.sdp_kernel: its FutureWarning (once, at the line of contextlib
    that calls it) and the backends it leaves on."""
    assert_playground_prints_as_torch_within(DEPRECATED_SWITCH, tmp_path, 1e-5)
