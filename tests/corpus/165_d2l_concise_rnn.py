# In the style of: D2L 9.6 / 10.1-10.2 concise RNN/GRU/LSTM with nn modules (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: d2l
import torch
from torch import nn
from torch.nn import functional as F
torch.manual_seed(3)

vocab_size, num_hiddens, T, B = 20, 16, 7, 3
class RNNModel(nn.Module):
    def __init__(self, rnn_layer, vocab_size):
        super().__init__()
        self.rnn = rnn_layer
        self.vocab_size = vocab_size
        self.num_hiddens = self.rnn.hidden_size
        self.linear = nn.Linear(self.num_hiddens, self.vocab_size)
    def forward(self, inputs, state):
        X = F.one_hot(inputs.T.long(), self.vocab_size).to(torch.float32)
        Y, state = self.rnn(X, state)
        output = self.linear(Y.reshape((-1, Y.shape[-1])))
        return output, state

for cell in [nn.RNN, nn.GRU, nn.LSTM]:
    layer = cell(vocab_size, num_hiddens)
    net = RNNModel(layer, vocab_size)
    if cell is nn.LSTM:
        state = (torch.zeros((1, B, num_hiddens)), torch.zeros((1, B, num_hiddens)))
    else:
        state = torch.zeros((1, B, num_hiddens))
    X = torch.randint(0, vocab_size, (B, T))
    Y = torch.randint(0, vocab_size, (B, T))
    opt = torch.optim.SGD(net.parameters(), lr=1.0)
    for it in range(3):
        out, new_state = net(X, state)
        l = F.cross_entropy(out, Y.T.reshape(-1))
        opt.zero_grad()
        l.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        print(cell.__name__, it, round(l.item(), 6))
    print(out.shape, [s.shape for s in new_state] if isinstance(new_state, tuple) else new_state.shape)
    print([n for n, _ in net.named_parameters()])

gru = nn.GRU(4, 5, num_layers=2, batch_first=True, bidirectional=True)
x = torch.randn(2, 3, 4)
out, h = gru(x)
print(out.shape, h.shape)
print(out[0, -1])
lstm = nn.LSTM(4, 6, batch_first=True)
o, (h, c) = lstm(x)
o.sum().backward()
print(lstm.weight_hh_l0.grad.shape, lstm.bias_ih_l0.grad[:4])
