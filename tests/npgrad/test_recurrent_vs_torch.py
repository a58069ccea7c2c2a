"""Recurrent layers and cells against torch: the same graph (an LSTM's MkldnnRnnLayerBackward0
per layer and direction in float32, torch's step-by-step ops otherwise, as for an LSTM with a
projection), outputs and every gradient."""

from __future__ import annotations

import numpy as np
import pytest

from tests.oracle import node_names as _names

CONFIGS = {
    "one layer": ({}, (5, 2, 3), None),
    "RNN, two layers, bidirectional": ({"kind": "RNN", "num_layers": 2, "bidirectional": True},
                                       (5, 2, 3), None),
    "RNN relu, batch first": ({"kind": "RNN", "nonlinearity": "relu", "batch_first": True},
                              (2, 5, 3), None),
    "GRU, two layers": ({"kind": "GRU", "num_layers": 2}, (5, 2, 3), None),
    "GRU, bidirectional, batch first, no bias": (
        {"kind": "GRU", "bidirectional": True, "batch_first": True, "bias": False},
        (2, 5, 3), None),
    "GRU unbatched with a learned h0": ({"kind": "GRU"}, (5, 3), "h0"),
    "two layers, bidirectional": ({"num_layers": 2, "bidirectional": True}, (5, 2, 3), None),
    "batch first, no bias": ({"batch_first": True, "bias": False}, (2, 5, 3), None),
    "unbatched with a learned h0": ({}, (5, 3), "h0"),
    "dropout in eval": ({"num_layers": 3, "dropout": 0.5}, (4, 2, 3), "eval"),
    "projected, two layers, bidirectional": (
        {"proj_size": 2, "num_layers": 2, "bidirectional": True}, (5, 2, 3), None),
    "projected, batch first, no bias": ({"proj_size": 3, "batch_first": True, "bias": False},
                                        (2, 5, 3), None),
    "projected unbatched with a learned h0": ({"proj_size": 2}, (5, 3), "h0"),
}


def _run(module, options, shape, extra, dtype_name):
    module.manual_seed(3)
    dtype = getattr(module, dtype_name)
    options = dict(options)
    kind = options.pop("kind", "LSTM")
    lstm = getattr(module.nn, kind)(3, 4, dtype=dtype, **options)
    x = module.tensor(np.random.default_rng(5).normal(size=shape), dtype=dtype,
                      requires_grad=True)
    state = None
    if extra == "eval":
        lstm.eval()
    h0 = None
    if extra == "h0":
        h0 = module.full((1, options.get("proj_size") or 4), 0.3, dtype=dtype,
                         requires_grad=True)
        state = (h0, module.zeros(1, 4, dtype=dtype)) if kind == "LSTM" else h0
    out, ends = lstm(x, state)
    ends = ends if kind == "LSTM" else (ends,)
    (out.pow(2).sum() + ends[0].sum() * 2 + ends[-1].pow(2).sum()).backward()
    grads = [x.grad.numpy()] + [p.grad.numpy() for p in lstm.parameters()]
    if h0 is not None:
        grads.append(h0.grad.numpy())
    names = _names(out) + [name for end in ends for name in _names(end)]
    return names, [t.detach().numpy() for t in (out, *ends)], grads


@pytest.mark.parametrize("dtype_name", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_recurrent_layer_matches_torch(name, dtype_name, torch, engine):
    expected = _run(torch, *CONFIGS[name], dtype_name)
    actual = _run(engine, *CONFIGS[name], dtype_name)
    assert actual[0] == expected[0]
    tolerance = {"rtol": 2e-5, "atol": 2e-6} if dtype_name == "float32" else \
        {"rtol": 1e-10, "atol": 1e-12}
    for mine, theirs in zip(actual[1] + actual[2], expected[1] + expected[2], strict=True):
        assert mine.shape == theirs.shape
        np.testing.assert_allclose(mine, theirs, **tolerance)


@pytest.mark.parametrize("kind", ["LSTMCell", "GRUCell", "RNNCell", "RNNCell-relu"])
def test_cells_step_as_torchs(kind, torch, engine):
    results = []
    for module in (torch, engine):
        module.manual_seed(1)
        name, _, relu = kind.partition("-")
        cell = getattr(module.nn, name)(3, 2, **({"nonlinearity": "relu"} if relu else {}))
        inputs = module.tensor(np.linspace(-1, 1, 12).reshape(4, 3), dtype=module.float32)
        state = cell(inputs)
        state = cell(inputs * 2, state)
        h = state[0] if isinstance(state, tuple) else state
        (h.sum() + h.pow(2).sum()).backward()
        results.append((_names(h), repr(cell), h.detach().numpy(), cell.weight_hh.grad.numpy()))
    (names, text, h, grad), (engine_names, engine_text, engine_h, engine_grad) = results
    assert (engine_names, engine_text) == (names, text)
    np.testing.assert_allclose(engine_h, h, rtol=2e-5, atol=1e-7)
    np.testing.assert_allclose(engine_grad, grad, rtol=1e-5, atol=1e-7)
