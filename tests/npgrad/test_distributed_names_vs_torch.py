"""What a training script that can also run distributed does in one process, against torch run
here: torch.distributed imported (init_process_group, ReduceOp), asked whether it is
available or initialized, its collectives and DistributedDataParallel refused without a
process group in torch's words, and DataParallel on a machine without GPUs holding and
calling its module (``module.`` in its parameters' names)."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

SCRIPT = r'''
import os
import torch
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.distributed import init_process_group, destroy_process_group
import torch.distributed as dist
print(dist.is_available(), dist.is_initialized(), dist.is_torchelastic_launched(),
      dist.is_gloo_available(), dist.is_nccl_available(), dist.is_mpi_available())
print(int(os.environ.get('RANK', -1)) != -1, DDP.__name__, DDP.__module__)
print(dist.ReduceOp.SUM, dist.ReduceOp.AVG, type(dist.ReduceOp.SUM).__name__)
for call in (dist.get_rank, dist.get_world_size, dist.barrier, dist.get_backend,
             lambda: dist.all_reduce(torch.ones(1), op=dist.ReduceOp.SUM),
             lambda: DDP(torch.nn.Linear(2, 2)), destroy_process_group):
    try:
        print(call())
    except (ValueError, AssertionError) as error:
        print(type(error).__name__, error)
torch.manual_seed(0)
model = torch.nn.DataParallel(torch.nn.Linear(2, 1))
print(model, type(model), torch.nn.parallel.DataParallel is torch.nn.DataParallel)
print(model.device_ids, [name for name, _ in model.named_parameters()],
      list(model.state_dict()))
out = model(torch.ones(3, 2))
out.sum().backward()
print(out, model.module.weight.grad)
'''


def test_one_process_prints_as_torch(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)
