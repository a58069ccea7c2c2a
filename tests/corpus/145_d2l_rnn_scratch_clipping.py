# In the style of: Dive into Deep Learning, "Recurrent Neural Network Implementation from
# Scratch" (one-hot inputs, get_params/init_rnn_state, a tanh RNN unrolled over time steps,
# grad_clipping by hand, perplexity, warm-up prediction, then the same with nn.RNN)
# Family: d2l
import math

import torch
from torch import nn
from torch.nn import functional as F

text = 'the time traveller for so it will be convenient to speak of him was expounding'
vocab = sorted(set(text))
token_to_idx = {tok: i for i, tok in enumerate(vocab)}
corpus = [token_to_idx[ch] for ch in text]
vocab_size = len(vocab)
print(vocab_size, vocab[:6])

print(F.one_hot(torch.tensor([0, 2]), vocab_size).shape)
X = torch.arange(10).reshape((2, 5))
print(F.one_hot(X.T, 28).shape)


def seq_data_iter_sequential(corpus, batch_size, num_steps, offset):
    num_tokens = ((len(corpus) - offset - 1) // batch_size) * batch_size
    Xs = torch.tensor(corpus[offset: offset + num_tokens])
    Ys = torch.tensor(corpus[offset + 1: offset + 1 + num_tokens])
    Xs, Ys = Xs.reshape(batch_size, -1), Ys.reshape(batch_size, -1)
    num_batches = Xs.shape[1] // num_steps
    for i in range(0, num_steps * num_batches, num_steps):
        yield Xs[:, i: i + num_steps], Ys[:, i: i + num_steps]


def get_params(vocab_size, num_hiddens, device):
    num_inputs = num_outputs = vocab_size

    def normal(shape):
        return torch.randn(size=shape, device=device) * 0.01

    W_xh = normal((num_inputs, num_hiddens))
    W_hh = normal((num_hiddens, num_hiddens))
    b_h = torch.zeros(num_hiddens, device=device)
    W_hq = normal((num_hiddens, num_outputs))
    b_q = torch.zeros(num_outputs, device=device)
    params = [W_xh, W_hh, b_h, W_hq, b_q]
    for param in params:
        param.requires_grad_(True)
    return params


def init_rnn_state(batch_size, num_hiddens, device):
    return (torch.zeros((batch_size, num_hiddens), device=device), )


def rnn(inputs, state, params):
    W_xh, W_hh, b_h, W_hq, b_q = params
    H, = state
    outputs = []
    for X in inputs:
        H = torch.tanh(torch.mm(X, W_xh) + torch.mm(H, W_hh) + b_h)
        Y = torch.mm(H, W_hq) + b_q
        outputs.append(Y)
    return torch.cat(outputs, dim=0), (H,)


class RNNModelScratch:
    def __init__(self, vocab_size, num_hiddens, device, get_params, init_state, forward_fn):
        self.vocab_size, self.num_hiddens = vocab_size, num_hiddens
        self.params = get_params(vocab_size, num_hiddens, device)
        self.init_state, self.forward_fn = init_state, forward_fn

    def __call__(self, X, state):
        X = F.one_hot(X.T, self.vocab_size).type(torch.float32)
        return self.forward_fn(X, state, self.params)

    def begin_state(self, batch_size, device):
        return self.init_state(batch_size, self.num_hiddens, device)


def predict_ch8(prefix, num_preds, net, device):
    state = net.begin_state(batch_size=1, device=device)
    outputs = [token_to_idx[prefix[0]]]
    get_input = lambda: torch.tensor([outputs[-1]], device=device).reshape((1, 1))
    for y in prefix[1:]:  # warm-up period
        _, state = net(get_input(), state)
        outputs.append(token_to_idx[y])
    for _ in range(num_preds):
        y, state = net(get_input(), state)
        outputs.append(int(y.argmax(dim=1).reshape(1)))
    return ''.join([vocab[i] for i in outputs])


def grad_clipping(net, theta):
    if isinstance(net, nn.Module):
        params = [p for p in net.parameters() if p.requires_grad]
    else:
        params = net.params
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm
    return norm


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


def train_epoch_ch8(net, updater, epoch, device):
    state = None
    total, n, norms = 0.0, 0, []
    for X, Y in seq_data_iter_sequential(corpus, 2, 5, epoch % 5):
        if state is None:
            state = net.begin_state(batch_size=X.shape[0], device=device)
        else:
            if isinstance(net, nn.Module) and not isinstance(state, tuple):
                state.detach_()
            else:
                for s in state:
                    s.detach_()
        y = Y.T.reshape(-1)
        y_hat, state = net(X, state)
        l = loss(y_hat, y.long()).mean()
        if isinstance(updater, torch.optim.Optimizer):
            updater.zero_grad()
            l.backward()
            norms.append(grad_clipping(net, 1))
            updater.step()
        else:
            l.backward()
            norms.append(grad_clipping(net, 1))
            updater(batch_size=1)
        total += l.item() * y.numel()
        n += y.numel()
    return math.exp(total / n), norms


torch.manual_seed(0)
device = torch.device('cpu')
num_hiddens = 32
net = RNNModelScratch(len(vocab), num_hiddens, device, get_params, init_rnn_state, rnn)
state = net.begin_state(X.shape[0], device)
Y, new_state = net(X.to(device), state)
print(Y.shape, len(new_state), new_state[0].shape)
loss = nn.CrossEntropyLoss()
print(predict_ch8('time ', 6, net, device))
updater = lambda batch_size: sgd(net.params, 1, batch_size)
for epoch in range(4):
    ppl, norms = train_epoch_ch8(net, updater, epoch, device)
    print(f'epoch {epoch + 1}: perplexity {ppl:.1f}, grad norms', torch.stack(norms)[:3])
print(predict_ch8('time ', 6, net, device))


class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size, **kwargs):
        super(RNNModel, self).__init__(**kwargs)
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.num_directions = 1
        self.linear = nn.Linear(self.num_hiddens, self.vocab_size)

    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size)
        X = X.to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

    def begin_state(self, device, batch_size=1):
        return torch.zeros((self.num_directions * self.rnn.num_layers,
                            batch_size, self.num_hiddens), device=device)


rnn_layer = nn.RNN(len(vocab), num_hiddens)
net = RNNModel(rnn_layer, vocab_size=len(vocab))
state = net.begin_state(device, batch_size=2)
Y, state_new = rnn_layer(torch.rand(size=(5, 2, len(vocab))), state)
print(Y.shape, state_new.shape)
updater = torch.optim.SGD(net.parameters(), 1)
for epoch in range(4):
    ppl, norms = train_epoch_ch8(net, updater, epoch, device)
    print(f'epoch {epoch + 1}: perplexity {ppl:.1f}, last norm {norms[-1]:.4f}')
print(predict_ch8('time ', 6, net, device))
