# In the style of: pytorch/examples' word_language_model (an embedding, a 2-layer LSTM, a
# decoder, truncated BPTT with repackaged hidden states and clip_grad_norm_)
# Family: pytorch-examples
import torch
import torch.nn as nn


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.5):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nhid, self.nlayers = nhid, nlayers
        self.encoder.weight.data.uniform_(-0.1, 0.1)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -0.1, 0.1)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.decoder.out_features)
        return nn.functional.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


torch.manual_seed(1111)
ntokens = 12
model = RNNModel(ntokens, 6, 8, 2, dropout=0.2)
criterion = nn.NLLLoss()
data = torch.randint(0, ntokens, (21, 3))
hidden = model.init_hidden(3)
lr = 20
for i in range(0, 20, 5):
    inputs, targets = data[i:i + 5], data[i + 1:i + 6].reshape(-1)
    model.zero_grad()
    hidden = repackage_hidden(hidden)
    output, hidden = model(inputs, hidden)
    loss = criterion(output, targets)
    loss.backward()
    total = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-lr)
    print(f"batch {i // 5} loss {loss.item():.4f} grad norm {total.item():.4f}")
