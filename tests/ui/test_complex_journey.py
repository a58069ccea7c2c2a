"""A complex-valued script in the real window, typed with key events and run: its leaves show
complex values and gradients on the graph's nodes, the console prints torch's text, and the
plots show each complex tensor twice: real parts against ∂L/∂Re, imaginary against ∂L/∂Im."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.ui.test_journeys import leaf_lines, press_run_all, type_code

COMPLEX_SCRIPT = [
    "import torch",
    "z = torch.tensor([1+2j, 3-0.5j], requires_grad=True)",
    "w = torch.tensor([0.5-1j, 2+0j], requires_grad=True)",
    "loss = (z * w).real.sum()",
    "loss.backward()",
    "print(z.grad, w.grad)",
]


def test_complex_leaves_show_values_and_gradients_on_nodes_and_plots(qtbot, window):
    pytest.importorskip("torch")
    type_code(qtbot, window, COMPLEX_SCRIPT)
    press_run_all(qtbot, window)
    # the console prints what python with real torch prints, run here
    printed = subprocess.run([sys.executable, "-c", "\n".join(COMPLEX_SCRIPT)], text=True,
                             capture_output=True, check=True, timeout=120).stdout
    assert printed in window.console.toPlainText()
    # d Re(z w)/d Re z = Re w, d/d Im z = -Im w: torch's z.grad is w.conj(), w's z.conj()
    leaves = leaf_lines(window)
    assert leaves["z"][2:] == ["[1.0+2.0j, 3.0-0.5j]", "grad [0.5+1.0j, 2.0+0.0j]"]
    assert leaves["w"][2:] == ["[0.5-1.0j, 2.0+0.0j]", "grad [1.0-2.0j, 3.0+0.5j]"]
    plots = window.plots
    points = {s.name: plots.items[s.key].getData() for s in plots.series}
    assert sorted(points) == ["w.imag", "w.real", "z.imag", "z.real"]
    assert [list(axis) for axis in points["z.real"]] == [[1.0, 3.0], [0.5, 2.0]]
    assert [list(axis) for axis in points["z.imag"]] == [[2.0, -0.5], [1.0, 0.0]]
    assert [plot.titleLabel.text for plot in plots.plots][:2] == ["z.real (2)", "z.imag (2)"]
    if os.environ.get("PLAYGROUND_SHOT"):  # (to look at: PLAYGROUND_SHOT=complex.png)
        window.grab().save(os.environ["PLAYGROUND_SHOT"])
    # selecting z on the graph picks out both of its series
    window.graph_view.select([window.view_state.graph.by_name("z").id])
    assert {s.name for s in plots.series if plots.items[s.key].opts["size"] == 11} == \
        {"z.real", "z.imag"}
