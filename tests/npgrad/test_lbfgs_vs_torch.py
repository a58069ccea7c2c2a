"""torch.optim.LBFGS on npgrad against real torch, run here. The algorithm is checked exactly:
with torch's own dot product in the engine (MKL adds a dot's terms in an order of its own, so
a float's last bit may differ, and Rosenbrock's valley grows such a bit into the third digit
after sixty iterations), every step, loss, closure count and kept state is torch's, with and
without the strong-Wolfe line search, in float32 and float64. Without it, the losses printed
with a line search, and those of a small least-squares fit, are torch's too."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import run_printing

ROSENBROCK = """
def rosenbrock(xy):
    x, y = xy
    return (1 - x) ** 2 + 100 * (y - x ** 2) ** 2

for search in SEARCHES:
    for dtype in (torch.float64, torch.float32):
        xy = torch.tensor([-1.5, 2.0], dtype=dtype, requires_grad=True)
        optimizer = torch.optim.LBFGS([xy], lr=1, max_iter=20, history_size=10,
                                      line_search_fn=search)
        calls = []

        def closure():
            optimizer.zero_grad()
            loss = rosenbrock(xy)
            loss.backward()
            calls.append(1)
            return loss

        for step in range(5):
            loss = optimizer.step(closure)
            print(search, dtype, step, f"{loss.item():.6f}", [f"{v:.5f}" for v in xy.tolist()],
                  len(calls))
        state = optimizer.state[xy]
        print(state["func_evals"], state["n_iter"], len(state["old_dirs"]),
              f"{float(state['t']):.6f}", f"{float(state['H_diag']):.6f}")
print(optimizer)
"""


def test_lbfgs_takes_torchs_steps_given_torchs_dot_product(torch, engine, monkeypatch):
    def torch_dot(self, other):  # the one kernel whose rounding is MKL's own
        value = torch.from_numpy(np.ascontiguousarray(self._data)).dot(
            torch.from_numpy(np.ascontiguousarray(other._data)))
        return engine.Tensor._make(np.asarray(value.numpy()))

    code = "SEARCHES = (None, 'strong_wolfe')\n" + ROSENBROCK
    expected = run_printing(code, torch)
    monkeypatch.setattr(engine.Tensor, "dot", torch_dot)
    assert run_printing(code, engine) == expected


def test_lbfgs_with_a_line_search_prints_torchs_losses(torch, engine):
    code = "SEARCHES = ('strong_wolfe',)\n" + ROSENBROCK
    assert run_printing(code, engine) == run_printing(code, torch)


def test_lbfgs_fits_a_line_as_torch_does(torch, engine):
    code = """
x = torch.linspace(-1, 1, 12, dtype=torch.float64)
y = 2 * x - 0.5 + 0.1 * torch.sin(7 * x)
w = torch.zeros(2, dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.LBFGS([w], lr=0.8, max_iter=6)
def closure():
    optimizer.zero_grad()
    loss = ((w[0] * x + w[1] - y) ** 2).mean()
    loss.backward()
    return loss
for step in range(3):
    print(f"{optimizer.step(closure).item():.8f}", [f"{v:.6f}" for v in w.tolist()])
"""
    assert run_printing(code, engine) == run_printing(code, torch)


@pytest.mark.parametrize("call", [
    "torch.optim.LBFGS([{'params': [p]}, {'params': [q]}])",
    "torch.optim.LBFGS([p]).step()",
    "torch.optim.LBFGS([p], line_search_fn='bogus').step(lambda: (p * p).sum())",
])
def test_lbfgs_refuses_what_torch_refuses(call, torch, engine):
    code = f"""
p = torch.ones(2, requires_grad=True)
q = torch.ones(1, requires_grad=True)
try:
    {call}
except Exception as error:
    print(type(error).__name__, error)
"""
    assert run_printing(code, engine) == run_printing(code, torch)
