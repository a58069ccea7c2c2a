"""The cases (tests/npgrad/cases.py's Case) for _selection.py's rows."""

from __future__ import annotations

from tests.npgrad.cases import Case, _second


def _with_nans(m, a):
    """a with NaN where it is above 1 (the gradient there is 0)."""
    return a.masked_fill(a > 1, float("nan"))


def _levels(m, a, *values):
    return m.tensor(list(values), dtype=a.dtype)


SELECTION_CASES: list = [
    Case("kthvalue", ((3, 5),), lambda m, a: m.kthvalue(a, 2, 1).values),
    Case("kthvalue", ((4, 3),), lambda m, a: a.kthvalue(3, dim=0, keepdim=True).values,
         label="keepdim"),
    Case("kthvalue", ((3, 4),), _second(lambda m, a: a.kthvalue(2).values), label="second"),
    Case("median_dim", ((3, 5),), lambda m, a: a.median(1).values),
    Case("median_dim", ((4, 3),), lambda m, a: m.median(a, 0, keepdim=True)[0],
         label="keepdim"),
    Case("median_dim", ((3, 4),), _second(lambda m, a: a.median(0).values), label="second"),
    Case("nanmedian_dim", ((3, 6),), lambda m, a: _with_nans(m, a).nanmedian(1).values),
    Case("nanmedian_dim", ((3, 4),), _second(lambda m, a: a.nanmedian(0).values),
         label="second"),
    Case("mode", ((3, 5),), lambda m, a: a.mode(1).values),
    Case("mode", ((3, 4),), lambda m, a: m.cat([a, a.flip(1), a], 1).mode().values,
         label="ties"),
    Case("mode", ((4, 3),), _second(lambda m, a: m.mode(a, 0, True).values), label="second"),
    Case("median", ((3, 5),), lambda m, a: a.median()),
    Case("median", ((2, 3),), lambda m, a: m.cat([a, a]).median(), label="ties"),
    Case("nanmedian", ((3, 5),), lambda m, a: _with_nans(m, a).nanmedian()),
    Case("median_fill", ((3, 4),), _second(lambda m, a: a.median())),
    Case("median_fill", ((3, 4),), _second(lambda m, a: a.nanmedian()), label="nanmedian"),
    Case("masked_select", ((3, 4),), lambda m, a: a.masked_select(a > 0)),
    Case("masked_select", ((2, 3),), lambda m, a: m.masked_select(
        a, m.tensor([True, False, True])), label="broadcast"),
    Case("masked_select", ((3,),), lambda m, a: m.masked_select(
        a, m.tensor([[True], [False]])), label="broadcast-self"),
    Case("masked_select_backward", ((3, 4),), _second(lambda m, a: a.masked_select(a > 0))),
    Case("nansum", ((3, 4),), lambda m, a: _with_nans(m, a).nansum()),
    Case("nansum", ((3, 4),), lambda m, a: m.nansum(_with_nans(m, a), 1, keepdim=True),
         label="dim"),
    Case("nansum", ((2, 3, 4),), lambda m, a: _with_nans(m, a).nansum((0, 2)), label="dims"),
    Case("nansum", ((3, 4),), _second(lambda m, a: a.nansum(0)), label="second"),
    Case("div", ((3, 4),), lambda m, a: _with_nans(m, a).nanmean(1), label="nanmean"),
    Case("div", ((3, 4),), lambda m, a: m.nanmean(_with_nans(m, a)), label="nanmean-all"),
    Case("aminmax", ((3, 4),), lambda m, a: m.aminmax(a).min),
    Case("aminmax", ((3, 4),), lambda m, a: a.aminmax(dim=1, keepdim=True).max,
         label="dim-max"),
    Case("aminmax", ((3, 4),), lambda m, a: sum(m.aminmax(a, dim=0)), label="both"),
    Case("aminmax", ((3, 4),), _second(lambda m, a: a.aminmax(dim=1)[0]), label="second"),
    Case("var_mean", ((3, 4),), lambda m, a: m.var_mean(a, 1)[0]),
    Case("var_mean", ((3, 4),), lambda m, a: sum(m.var_mean(a, 0, keepdim=True)),
         label="both"),
    Case("var_mean", ((3, 4),), lambda m, a: m.var_mean(a, correction=0)[1], label="mean"),
    Case("var_mean", ((3, 4),), _second(lambda m, a: sum(m.var_mean(a, 1))), label="second"),
    Case("std_mean", ((3, 4),), lambda m, a: m.std_mean(a)[0]),
    Case("std_mean", ((3, 4),), lambda m, a: sum(m.std_mean(a, (0, 1), unbiased=False)),
         label="both"),
    Case("std_mean", ((2, 3, 4),), lambda m, a: m.std_mean(a, -1, keepdim=True)[1],
         label="mean"),
    Case("std_mean", ((3, 4),), _second(lambda m, a: m.std_mean(a, 1)[0]), label="second"),
    # quantile is torch's composite: sort, gather, lerp_, then its in-place view ops
    Case("selection_unsqueeze_", ((3, 5),), lambda m, a: m.quantile(
        a, _levels(m, a, 0.25, 0.5, 0.9), dim=1)),
    Case("selection_unsqueeze_", ((3, 5),), lambda m, a: a.nanquantile(
        _levels(m, a, 0.1, 0.6), dim=0, keepdim=True, interpolation="midpoint"),
        label="nan-midpoint"),
    Case("squeeze_dims", ((3, 5),), lambda m, a: a.quantile(0.3), label="quantile"),
    Case("squeeze_dims", ((2, 3, 4),), lambda m, a: m.quantile(a, 0.7, dim=1,
                                                               interpolation="nearest"),
         label="quantile-nearest"),
    Case("squeeze_dims", ((3, 5),), lambda m, a: _with_nans(m, a).nanquantile(0.4, 1),
         label="nanquantile"),
    Case("squeeze_dims", ((3, 5),), lambda m, a: a.quantile(0.3, 0, interpolation="lower"),
         label="quantile-lower"),
    Case("gather", ((3, 4),), lambda m, a: m.take_along_dim(a, a.argsort(1), 1),
         label="take_along_dim"),
    Case("gather", ((3, 4),), lambda m, a: a.take_along_dim(m.tensor([[0], [2], [1]]), 1),
         label="take_along_dim-broadcast"),
    Case("gather", ((3, 4),), lambda m, a: a.take_along_dim(m.tensor([5, 0, 11])),
         label="take_along_dim-flat"),
    Case("sort", ((3, 4),), lambda m, a: a.msort(), label="msort"),
    Case("stack", ((3,), (2,)), lambda m, a, b: m.cartesian_prod(a, b), label="cartesian"),
    Case("stack", ((4,),), lambda m, a: m.combinations(a, 3), label="combinations"),
    Case("stack", ((3,),), lambda m, a: m.combinations(a, with_replacement=True),
         label="combinations-replacement"),
    # nodes torch records without a derivative: only their names and values are compared
    Case("unique", ((6,),), lambda m, a: m.unique(a), label="name-only"),
    Case("unique_dim", ((3, 4),), lambda m, a: m.unique(a, dim=1), label="name-only"),
    Case("unique_consecutive", ((6,),), lambda m, a: a.unique_consecutive(),
         label="name-only"),
    Case("bincount", ((4,),), lambda m, a: m.bincount(m.tensor([1, 3, 3, 0]), a),
         label="name-only"),
    # the in-place shape methods on a tensor with history (_shape_inplace.py)
    Case("t_", ((2, 3),), lambda m, a: (a * 2).t_()),
    Case("as_strided_", ((2, 3),), lambda m, a: (a * 2).as_strided_((2, 2), (1, 2), 1)),
    Case("squeeze_all_", ((1, 3, 1),), lambda m, a: (a * 2).squeeze_()),
    Case("squeeze_tuple_", ((1, 3, 1),), lambda m, a: (a * 2).squeeze_((0, 2))),
    Case("histogram", ((5,),), lambda m, a: m.histogram(a, 3).hist, label="name-only"),
    Case("_histogramdd_from_bin_cts", ((4, 2),), lambda m, a: m.histogramdd(a, 2).hist,
         label="name-only"),
    Case("_histogramdd_from_bin_tensors", ((4, 2),),
         lambda m, a: m.histogramdd(a, [m.linspace(-3, 3, 4, dtype=a.dtype)] * 2).hist,
         label="name-only"),
    Case("_histogramdd_bin_edges", ((4, 2),), lambda m, a: m.histogramdd(a, 2).bin_edges[1],
         label="name-only"),
]
