"""Each graph node carries the line and expression of the user's code that made it, the same
on both engines; marking the statements changes nothing of what the code does."""

from __future__ import annotations

import traceback

import pytest

from playground.engines import source_lines
from playground.engines.base import run_code
from playground.engines.numpy_engine import NumpyEngine
from playground.engines.torch_engine import TorchEngine

CHAIN = '''"""The seed's chain rule, with a helper function."""
import torch

a = torch.tensor([2.0], requires_grad=True)
w1 = torch.tensor([3.0], requires_grad=True)
w3 = torch.tensor([4.0], requires_grad=True)
w4 = torch.tensor([0.5], requires_grad=True)
b = w1 * a
d = w3 * b + w4 * (-a)


def half_square(value):
    """Half the square, summed."""
    squared = value ** 2
    return squared.sum() / 2


L = half_square(d) + torch.sin(a).sum()
L.backward()
'''
LEAF = {4: "torch.tensor([2.0], requires_grad=True)", 5: "torch.tensor([3.0], requires_grad=True)",
        6: "torch.tensor([4.0], requires_grad=True)", 7: "torch.tensor([0.5], requires_grad=True)"}
EXPECTED = [  # (label, line, expression) in the graph's order
    ("a", 4, LEAF[4]), ("w1", 5, LEAF[5]), ("w3", 6, LEAF[6]), ("w4", 7, LEAF[7]),
    ("b", 8, "w1 * a"), ("MulBackward0", 8, "w1 * a"),
    ("d", 9, "w3 * b + w4 * (-a)"), ("AddBackward0", 9, "w3 * b + w4 * (-a)"),
    ("L", 18, "half_square(d) + torch.sin(a).sum()"),
    ("AddBackward0", 18, "half_square(d) + torch.sin(a).sum()"),  # after the call returned
    ("SumBackward0", 18, "torch.sin(a).sum()"), ("SinBackward0", 18, "torch.sin(a)"),
    ("DivBackward0", 15, "squared.sum() / 2"), ("SumBackward0", 15, "squared.sum()"),
    ("PowBackward0", 14, "value ** 2"),  # inside the user's function: its own lines
    ("MulBackward0", 9, "w4 * (-a)"), ("AccumulateGrad", 7, LEAF[7]),
    ("NegBackward0", 9, "-a"), ("MulBackward0", 9, "w3 * b"),
    ("AccumulateGrad", 6, LEAF[6]), ("AccumulateGrad", 5, LEAF[5]),
    ("AccumulateGrad", 4, LEAF[4]),  # an AccumulateGrad, its leaf's
]


@pytest.mark.parametrize("engine", ["numpy", "torch"])
def test_every_node_of_the_chain_rule_names_its_line_and_expression(engine):
    run = run_code(CHAIN, NumpyEngine() if engine == "numpy" else TorchEngine("cpu"), "chain.py")
    assert run.error is None, run.error
    assert run.graph.file == "chain.py"
    found = [(node.label, node.line, node.expression) for node in run.graph.nodes]
    assert found == EXPECTED


def test_a_rerun_reads_the_same_statements_and_an_edit_reads_the_new_ones():
    # (what a statement's operations and text are is kept while the statement lives: Live
    # and Run all again run the same compiled text)
    engine = NumpyEngine()
    runs = [run_code(CHAIN, engine, "chain.py") for _ in range(2)]
    for run in runs:
        assert [(node.label, node.line, node.expression) for node in run.graph.nodes] == EXPECTED
    edited = CHAIN.replace("d = w3 * b + w4 * (-a)", "d = w3 * b - w4 * a + 0")
    run = run_code(edited, engine, "chain.py")
    found = [(node.label, node.line, node.expression) for node in run.graph.nodes]
    assert ("AddBackward0", 9, "w3 * b - w4 * a + 0") in found
    assert ("SubBackward0", 9, "w3 * b - w4 * a") in found
    assert not any(expression and "(-a)" in expression for _, _, expression in found)


def test_a_notebooks_earlier_cells_keep_their_lines():
    namespace = {"__name__": "__main__"}
    engine = NumpyEngine()
    first = "import torch\nx = torch.ones(2, requires_grad=True)\ny = x.exp()\n"
    assert run_code(first, engine, "<cell>", namespace).error is None
    later = "\n" * 4 + "z = (y * 3).sum()\n"  # the cell's lines as the editor numbers them
    run = run_code(later, engine, "<cell>", namespace)
    found = {node.label: (node.line, node.expression) for node in run.graph.nodes}
    assert found["ExpBackward0"] == (3, "x.exp()")
    assert found["MulBackward0"] == (5, "y * 3") and found["SumBackward0"] == (5, "(y * 3).sum()")


