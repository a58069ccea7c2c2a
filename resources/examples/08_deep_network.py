# %% [markdown]
# A deep network written out by hand: 26 layers, a loss with weight decay, one backward.
# The printed gradient norms shrink and grow from layer to layer; in the graph, follow the
# path from `loss` down to any weight (wheel to zoom, drag to pan, F to fit), or press → in
# the graph to walk the backward pass node by node.
# %%
import torch


def initial_weights(n_in, n_out, layer):
    """Spread-out numbers without a random generator: both engines print the same."""
    grid = torch.arange(n_in * n_out, dtype=torch.float32).reshape(n_in, n_out)
    return ((grid * 0.7 + layer).sin() / n_in ** 0.5).requires_grad_()


sizes = [4] + [16] * 25 + [1]
weights = [initial_weights(n_in, n_out, layer)
           for layer, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:], strict=True))]
biases = [torch.zeros(n_out, requires_grad=True) for n_out in sizes[1:]]
x = torch.linspace(-1, 1, 256).reshape(64, 4)
target = (x[:, :1] * 2 - 1).tanh()

activations = [x]  # every layer's output, kept to look at
for layer, (w, b) in enumerate(zip(weights, biases, strict=True)):
    h = activations[-1] @ w + b
    if layer < len(weights) - 1:
        h = h.tanh() if layer % 2 else h.relu()
    activations.append(h)
prediction = activations[-1]
error = prediction - target
decay = sum((w ** 2).sum() for w in weights)
loss = (error ** 2).mean() + 1e-3 * decay
loss.backward()
print(f"loss {loss.item():.4f}")
for layer in (0, 5, 10, 15, 20, 25):
    print(f"layer {layer:2}: |grad| = {weights[layer].grad.norm():.4f}")
