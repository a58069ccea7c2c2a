# In the style of: D2L 9.5 RNN from scratch (one-hot inputs, grad clipping) (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: d2l
import math
import torch
from torch.nn import functional as F
torch.manual_seed(2)

vocab_size, num_hiddens = 28, 32
def get_params(vocab_size, num_hiddens):
    num_inputs = num_outputs = vocab_size
    def normal(shape):
        return torch.randn(size=shape) * 0.01
    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params

def init_rnn_state(batch_size, num_hiddens):
    return (torch.zeros((batch_size, num_hiddens)),)

def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)

def grad_clipping(params, theta):
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm

print(F.one_hot(torch.tensor([0, 2]), vocab_size))
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape)

params = get_params(vocab_size, num_hiddens)
data = torch.randint(0, vocab_size, (8, 6))
for step in range(5):
    Xb, Yb = data[:, :-1], data[:, 1:]
    state = init_rnn_state(Xb.shape[0], num_hiddens)
    y_hat, state = rnn(F.one_hot(Xb.T, vocab_size).type(torch.float32), state, params)
    y = Yb.T.reshape(-1)
    l = F.cross_entropy(y_hat, y.long()).mean()
    for p in params:
        p.grad = None
    l.backward()
    norm = grad_clipping(params, 0.01)
    with torch.no_grad():
        for p in params:
            p -= 1.0 * p.grad
    print(f'step {step} loss {l.item():.5f} ppl {math.exp(l.item()):.3f} norm {norm:.4f}')
print(state[0].shape, y_hat.shape)
print(params[1].grad[0, :5])
