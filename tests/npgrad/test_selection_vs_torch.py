"""Searching, counting and order statistics on npgrad against real torch, run here: nonzero,
argwhere, torch.where(cond), masked_select, unique, unique_consecutive, bincount, histc,
searchsorted, bucketize, isin, count_nonzero, tril/triu_indices, cartesian_prod, combinations,
kthvalue, median, nanmedian, mode, quantile, nanquantile, nanmean, nansum, msort, aminmax,
take_along_dim, std_mean, var_mean and storage_offset: values, dtypes, reprs, node names,
gradients (second ones too), torch's tie-breaking, warnings and errors."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = """
import warnings
import torch

nan = float("nan")
torch.manual_seed(0)
x = torch.tensor([[0.0, 1.5, -2.0, 0.0], [3.0, 0.0, 0.5, -1.0]])
print(x.nonzero(), torch.nonzero(x, as_tuple=True), torch.argwhere(x > 0))
print(torch.where(x > 1), torch.where(condition=x < 0), torch.where(x > 0, x, -x))
print(torch.tensor(2.0).nonzero(), torch.tensor(0).nonzero(as_tuple=True), x.argwhere().dtype)
a = torch.randn(3, 4, requires_grad=True)
picked = a.masked_select(a > 0)
print(picked, torch.masked_select(a, torch.tensor([True, False, True, False])).shape)
(picked * picked).sum().backward()
print(a.grad)
a.grad = None
votes = torch.tensor([3, 1, 3, 1, 2, 2, 2, 1, 0])
print(torch.unique(votes), votes.unique(return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0, return_counts=True))
print(torch.unique(torch.tensor([nan, 1.0, nan, 1.0])), torch.unique(a.round()).grad_fn.name())
print(torch.unique_consecutive(votes, return_inverse=True, return_counts=True))
print(votes.unique_consecutive(), torch.unique_consecutive(torch.tensor([[1, 1], [1, 1], [2, 0]]),
                                                          dim=0))
print(torch.bincount(votes), votes.bincount(minlength=7),
      torch.bincount(votes, weights=torch.linspace(0, 1, 9)),
      torch.bincount(votes, torch.arange(9)).dtype)
weights = torch.rand(9, requires_grad=True)
counted = torch.bincount(votes, weights)
print(counted.grad_fn.name(), torch.tensor([], dtype=torch.long).bincount())
samples = torch.randn(200)
print(torch.histc(samples, bins=6), samples.histc(4, min=-1, max=1),
      torch.histc(torch.tensor([1.0, 1.0, 1.0]), bins=4),
      torch.histc(torch.arange(10.0, dtype=torch.float64), 3))
edges = torch.tensor([1.0, 3.0, 5.0, 7.0, 9.0])
values = torch.tensor([[3.0, 6.0, 9.0], [0.0, 5.0, 10.0]])
print(torch.searchsorted(edges, values), torch.searchsorted(edges, values, right=True),
      torch.searchsorted(edges, values, side="right", out_int32=True),
      torch.searchsorted(edges, 4), torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]),
                                                        torch.tensor([[3, 6], [1, 5]])))
print(torch.searchsorted(torch.tensor([5.0, 1.0, 3.0]), torch.tensor([2.0, 4.0]),
                         sorter=torch.tensor([1, 2, 0])))
print(torch.bucketize(values, edges), torch.bucketize(values, edges, right=True),
      torch.bucketize(4, edges))
print(torch.isin(votes, torch.tensor([1, 2])), torch.isin(votes, 3, invert=True),
      torch.isin(2.5, torch.tensor([2.5, 3.0])))
print(torch.count_nonzero(x), x.count_nonzero(dim=1), torch.count_nonzero(x, (0, 1)))
print(torch.tril_indices(3, 3), torch.triu_indices(4, 3, 1), torch.tril_indices(3, 4, -1,
                                                                                dtype=torch.int32))
