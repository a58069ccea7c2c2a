"""NumPy's floating-point warnings from the engine's arithmetic (log(0), 0/0, sqrt(-1), and
the same in backward formulas) stay unseen as torch's are, under any filters a script sets:
simplefilter("always"), "error" inside catch_warnings, after resetwarnings; the script's own
NumPy calls still warn or raise as Python's do. Against torch run here."""

from __future__ import annotations

import warnings

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import warnings
import numpy as np
import torch
x = torch.tensor([-1.0, 0.0, 4.0], requires_grad=True)
warnings.simplefilter("always")
y = torch.sqrt(x) + torch.log(x) + 1 / x
y.sum().backward()
print(y, x.grad)
with warnings.catch_warnings():
    warnings.simplefilter("error")
    print(torch.log(torch.tensor([-2.0, 0.0])), torch.tensor([0.0]) / 0)
    try:
        np.log(np.array([-1.0]))
    except RuntimeWarning as warning:
        print("numpy raised:", warning)
warnings.resetwarnings()
warnings.filterwarnings("error", category=RuntimeWarning)
print(torch.tensor([1.0, -1.0]).log().exp())
try:
    print(np.array([1.0]) / 0)
except RuntimeWarning as warning:
    print("numpy raised:", warning)
'''


def test_the_engines_arithmetic_warns_of_nothing_whatever_the_filters(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


def test_the_engine_filter_stays_first_after_the_scripts_own():
    from playground.npgrad import _quiet_warnings

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.filterwarnings("error", category=RuntimeWarning)
        assert warnings.filters[0] is _quiet_warnings.ENGINE_FILTER
        assert warnings.filters[1][0] == "error"
        assert warnings.filters.count(_quiet_warnings.ENGINE_FILTER) == 1
