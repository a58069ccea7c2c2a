# In the style of: "RNNs from scratch" posts that unroll an RNNCell by hand and backpropagate
# through time, checking the gradient of the first input
# Family: blogs-and-qa
import torch

torch.manual_seed(2)
cell = torch.nn.RNNCell(3, 4)
xs = torch.randn(6, 2, 3, requires_grad=True)
h = torch.zeros(2, 4)
hidden_states = []
for x in xs:
    h = cell(x, h)
    hidden_states.append(h)
loss = hidden_states[-1].pow(2).sum()
loss.backward()
print(cell)
print(h)
print(xs.grad[0])
print(xs.grad.abs().sum(dim=(1, 2)))
lstm_cell = torch.nn.LSTMCell(3, 2)
state = None
for x in xs.detach():
    state = lstm_cell(x, state)
print(state[0], type(state[1].grad_fn).__name__)
