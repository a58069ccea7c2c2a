"""A module's parts by dotted name on npgrad against real torch run here: get_submodule,
get_parameter and get_buffer, with torch's errors for what is missing or of the wrong kind."""

from __future__ import annotations

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r"""
import torch
from torch import nn
class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
        self.scale = 2.0
model = nn.Sequential(Block(), nn.ReLU()).share_memory()
print(model.get_submodule("0.inner.1"), model.get_submodule("") is model)
print(model.get_parameter("0.inner.0.bias").shape, model.get_buffer("0.inner.1.running_var"))
for call in [lambda: model.get_submodule("0.outer"), lambda: model.get_submodule("0.scale"),
             lambda: model.get_parameter("0.inner.1.running_mean"),
             lambda: model.get_parameter("0.inner.0.nothing"),
             lambda: model.get_buffer("0.inner.0.weight"), lambda: model.get_buffer("1.x")]:
    try:
        call()
    except AttributeError as error:
        print(error)
"""


def test_a_modules_parts_are_found_by_dotted_name_as_torch_finds_them(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
