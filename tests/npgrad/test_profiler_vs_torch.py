"""torch.profiler against torch run here, on what does not depend on the clock: which
operators, backward nodes and record_function ranges a profile lists and how often, the
table's columns and footer, key_averages grouped by input shape, the legacy
torch.autograd.profiler, record_function as a decorator and outside a profile; and that the
profiled code computes what it computes unprofiled. The table itself is checked in the
engine's own terms: its times add up. (torch also lists the operators its backward formulas
call, aten::pow inside PowBackward0: the engine's formulas are NumPy's, not operators.)"""

from __future__ import annotations

import re

from tests.oracle import assert_playground_prints_as_torch

SCRIPT = r'''
import re
import torch
from torch import nn
from torch.profiler import ProfilerActivity, profile, record_function

torch.manual_seed(1)
model = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 1))
x = torch.randn(3, 6)
unprofiled = model(x)

@record_function("loss_of")
def loss_of(prediction):
    return (prediction ** 2).mean()

with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
    with record_function("forward"):
        y = model(x)
    loss = loss_of(y)
    loss.backward()
print(torch.equal(y, unprofiled), model[0].weight.grad.shape)
events = prof.events()
print(type(events).__name__, type(events[0]).__name__, {e.count for e in events})
ids = [e.id for e in events]
print(len(events) > len(prof.key_averages()), sorted(ids) == ids)
forward = next(e for e in events if e.name == "forward")
print([child.name for child in forward.cpu_children], forward.cpu_parent)
first = forward.cpu_children[0]
print([e.name for e in first.cpu_children][:1], first.cpu_parent.name)
print(forward.cpu_time_total >= forward.self_cpu_time_total >= 0)
counts = {row.key: row.count for row in prof.key_averages()}
for key in ("forward", "loss_of", "aten::linear", "aten::addmm", "aten::relu", "aten::mean",
            "AddmmBackward0", "ReluBackward0", "PowBackward0", "MeanBackward0",
            "torch::autograd::AccumulateGrad"):
    print(key, counts.get(key))
table = prof.key_averages().table(sort_by="cpu_time_total", row_limit=4)
lines = table.splitlines()
print(len(lines), re.split(r"\s{2,}", lines[1].strip()), lines[-1].split(":")[0])
print(all(len(line) == len(lines[0]) for line in lines[:-1]), table.endswith("\n"))
shaped = prof.key_averages(group_by_input_shape=True)
print(sorted(row.input_shapes for row in shaped if row.key == "aten::linear"))
print(re.split(r"\s{2,}", shaped.table(row_limit=1).splitlines()[1].strip())[-1])
print(loss_of(torch.ones(2)))
with torch.autograd.profiler.profile() as legacy:
    torch.ones(3).exp().sum()
print(sorted(row.key for row in legacy.key_averages() if row.key in ("aten::exp", "aten::sum")))
print(ProfilerActivity.CPU, torch.autograd.profiler.record_function)

from torch.profiler import schedule
cycles = schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1)
print([cycles(step).name for step in range(11)])
handed = []
def ready(profiled):
    rows = {row.key: row.count for row in profiled.key_averages()}
    handed.append((profiled.step_num, rows.get("aten::sin"), rows.get("aten::cos")))
t = torch.ones(3)
with profile(schedule=schedule(wait=1, warmup=1, active=2), on_trace_ready=ready) as prof:
    for step in range(9):
        t.sin()
        if step % 2:
            t.cos()
        prof.step()
print(handed)
try:
    schedule(wait=0, warmup=0, active=0)
except AssertionError as e:
    print("AssertionError", e)
'''


def test_profiles_list_what_torchs_list(tmp_path):
    assert_playground_prints_as_torch(SCRIPT, tmp_path)


def test_the_table_adds_up():
    """Percentages of the self time total, each name's total no less than its self time, the
    rows sorted as asked."""
    import playground.npgrad as torch
    from playground.npgrad.profiler import profile, record_function

    weight = torch.ones(4, 4, requires_grad=True)
    before = (torch.add, torch.Tensor.__mul__)
    with profile() as prof, record_function("outer"):
        (weight * 2).relu().sum().backward()
    assert (torch.add, torch.Tensor.__mul__) == before  # the timers are gone
    rows = prof.key_averages()
    assert all(row.cpu_time_total >= row.self_cpu_time_total >= 0 for row in rows)
    lines = rows.table(sort_by="self_cpu_time_total").splitlines()[3:-2]
    shares = [float(re.split(r"\s{2,}", line.strip())[1].rstrip("%")) for line in lines]
    assert shares == sorted(shares, reverse=True) and abs(sum(shares) - 100) < 0.1
    outer = next(row for row in rows if row.key == "outer")
    assert outer.is_user_annotation and outer.count == 1
