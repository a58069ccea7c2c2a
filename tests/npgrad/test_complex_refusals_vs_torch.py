"""What torch refuses for complex tensors, refused in its words on npgrad (orderings,
comparisons, rounding, clamping, real-only special functions and activations), and the
reductions of complex tensors whose results are real (var, std, var_mean) or 0-d (sum over
the one dim); against real torch run here."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

REFUSALS = r"""
import torch
import torch.nn.functional as F
CALLS = '''
z.max()
z.max(0)
torch.maximum(z, z)
z.min()
z.min(0)
z.amax()
z.amin()
z.aminmax()
z.argmax()
z.argmin()
z.sort()
z.argsort()
z.msort()
z.topk(1)
z < z
z <= 1
z > z
z >= 0
torch.lt(z, 1)
torch.greater(z, 1)
z.clamp(0, 1)
z.clamp_min(0)
z.clamp_max(0)
z.clip(0, 1)
torch.minimum(z, z)
torch.fmax(z, z)
torch.fmin(z, z)
z.cummax(0)
z.cummin(0)
torch.relu(z)
F.relu(z)
z.floor()
z.ceil()
z.trunc()
z.fix()
z.round()
z.frac()
z.sign()
z % 2
torch.fmod(z, 2)
z.median()
z.nanmedian()
z.kthvalue(1)
z.erf()
z.erfc()
z.erfinv()
torch.atan2(z, z)
torch.heaviside(z, z)
z.softmax(0)
F.softmax(z, 0)
z.log_softmax(0)
torch.unique(z)
F.hardtanh(z)
F.gelu(z)
F.mse_loss(z, z)
z.histc()
z // 2
z.lgamma()
z.digamma()
z.logit()
z.std()
z.var()
z.sum(0)
torch.trapezoid(z)
z.clone().abs_()
F.leaky_relu(z)
F.elu(z)
F.softplus(z)
F.cross_entropy(z[None], torch.tensor([0]))
torch.isin(z, z)
torch.searchsorted(z, z)
torch.bucketize(z, z)
z.isposinf()
z.signbit()
torch.hypot(z, z)
torch.logaddexp(z, z)
torch.copysign(z, z)
torch.xlogy(z, z)
torch.sinc(z)
z.deg2rad()
z.lerp(z, 0.5)
z.mean(0)
z.prod(0)
z.std(0)
torch.var_mean(z)
'''
for dt in [torch.cfloat, torch.cdouble]:
    z = torch.tensor([1+2j, -1-1j, 3j], dtype=dt)
    for call in CALLS.split("\n")[1:-1]:
        try:
            print(call, eval(call))
        except Exception as error:
            print(call, type(error).__name__, str(error)[:150])
print(z.float(), z.bool(), z.to(torch.int64), torch.tensor([1, 2]).sum(0),
      torch.tensor(2.5).sum(0))
"""


def test_what_torch_refuses_for_complex_tensors_is_refused_in_its_words(tmp_path):
    assert_playground_prints_as_torch(REFUSALS, tmp_path)
