"""Against torch run here: tensors pickled and unpickled as torch's (a leaf keeps
requires_grad, a non-leaf comes back a leaf, a Parameter a Parameter, a view its storage and
strides, shared storage shared again, through torch.save too); NumPy's floating-point
warnings not shown for the engine's own arithmetic while the script's own NumPy calls warn
as they do with torch; an import the engine makes later warns nothing, even where a script
shows every warning; ``x.T``'s deprecation warnings."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

PICKLING = r'''
import copy, io, pickle
import torch
from torch import nn

x = torch.ones(2, requires_grad=True)
x.grad = torch.full((2,), 3.0)
y = pickle.loads(pickle.dumps(x))
print(y, y.grad, y.is_leaf, y.grad_fn)
z = pickle.loads(pickle.dumps(x * 2))
print(z, z.is_leaf, z.grad_fn)
p = pickle.loads(pickle.dumps(nn.Parameter(torch.arange(3.0))))
print(type(p).__name__, p)
m = pickle.loads(pickle.dumps(nn.Linear(2, 1)))
print(m, type(m.weight).__name__, m.weight.shape)
grid = torch.arange(12.0).reshape(3, 4)
column = grid[:, 1]
both = pickle.loads(pickle.dumps([grid, column]))
print(both[1], both[1].is_contiguous(), both[1].stride(), both[1].storage_offset())
both[0][0, 1] = 100.0  # the view shares its storage again
print(both[1])
print(pickle.loads(pickle.dumps({"a": torch.tensor([1, 2], dtype=torch.int16),
                                 "b": torch.tensor(2.5, dtype=torch.float64),
                                 "c": torch.tensor([True]), "d": torch.tensor([1 + 2j])})))
buffer = io.BytesIO()
torch.save({"grid": grid, "column": column, "step": 3}, buffer)
buffer.seek(0)
loaded = torch.load(buffer, weights_only=True)
loaded["grid"][2, 1] = -1.0
print(loaded["column"], loaded["column"].stride(), loaded["step"])
print(copy.deepcopy(x).requires_grad, pickle.loads(pickle.dumps(torch.Size([2, 3]))))
w = torch.zeros(3)
apart = pickle.loads(pickle.dumps([w, w.detach(), w]))
apart[0][0] = 5.0
print(apart[1], apart[2] is apart[0])
'''

FLOAT_WARNINGS = r'''
import warnings
import numpy as np
import torch

print(np.log(np.zeros(1)), np.float32(3e38) * np.float32(10), np.geterr()["divide"])
x = torch.tensor([0.0, 1.0], requires_grad=True)
(torch.log(x) + 1 / x + x.sqrt()).sum().backward()
print(x.grad, torch.tensor([0.0]) / 0, torch.tensor([1e30]) * 1e30, torch.tensor([-1.0]).log())
warnings.simplefilter("always")  # (an import the engine makes now warns nothing)
print(torch.get_default_device(), torch.nn.functional.softsign(torch.tensor([-2.0, 2.0])))
with warnings.catch_warnings(record=True) as seen:
    np.log(np.zeros(1))
print(len(seen), seen[0].message, seen[0].category.__name__)
'''

TRANSPOSED = r'''
import torch

cube = torch.ones(2, 3, 4, requires_grad=True)
print(cube.T.shape, cube.T.stride(), cube.T.grad_fn.name())
print(cube.T.shape)  # (each warning once)
scalar = torch.tensor(2.0, requires_grad=True)
row = torch.ones(3, requires_grad=True)
print(scalar.T is scalar, scalar.T.grad_fn.name(), row.T is row, row.T.grad_fn.name())
print(torch.ones(2, 2).T.shape, cube.mT.shape)
'''


def test_tensors_pickle_as_torchs(tmp_path):
    assert_playground_prints_as_torch(PICKLING, tmp_path)


def test_the_engines_own_arithmetic_does_not_warn_and_a_scripts_numpy_does(tmp_path):
    assert_playground_prints_as_torch(FLOAT_WARNINGS, tmp_path)


def test_x_T_warns_as_torch_for_all_but_matrices(tmp_path):
    assert_playground_prints_as_torch(TRANSPOSED, tmp_path)
