"""Mistakes raise torch's exception type with torch's exact message."""

from __future__ import annotations

import pytest

SCENARIOS = {
    "non-scalar backward": "(torch.ones(3, requires_grad=True) * 2).backward()",
    "second backward": """
x = torch.ones(3, requires_grad=True)
y = (x * x).sum()
y.backward()
y.backward()
""",
    "second backward through exp": """
x = torch.ones(3, requires_grad=True)
y = x.exp().sum()
y.backward()
y.backward()
""",
    "dist of integer tensors": "torch.dist(torch.ones(3, dtype=torch.int64), torch.ones(3, "
                               "dtype=torch.int64))",
    "norm of an integer tensor": "torch.ones(3, dtype=torch.int32).norm(p=1)",
    "trace of a vector": "torch.trace(torch.ones(3))",
    "trace of bools": "torch.ones(3, 2, dtype=torch.bool).trace()",
    "logdet of a non-square matrix": "torch.logdet(torch.ones(2, 3))",
    "logdet of integers": "torch.logdet(torch.ones(2, 2, dtype=torch.int64))",
    "dist with a number": "torch.dist(torch.ones(3), 2.0)",
    "backward of dist with p=0": """
a = torch.tensor([1., -2., 3.], requires_grad=True)
b = torch.tensor([0.5, 0.5, 0.5], requires_grad=True)
torch.dist(a, b, 0).backward()
""",
    "integer requires_grad at creation": "torch.tensor([1, 2], requires_grad=True)",
    "integer requires_grad_": "torch.tensor([1, 2]).requires_grad_()",
    "numpy of a tensor that requires grad": "torch.ones(2, requires_grad=True).numpy()",
    "in-place on a leaf": "torch.ones(2, requires_grad=True).add_(1)",
    "augmented assignment on a leaf": """
w = torch.ones(2, requires_grad=True)
w -= 0.1
""",
    "item assignment on a leaf": """
w = torch.ones(2, requires_grad=True)
w[0] = 3.
""",
    "in-place on a view of a leaf": "torch.ones(3, requires_grad=True)[0:2].mul_(2)",
    "backward of a tensor that needs no grad": "torch.ones(2).sum().backward()",
    "saved result changed in place": """
x = torch.ones(3, requires_grad=True)
y = x.exp()
y.add_(1)
y.sum().backward()
""",
    "saved input changed in place": """
x = torch.ones(3, requires_grad=True)
a = x * 2
b = a * a
a.mul_(2)
b.sum().backward()
""",
    "saved leaf changed under no_grad": """
x = torch.ones(3, requires_grad=True)
y = (x * x).sum()
with torch.no_grad():
    x.add_(1)
y.backward()
""",
    "double saved changed": """
x = torch.ones(3, dtype=torch.float64, requires_grad=True)
s = x.sigmoid()
s.mul_(2)
s.sum().backward()
""",
    "broadcast mismatch": "torch.ones(3) + torch.ones(2)",
    "broadcast mismatch 2d": "torch.ones(2, 3) * torch.ones(3, 2)",
    "matmul mismatch": "torch.ones(2, 3) @ torch.ones(2, 3)",
    "mm mismatch": "torch.ones(2, 3).mm(torch.ones(4, 2))",
    "mv mismatch": "torch.ones(2, 3) @ torch.ones(2)",
    "dot mismatch": "torch.ones(3) @ torch.ones(2)",
    "vector-matrix mismatch": "torch.ones(3) @ torch.ones(2, 3)",
    "matmul of a 0-d tensor": "torch.ones(3) @ torch.tensor(2.)",
    "bmm mismatch": "torch.ones(2, 2, 3).bmm(torch.ones(2, 2, 3))",
    "view of wrong size": "torch.ones(2, 3).view(4)",
    "view of a transposed tensor": "torch.ones(2, 3).t().view(6)",
    "reshape of wrong size": "torch.ones(3).reshape(2, 2)",
    "gradient of the wrong shape":
        "(torch.ones(3, requires_grad=True) * 2).backward(torch.ones(2))",
    "requires_grad=False on a non-leaf":
        "(torch.ones(2, requires_grad=True) * 2).requires_grad = False",
    "item of many elements": "torch.ones(3).item()",
    "index out of range": "torch.ones(3)[5]",
    "too many indices": "torch.ones(3)[0, 0]",
    "cat of mismatched sizes": "torch.cat([torch.ones(2, 2), torch.ones(3, 3)])",
    "stack of mismatched sizes": "torch.stack([torch.ones(2), torch.ones(3)])",
    "float of many elements": "float(torch.ones(3))",
    "bool of many elements": "bool(torch.ones(3))",
    "unused input in grad": """
x = torch.ones(3, requires_grad=True)
torch.autograd.grad((x * 2).sum(), [torch.ones(2, requires_grad=True)])
""",
    "grad_outputs of the wrong shape": """
x = torch.ones(3, requires_grad=True)
torch.autograd.grad((x * 2).sum(), x, torch.ones(3))
""",
    "dimension out of range": "torch.ones(3).sum(2)",
    "squeeze dimension out of range": "torch.ones(3).squeeze(3)",
    "len of a 0-d tensor": "len(torch.tensor(1.))",
    "iteration over a 0-d tensor": "iter(torch.tensor(1.))",
    "expand to an incompatible size": "torch.ones(3).expand(2, 2)",
    "mean of integers": "torch.tensor([1, 2]).mean()",
    "in-place float into an integer tensor": "torch.tensor([1, 2]).add_(1.5)",
    "floor_divide has no derivative": "(torch.ones(2, requires_grad=True) // 2).sum().backward()",
    "subtracting bools": "torch.tensor([True]) - torch.tensor([False])",
    "negating a bool tensor": "-torch.tensor([True])",
    "integer to a negative power": "torch.tensor([2]) ** -1",
    "retain_grad on a tensor without grad": "torch.ones(2).retain_grad()",
}


def _outcome(code: str, module):
    try:
        exec(compile(code, "<scenario>", "exec"), {"torch": module})
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return type(error).__name__, str(error)
    return None


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_error_matches_torch(name, torch, engine):
    code = SCENARIOS[name]
    expected = _outcome(code, torch)
    assert expected is not None, "the scenario must fail under torch"
    assert _outcome(code, engine) == expected
