"""A 0-d tensor's one dim (0 or -1) in reductions, orderings and shape calls, as torch
takes it: max/min(0) of a scalar at index 0, mean/std/var/logsumexp/amax/norm/nanmean/flip
over it, torch's errors for select/narrow/unbind, and the degrees-of-freedom warning of
std/var; against real torch run here."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import torch
s = torch.tensor(5.)
v = torch.tensor([3., 1., 2.])
CALLS = """
s.max(0)
s.min(0)
s.argmax(0)
s.median(0)
s.mode(0)
s.kthvalue(1)
s.cummax(0)
s.cumsum(0)
s.sum(0)
s.mean(0)
s.prod(0)
s.std(0)
s.logsumexp(0)
s.softmax(0)
s.log_softmax(0)
s.sort()
s.topk(1)
s.argsort()
s.amax(0)
s.any(0)
s.all(0)
s.norm(dim=0)
s.unsqueeze(0)
s.squeeze(0)
s.flip(0)
s.unbind(0)
s.var(0)
s.nansum(0)
s.count_nonzero(0)
s.cumprod(0)
s.logcumsumexp(0)
s.select(0, 0)
s.narrow(0,0,1)
s.aminmax(dim=0)
s.nanmean(0)
v.max(0)
v.median(0)
v.mode(0)
v.kthvalue(2)
v.cummax(0)
v.prod(0)
v.std(0)
v.amax(0)
v.aminmax(dim=0)
v.norm(dim=0)
v.nansum(0)
v.count_nonzero(0)
v.var_mean(0)
torch.tensor([1, 2]).max(0)
torch.tensor([1, 2]).prod(0)
torch.tensor([1, 2]).cumsum(0)
torch.tensor([True]).all(0)
torch.tensor([1, 2]).median(0)
torch.tensor([1., 2.]).dist(torch.tensor([0., 1.]))
"""
for call in CALLS.split("\n")[1:-1]:
    try:
        print(call, eval(call))
    except Exception as error:
        print(call, type(error).__name__, str(error)[:100])
print(torch.tensor([1.]).std(), torch.tensor([1.]).var(0), torch.tensor(2.).std(dim=0))
x = torch.tensor(5., requires_grad=True)
values, index = (x * 2).max(0)
values.backward()
print(values, index, x.grad)
'''


def test_a_scalars_one_dim_is_taken_as_torch_takes_it(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