print(torch.triu_indices(3, 3, 5), torch.tril_indices(0, 2))
u = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.tensor([4.0, 5.0], requires_grad=True)
grid = torch.cartesian_prod(u, v)
print(grid, grid.grad_fn.name(), torch.cartesian_prod(u) is u)
pairs = torch.combinations(u)
print(pairs, pairs.grad_fn.name(), torch.combinations(u, 3), torch.combinations(u, 0))
print(torch.combinations(u, with_replacement=True), torch.combinations(u, 4).shape)
(grid.pow(2).sum() + pairs.prod(1).sum()).backward()
print(u.grad, v.grad)

t = torch.tensor([[1.0, 3.0, 3.0, 2.0], [2.0, 2.0, 1.0, 1.0], [5.0, 5.0, 5.0, 0.0]],
                 requires_grad=True)
print(t.kthvalue(2, 1), torch.kthvalue(t, 3, dim=0, keepdim=True))
print(t.median(), t.median(1), torch.median(t, 0, keepdim=True))
print(t.mode(1), torch.mode(t, 0), t.nanmedian(dim=1).indices)
ties = torch.tensor([3.0, 1.0, 3.0, 1.0, 2.0, 2.0, 2.0, 1.0] * 3)
print(ties.mode(), ties.median(0), [ties.kthvalue(k).indices.item() for k in (1, 5, 9, 13, 24)])
holes = torch.tensor([[1.0, nan, 3.0, 2.0], [nan, nan, nan, nan], [4.0, 0.0, nan, 1.0]])
print(holes.nanmedian(1), holes.median(1), holes.nanmedian(), holes.median())
print(holes.kthvalue(2, 1), holes.mode(1))
kth = t.kthvalue(2, 1).values
middle = t.median()
by_row = t.median(1).values
often = t.mode(0).values
(kth.sum() + middle * 2 + by_row.pow(2).sum() + often.sum()).backward()
print(kth.grad_fn.name(), middle.grad_fn.name(), by_row.grad_fn.name(), often.grad_fn.name())
print(t.grad)
t.grad = None
(g,) = torch.autograd.grad(t.median() ** 2, t, create_graph=True)
print(g, g.grad_fn.name())
(h,) = torch.autograd.grad(t.kthvalue(1, 1).values.pow(2).sum(), t, create_graph=True)
print(h, h.grad_fn.name())
print(torch.tensor([3, 1, 2, 4]).median(), torch.tensor([3, 1, 3, 4]).mode())
w = torch.tensor([[0.5, 2.0, -1.0, 4.0], [3.0, 1.0, 0.0, 7.0]], requires_grad=True)
for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
    print(mode, w.quantile(0.4, interpolation=mode),
          torch.quantile(w, torch.tensor([0.25, 0.5, 0.9]), dim=1, interpolation=mode),
          w.nanquantile(0.5, dim=0, keepdim=True, interpolation=mode))
