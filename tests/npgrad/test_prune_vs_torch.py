"""``torch.nn.utils.prune`` on the NumPy engine against torch run here: the pruning tutorial's
journey (random, L1, Ln-structured, iterative and global pruning, a custom method, remove)
prints what torch prints, the same entries pruned from the same seed, and its errors read
as torch's."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")

_MODEL = """
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.utils.prune as prune

torch.manual_seed(3)


class Small(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3)
        self.fc1 = nn.Linear(4 * 4 * 4, 12)
        self.fc2 = nn.Linear(12, 3)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv(x)), 2)
        return self.fc2(F.relu(self.fc1(x.flatten(1))))


model = Small()
"""


def test_the_tutorials_journey_prunes_what_torch_prunes(tmp_path):
    assert_playground_prints_as_torch(_MODEL + """
conv = model.conv
prune.random_unstructured(conv, name="weight", amount=0.3)
print([n for n, _ in conv.named_parameters()], [n for n, _ in conv.named_buffers()])
print(conv.weight_mask[0], conv.weight[1])
print(type(next(iter(conv._forward_pre_hooks.values()))))
prune.l1_unstructured(conv, name="bias", amount=2)
print(conv.bias, conv.bias_orig)
prune.ln_structured(conv, name="weight", amount=0.5, n=2, dim=0)
container = list(conv._forward_pre_hooks.values())[-1]
print(type(container).__name__, [type(m).__name__ for m in container], len(container))
print(conv.weight[:, 0, 0])
prune.remove(conv, "weight")
print([n for n, _ in conv.named_parameters()], conv.weight[:, 0, 0])
print(prune.is_pruned(model))
prune.random_structured(model.fc1, "weight", amount=3, dim=1)
print(model.fc1.weight_mask.sum(dim=0))
prune.global_unstructured([(model.fc1, "weight"), (model.fc2, "weight")],
                          pruning_method=prune.L1Unstructured, amount=0.4)
for m in (model.fc1, model.fc2):
    print(int((m.weight == 0).sum()), m.weight.nelement())
loss = model(torch.randn(2, 1, 10, 10)).pow(2).sum()
loss.backward()
print(model.fc2.weight_orig.grad, model.fc2.weight.grad_fn.name())
print(list(model.state_dict().keys()))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
optimizer.step()
print(model(torch.ones(1, 1, 10, 10)))
""", tmp_path)


def test_custom_methods_and_pruning_without_a_module(tmp_path):
    assert_playground_prints_as_torch(_MODEL + """
class EveryOther(prune.BasePruningMethod):
    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.view(-1)[::2] = 0
        return mask


EveryOther.apply(model.fc2, "bias")
print(model.fc2.bias_mask, model.fc2.bias)
prune.l1_unstructured(model.fc2, "bias", amount=1, importance_scores=torch.arange(3.0))
print(model.fc2.bias_mask)
prune.custom_from_mask(model.fc1, "bias", mask=torch.arange(12) % 3 == 0)
print(model.fc1.bias)
print(prune.RandomUnstructured(amount=2).prune(model.fc2.weight[:2]))
print(prune.LnStructured(amount=1, n=1, dim=-1).prune(torch.arange(6.0).view(2, 3)))
prune.identity(model.conv, "weight")
print(model.conv.weight_mask.sum(), prune.is_pruned(model))
""", tmp_path)


def test_bad_amounts_and_names_say_what_torch_says(tmp_path):
    assert_playground_prints_as_torch(_MODEL + """
def attempt(call):
    try:
        call()
    except Exception as error:
        print(type(error).__name__, error)


attempt(lambda: prune.random_unstructured(nn.Linear(2, 2), "weight", amount=-1))
attempt(lambda: prune.random_unstructured(nn.Linear(2, 2), "weight", amount=1.5))
attempt(lambda: prune.random_unstructured(nn.Linear(2, 2), "weight", amount="x"))
attempt(lambda: prune.random_unstructured(nn.Linear(2, 2), "weight", amount=5))
attempt(lambda: prune.remove(nn.Linear(2, 2), "weight"))
attempt(lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=1, dim=0))
attempt(lambda: prune.random_structured(nn.Linear(2, 2), "weight", amount=1, dim=2))
attempt(lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1,
                                      importance_scores=torch.ones(3)))
failed = nn.Linear(2, 2)
attempt(lambda: prune.random_unstructured(failed, "weight", amount=9))
print([n for n, _ in failed.named_parameters()], [n for n, _ in failed.named_buffers()])
""", tmp_path)