def test_a_module_call_names_the_call_and_a_parameter_its_modules_line():
    code = ("import torch\ntorch.manual_seed(0)\nnet = torch.nn.Sequential(\n"
            "    torch.nn.Linear(3, 2), torch.nn.Tanh())\nx = torch.randn(4, 3)\n"
            "loss = net(x).pow(2).mean()\n")
    run = run_code(code, NumpyEngine())
    found = {node.label: (node.line, node.expression) for node in run.graph.nodes}
    assert found["TanhBackward0"] == (6, "net(x)") and found["AddmmBackward0"] == (6, "net(x)")
    assert found["PowBackward0"] == (6, "net(x).pow(2)")
    assert found["MeanBackward0"] == (6, "net(x).pow(2).mean()")
    weight = run.graph.by_name("net.0.weight")
    assert (weight.line, weight.expression) == (
        3, "torch.nn.Sequential( torch.nn.Linear(3, 2), torch.nn.Tanh())")


BEHAVIOUR = '''"""What the module says of itself."""
from __future__ import annotations
import sys
import torch

count = 0


def numbers(n):
    for i in range(n):
        yield torch.tensor(float(i), requires_grad=True) * 2


def bump():
    """Counts."""
    global count
    count += 1
    return count


class Box:
    """A box."""
    size: Size = 3
    doubled = size * 2


def fails():
    x = 1
    raise ValueError("no")


def deep(n):
    return deep(n + 1)


made = sum(numbers(3))
bump(); bump()
try:
    fails()
except ValueError:
    where = sys.exc_info()[2].tb_next.tb_lineno
try:
    deep(0)
except RecursionError:
    recursed = True
result = (__doc__, bump.__doc__, Box.__doc__, Box.doubled, count, where, recursed,
          Box.__annotations__)
'''


def test_marked_code_does_what_the_plain_code_does():
    namespace = {"__name__": "__main__"}
    run = run_code(BEHAVIOUR, NumpyEngine(), "<script>", namespace)
    assert run.error is None, run.error
    assert namespace["result"] == ("What the module says of itself.", "Counts.", "A box.", 6,
                                   2, 29, True, {"size": "Size"})
    # a generator's nodes are made in its caller's statement
    made = {node.label: node.line for node in run.graph.nodes}
    assert made["AddBackward0"] == 36 and made["MulBackward0"] == 36


def test_a_traceback_points_at_the_users_lines():
    code = "import torch\n\n\ndef f(x):\n    return x.nope()\n\n\nf(torch.ones(1))\n"
    run = run_code(code, NumpyEngine(), "<script>")
    frames = [(frame.lineno, frame.line) for frame in traceback.extract_tb(
        run.error.__traceback__) if frame.filename == "<script>"]
    assert [line for line, _ in frames] == [8, 5]


def test_the_marks_of_a_long_loop_are_bounded(monkeypatch):
    monkeypatch.setattr(source_lines, "KEPT_MARKS", 100)
    namespace = {"__name__": "__main__"}
    code = "import torch\nx = torch.ones(1, requires_grad=True)\nfor _ in range(1000):\n" \
           "    y = x * 2\n"
    run = run_code(code, NumpyEngine(), "<script>", namespace)
    marks = namespace[source_lines.MARKS_NAME]
    assert len(marks.starts) == len(marks.lines) <= 2 * 100
    assert {node.label: node.line for node in run.graph.nodes}["MulBackward0"] == 4


COMPILED = '''import torch


@torch.compile(backend="eager", fullgraph=True)
def total(x):
    y = x * 2
    return y.sin().sum()


x = torch.ones(3, requires_grad=True)
loss = total(x)
loss.backward()
'''


def test_torch_compile_traces_a_marked_function_whole():
    """torch.compile's tracer cannot follow the run's own calls: they step aside while it
    traces, or fullgraph=True would stop at the function's first statement. The compiled
    function's nodes are its caller's line's."""
    run = run_code(COMPILED, TorchEngine("cpu"))
    assert run.error is None, run.error
    assert {node.line for node in run.graph.nodes if node.kind == "function"} == {11}


def test_a_comprehensions_operations_name_the_nodes_of_every_pass():
    code = ("import torch\nweights = [torch.ones(2, requires_grad=True) * k for k in (1., 2.)]\n"
            "decay = sum((w ** 2).sum() for w in weights)\n")
    run = run_code(code, NumpyEngine())
    made = sorted({(node.label, node.expression) for node in run.graph.nodes
                   if node.line == 3 and node.kind == "function"})
    assert made == [("AddBackward0", "sum((w ** 2).sum() for w in weights)"),
                    ("PowBackward0", "w ** 2"), ("SumBackward0", "(w ** 2).sum()")]
