"""kl_divergence between discrete distributions (Bernoulli, Categorical, OneHotCategorical)
and between kinds (Uniform/Normal, Exponential/Gamma, Normal/Laplace...) on the NumPy engine
against torch run here: values, infinities and gradients; register_kl for a user's subclass
found as torch finds it; torch's refusal of two different exponential families."""

from __future__ import annotations

import pytest

from tests.oracle import assert_playground_prints_as_torch

pytest.importorskip("torch")


def test_kl_divergences_print_what_torch_prints(tmp_path):
    assert_playground_prints_as_torch('''
import torch
from torch.distributions import (Bernoulli, Categorical, Exponential, Gamma, Laplace, Normal,
                                 OneHotCategorical, Uniform, kl_divergence, register_kl)
from torch.distributions.kl import register_kl as register_kl_too

torch.manual_seed(0)
a = torch.tensor([0.2, 0.0, 1.0, 0.7], requires_grad=True)
b = torch.tensor([0.5, 0.3, 0.0, 1.0])
kl = kl_divergence(Bernoulli(probs=a), Bernoulli(probs=b))
print(kl)
kl[torch.isfinite(kl)].sum().backward()
print(a.grad)
print(kl_divergence(Bernoulli(logits=torch.tensor([0.3, -2.0])),
                    Bernoulli(logits=torch.tensor([1.0, 4.0]))))
logits = torch.randn(3, 5, requires_grad=True)
kl = kl_divergence(Categorical(logits=logits),
                   Categorical(probs=torch.tensor([0.1, 0.2, 0.3, 0.4, 0.0])))
print(kl)
kl = kl_divergence(Categorical(logits=logits), Categorical(logits=torch.randn(3, 5)))
kl.sum().backward()
print(kl, logits.grad)
skewed = torch.tensor([0.1, 0.3, 0.6])
print(kl_divergence(Categorical(logits=torch.zeros(3)), Categorical(probs=skewed)))
print(kl_divergence(OneHotCategorical(logits=torch.zeros(3)), OneHotCategorical(probs=skewed)))
loc = torch.tensor([0.0, 1.5], requires_grad=True)
low, high = torch.tensor([-1.0, 0.5]), torch.tensor([1.0, 3.0])
rate, concentration = torch.tensor([1.0, 2.0]), torch.tensor([2.0, 0.5])
other_loc, other_scale = torch.tensor([0.3, -1.0]), torch.tensor([2.0, 0.7])
pairs = [(Laplace(loc, torch.tensor([1.0, 0.5])), Laplace(other_loc, other_scale)),
         (Uniform(low, high), Normal(loc, rate)),
         (Uniform(low, high), Exponential(rate)),
         (Uniform(low, high), Gamma(concentration, torch.tensor([1.0, 3.0]))),
         (Exponential(rate), Gamma(concentration, torch.tensor([1.0, 3.0]))),
         (Gamma(concentration, torch.tensor([1.0, 3.0])), Exponential(rate)),
         (Exponential(rate), Normal(loc, rate)),
         (Normal(loc, rate), Laplace(other_loc, other_scale)),
         (Laplace(loc, torch.tensor([1.0, 0.5])), Normal(other_loc, other_scale))]
for p, q in pairs:
    kl = kl_divergence(p, q)
    print(type(p).__name__, type(q).__name__, kl)
    if kl.requires_grad:
        loc.grad = None
        kl.sum().backward()
        print(loc.grad)


class Tilted(Normal):
    pass


print(kl_divergence(Tilted(0.0, 1.0), Normal(1.0, 2.0)))


@register_kl(Tilted, Normal)
def _tilted_normal(p, q):
    return torch.tensor(42.0)


print(kl_divergence(Tilted(0.0, 1.0), Normal(1.0, 2.0)),
      kl_divergence(Normal(0.0, 1.0), Tilted(1.0, 2.0)))
print(register_kl is register_kl_too)
for call in [lambda: register_kl(int, Normal),
             lambda: kl_divergence(Normal(0.0, 1.0), Bernoulli(0.3))]:
    try:
        call()
    except Exception as e:
        print(type(e).__name__, str(e)[:60])
''', tmp_path)
