"""nn.MultiheadAttention and nn.TransformerEncoderLayer against torch: the same graph, op by
op (torch's multi_head_attention_forward), outputs and gradients."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import node_names

CALLS = {
    "self-attention with weights": lambda m, a, x: a(x, x, x),
    "masks, averaged per head": lambda m, a, x: a(
        x, x, x, attn_mask=m.triu(m.ones(5, 5, dtype=m.bool), diagonal=1),
        key_padding_mask=m.tensor([[False] * 4 + [True], [False] * 5, [False] * 3 + [True] * 2]),
        average_attn_weights=False),
    "no weights: the fused kernel": lambda m, a, x: a(x, x, x, need_weights=False,
                                                      attn_mask=m.zeros(5, 5, dtype=x.dtype)),
    "cross-attention": lambda m, a, x: a(x, x[:3] * 2, x[:3] * 2),
    "unbatched": lambda m, a, x: a(x[:, 0], x[:, 0], x[:, 0]),
    "encoder layer": lambda m, a, x: (m.nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, dtype=x.dtype)(x), None),
    "encoder layer, norm first, gelu, batch first": lambda m, a, x: (m.nn.TransformerEncoderLayer(
        8, 2, 16, dropout=0.0, activation="gelu", norm_first=True, batch_first=True,
        dtype=x.dtype)(x), None),
}


def _run(module, name, dtype_name):
    module.manual_seed(0)
    dtype = getattr(module, dtype_name)
    attention = module.nn.MultiheadAttention(8, 2, dtype=dtype)
    x = module.tensor(np.random.default_rng(1).normal(size=(5, 3, 8)), dtype=dtype,
                      requires_grad=True)
    out, weights = CALLS[name](module, attention, x)
    total = out.pow(2).sum() + (0 if weights is None else weights.sum())
    total.backward()
    names = node_names(out) + ([] if weights is None else node_names(weights))
    values = [out.detach().numpy()] + ([] if weights is None else [weights.detach().numpy()])
    return names, values, [x.grad.numpy(), attention.in_proj_weight.grad] if \
        attention.in_proj_weight.grad is not None else [x.grad.numpy()]


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CALLS))
def test_attention_matches_torch(name, dtype_name, torch, engine):
    expected, actual = _run(torch, name, dtype_name), _run(engine, name, dtype_name)
    assert actual[0] == expected[0]
    tolerance = {"rtol": 2e-5, "atol": 2e-6} if dtype_name == "float32" else \
        {"rtol": 1e-10, "atol": 1e-12}
    for mine, theirs in zip(actual[1] + actual[2], expected[1] + expected[2], strict=True):
        mine = mine.numpy() if hasattr(mine, "numpy") else mine
        theirs = theirs.numpy() if hasattr(theirs, "numpy") else theirs
        np.testing.assert_allclose(mine, theirs, **tolerance)


def test_modules_print_and_name_their_parameters_as_torchs(torch, engine):
    texts = []
    for module in (torch, engine):
        module.manual_seed(0)
        layer = module.nn.TransformerEncoderLayer(8, 2, 16)
        texts.append((repr(layer), [name for name, _ in layer.named_parameters()],
                      layer.self_attn.in_proj_weight.detach().numpy()[0]))
    assert texts[1][:2] == texts[0][:2]
    np.testing.assert_array_equal(texts[1][2], texts[0][2])  # torch's draws, in its order