spots = torch.quantile(w, torch.tensor([0.3, 0.8]), dim=0, keepdim=True)
print(spots.shape, spots.grad_fn.name(), w.quantile(0.3).grad_fn.name())
spots.sum().backward()
print(w.grad)
w.grad = None
print(torch.tensor([1.0, nan, 3.0]).quantile(0.5), holes.nanquantile(0.5, dim=1))
q = w.nanquantile(torch.tensor([0.1, 0.9]))
q.sum().backward()
print(q, w.grad)
y = torch.tensor([[1.0, nan, 3.0], [nan, nan, 2.0]], requires_grad=True)
print(y.nansum(), y.nansum(1, keepdim=True), torch.nansum(y, dtype=torch.float64))
print(y.nanmean(), torch.nanmean(y, 0), y.nanmean().grad_fn.name(), y.nansum().grad_fn.name())
(y.nansum(0).sum() + y.nanmean(1).sum()).backward()
print(y.grad, torch.nansum(torch.tensor([1, 2])))
print(torch.tensor([[3.0, 1.0], [1.0, 2.0]]).msort(), torch.msort(t).grad_fn.name())
b = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
low_high = b.aminmax()
print(low_high, torch.aminmax(b, dim=1, keepdim=True), torch.tensor([3, 1, 2]).aminmax())
(low_high.min + 2 * low_high.max).backward()
print(b.grad, low_high.max.grad_fn.name())
b.grad = None
print(torch.take_along_dim(b, b.argsort(1), 1), b.take_along_dim(torch.tensor([5, 0])))
taken = torch.take_along_dim(b, torch.tensor([[0, 2]]), dim=1)
taken.sum().backward()
print(taken, taken.grad_fn.name(), b.grad)
b.grad = None
s, m = torch.std_mean(b)
print(s, m, torch.std_mean(b, 1, keepdim=True), torch.std_mean(b, unbiased=False))
print(torch.var_mean(b, 0), torch.var_mean(b, dim=(0, 1), correction=0), type(torch.var_mean(b)))
(s + m * 3).backward()
print(b.grad, s.grad_fn.name(), torch.var_mean(b)[0].grad_fn.name())
b.grad = None
torch.var_mean(b, 1)[1].sum().backward()
print(b.grad)
(g,) = torch.autograd.grad(sum(torch.var_mean(b, 0)).sum(), b, create_graph=True)
print(g.grad_fn.name())
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(torch.var_mean(b[:1], 0), [str(w.message)[:60] for w in caught])
base = torch.arange(12.0).view(3, 4)
print(base.storage_offset(), base[1].storage_offset(), base[1:, 2:].storage_offset(),
      base.t()[2].storage_offset(), base[:, 3].storage_offset(), base.flip(0).storage_offset(),
      base[2:].view(-1)[1:].storage_offset(), base.diagonal(1).storage_offset(),
      base.unbind(0)[2].storage_offset(), base.split(2, 1)[1].storage_offset(),
      base[1:].detach().storage_offset(), base[1:].clone().storage_offset(),
      base.expand(2, 3, 4)[1, 2].storage_offset(), base.narrow(1, 2, 2).storage_offset())
for bad in ("x.masked_select(torch.tensor([1, 0, 1, 0]))", "x.masked_select(torch.ones(3).bool())",
            "torch.kthvalue(t, 5, 1)", "torch.zeros(2, 0).median(1)", "t.bool().median()",
            "torch.quantile(w, 1.5)", "w.quantile(torch.tensor([0.5, -0.1]))",
            "torch.tensor([1, 2]).quantile(0.5)", "w.quantile(torch.tensor([0.5]).double())",
            "w.quantile(0.5, interpolation='cubic')", "torch.tensor([]).quantile(0.5)",
            "w.quantile(torch.tensor([[0.5]]))", "torch.tensor([1, -3]).bincount()",
            "torch.tensor([1.0, 3.0]).bincount()", "votes.bincount(torch.ones(2))",
            "votes.bincount(minlength=-1)", "counted.sum().backward()",
            "torch.unique(a).sum().backward()", "torch.histc(torch.tensor([1, 2]))",
            "torch.histc(samples, bins=4, min=3, max=1)", "torch.histc(samples, bins=0)",
            "torch.histc(torch.tensor([1.0, nan]), 3)",
            "torch.searchsorted(edges, values, side='left', right=True)",
            "torch.searchsorted(edges, values, side='middle')",
            "torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3, 6]]))",
            "torch.bucketize(values, values)", "torch.isin(1, 2)",
            "torch.count_nonzero(x, (1, 1))", "torch.tril_indices(-1, 3)",
            "torch.triu_indices(3, 3, dtype=torch.float32)", "torch.cartesian_prod(x, u)",
            "torch.cartesian_prod(u, torch.tensor([1, 2]))", "torch.combinations(u, -1)",
            "torch.take_along_dim(b, torch.tensor([0, 2]), dim=1)",
            "torch.take_along_dim(b, torch.tensor([[0.0]]), dim=1)",
            "torch.aminmax(torch.tensor([]))", "torch.aminmax(torch.zeros(2, 0), dim=1)",
            "torch.var_mean(torch.tensor([1, 2]))", "torch.nanmean(torch.tensor([1, 2]))",
            "torch.std_mean(b, (0, 0))", "torch.mode(torch.zeros(2, 0), 1)"):
    try:
        eval(bad)
    except Exception as error:
        print(type(error).__name__, error)
"""


def test_selection_ops_print_as_in_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
