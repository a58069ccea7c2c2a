# In the style of: Dive into Deep Learning, "Sequence to Sequence Learning" (a GRU
# encoder-decoder, sequence_mask, MaskedSoftmaxCELoss over nn.CrossEntropyLoss with
# reduction='none', Xavier init through _flat_weights_names, clipping, greedy prediction)
# Family: d2l
import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, **kwargs):
        super(Encoder, self).__init__(**kwargs)

    def forward(self, X, *args):
        raise NotImplementedError


class Decoder(nn.Module):
    def __init__(self, **kwargs):
        super(Decoder, self).__init__(**kwargs)

    def init_state(self, enc_outputs, *args):
        raise NotImplementedError

    def forward(self, X, state):
        raise NotImplementedError


class EncoderDecoder(nn.Module):
    def __init__(self, encoder, decoder, **kwargs):
        super(EncoderDecoder, self).__init__(**kwargs)
        self.encoder = encoder
        self.decoder = decoder

    def forward(self, enc_X, dec_X, *args):
        enc_outputs = self.encoder(enc_X, *args)
        dec_state = self.decoder.init_state(enc_outputs, *args)
        return self.decoder(dec_X, dec_state)


class Seq2SeqEncoder(Encoder):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0, **kwargs):
        super(Seq2SeqEncoder, self).__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size, num_hiddens, num_layers, dropout=dropout)

    def forward(self, X, *args):
        X = self.embedding(X)
        X = X.permute(1, 0, 2)
        output, state = self.rnn(X)
        return output, state


class Seq2SeqDecoder(Decoder):
    def __init__(self, vocab_size, embed_size, num_hiddens, num_layers, dropout=0, **kwargs):
        super(Seq2SeqDecoder, self).__init__(**kwargs)
        self.embedding = nn.Embedding(vocab_size, embed_size)
        self.rnn = nn.GRU(embed_size + num_hiddens, num_hiddens, num_layers, dropout=dropout)
        self.dense = nn.Linear(num_hiddens, vocab_size)

    def init_state(self, enc_outputs, *args):
        return enc_outputs[1]

    def forward(self, X, state):
        X = self.embedding(X).permute(1, 0, 2)
        context = state[-1].repeat(X.shape[0], 1, 1)
        X_and_context = torch.cat((X, context), 2)
        output, state = self.rnn(X_and_context, state)
        output = self.dense(output).permute(1, 0, 2)
        return output, state


def sequence_mask(X, valid_len, value=0):
    maxlen = X.size(1)
    mask = torch.arange((maxlen), dtype=torch.float32,
                        device=X.device)[None, :] < valid_len[:, None]
    X[~mask] = value
    return X


class MaskedSoftmaxCELoss(nn.CrossEntropyLoss):
    def forward(self, pred, label, valid_len):
        weights = torch.ones_like(label)
        weights = sequence_mask(weights, valid_len)
        self.reduction = 'none'
        unweighted_loss = super(MaskedSoftmaxCELoss, self).forward(
            pred.permute(0, 2, 1), label)
        weighted_loss = (unweighted_loss * weights).mean(dim=1)
        return weighted_loss


def grad_clipping(net, theta):
    params = [p for p in net.parameters() if p.requires_grad]
    norm = torch.sqrt(sum(torch.sum((p.grad ** 2)) for p in params))
    if norm > theta:
        for param in params:
            param.grad[:] *= theta / norm


torch.manual_seed(0)
encoder = Seq2SeqEncoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
encoder.eval()
X = torch.zeros((4, 7), dtype=torch.long)
output, state = encoder(X)
print(output.shape, state.shape)
decoder = Seq2SeqDecoder(vocab_size=10, embed_size=8, num_hiddens=16, num_layers=2)
decoder.eval()
state = decoder.init_state(encoder(X))
output, state = decoder(X, state)
print(output.shape, state.shape)

X = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(sequence_mask(X, torch.tensor([1, 2])))
X = torch.ones(2, 3, 4)
print(sequence_mask(X, torch.tensor([1, 2]), value=-1))
loss = MaskedSoftmaxCELoss()
print(loss(torch.ones(3, 4, 10), torch.ones((3, 4), dtype=torch.long), torch.tensor([4, 2, 0])))

# A toy "translation": reverse three tokens; 0 pad, 1 <bos>, 2 <eos>, words are 3..9.
src_vocab = tgt_vocab = 10
pairs = [([3, 4, 5], [5, 4, 3]), ([6, 7], [7, 6]), ([8, 9, 3], [3, 9, 8]), ([4, 6], [6, 4]),
         ([5, 7, 9], [9, 7, 5]), ([9, 8], [8, 9])]
num_steps = 5


def truncate_pad(line, num_steps, padding_token):
    if len(line) > num_steps:
        return line[:num_steps]
    return line + [padding_token] * (num_steps - len(line))


src = torch.tensor([truncate_pad(s + [2], num_steps, 0) for s, _ in pairs])
tgt = torch.tensor([truncate_pad(t + [2], num_steps, 0) for _, t in pairs])
src_valid_len = (src != 0).type(torch.int32).sum(1)
tgt_valid_len = (tgt != 0).type(torch.int32).sum(1)
print(src[:2], src_valid_len)


def xavier_init_weights(m):
    if type(m) == nn.Linear:
        nn.init.xavier_uniform_(m.weight)
    if type(m) == nn.GRU:
        for param in m._flat_weights_names:
            if "weight" in param:
                nn.init.xavier_uniform_(m._parameters[param])


encoder = Seq2SeqEncoder(src_vocab, 8, 16, 2, dropout=0.1)
decoder = Seq2SeqDecoder(tgt_vocab, 8, 16, 2, dropout=0.1)
net = EncoderDecoder(encoder, decoder)
net.apply(xavier_init_weights)
print(net.encoder.rnn._flat_weights_names[:4])
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
loss = MaskedSoftmaxCELoss()
net.train()
for epoch in range(30):
    optimizer.zero_grad()
    bos = torch.tensor([1] * tgt.shape[0]).reshape(-1, 1)
    dec_input = torch.cat([bos, tgt[:, :-1]], 1)  # Teacher forcing
    Y_hat, _ = net(src, dec_input, src_valid_len)
    l = loss(Y_hat, tgt, tgt_valid_len)
    l.sum().backward()
    grad_clipping(net, 1)
    num_tokens = tgt_valid_len.sum()
    optimizer.step()
    if (epoch + 1) % 10 == 0:
        print(f'epoch {epoch + 1}, loss {l.sum().item() / num_tokens.item():.3f}')


def predict_seq2seq(net, src_tokens, num_steps):
    net.eval()
    enc_valid_len = torch.tensor([len(src_tokens)])
    src_tokens = truncate_pad(src_tokens, num_steps, 0)
    enc_X = torch.unsqueeze(torch.tensor(src_tokens, dtype=torch.long), dim=0)
    enc_outputs = net.encoder(enc_X, enc_valid_len)
    dec_state = net.decoder.init_state(enc_outputs, enc_valid_len)
    dec_X = torch.unsqueeze(torch.tensor([1], dtype=torch.long), dim=0)
    output_seq = []
    for _ in range(num_steps):
        Y, dec_state = net.decoder(dec_X, dec_state)
        dec_X = Y.argmax(dim=2)
        pred = dec_X.squeeze(dim=0).type(torch.int32).item()
        if pred == 2:
            break
        output_seq.append(pred)
    return output_seq


with torch.no_grad():
    for s, t in pairs[:3]:
        print(s, '=>', predict_seq2seq(net, s + [2], num_steps), 'target', t)
