# In the style of: CS224n assignment 4's nmt_model.py (padded source batch, embedding with
# padding_idx, a bidirectional nn.LSTM over pack_padded_sequence / pad_packed_sequence,
# projections of the final states, an LSTMCell decoder with bmm attention scores and
# masked_fill_ -inf, gathered log-probabilities, and one training step with clipping)
# Family: stanford-cs231n-cs224n
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

src_sents = [["el", "gato", "come", "pescado"], ["el", "perro"], ["come", "el", "gato"]]
tgt_sents = [["<s>", "the", "cat", "eats", "fish", "</s>"], ["<s>", "the", "dog", "</s>"],
             ["<s>", "eats", "the", "cat", "</s>"]]
# batch_iter sorts each batch by source length, longest first, as packing requires.
examples = sorted(zip(src_sents, tgt_sents), key=lambda e: len(e[0]), reverse=True)
src_sents, tgt_sents = [e[0] for e in examples], [e[1] for e in examples]


def build_vocab(sents):
    words = ["<pad>", "<s>", "</s>", "<unk>"]
    for s in sents:
        words += [w for w in s if w not in words]
    return {w: i for i, w in enumerate(words)}


class Vocab:
    def __init__(self):
        self.src = build_vocab(src_sents)
        self.tgt = build_vocab(tgt_sents)


def pad_sents(sents, pad_token):
    max_len = max(len(s) for s in sents)
    return [s + [pad_token] * (max_len - len(s)) for s in sents]


def to_input_tensor(sents, word2id):
    word_ids = [[word2id.get(w, word2id["<unk>"]) for w in s] for s in sents]
    sents_t = pad_sents(word_ids, word2id["<pad>"])
    return torch.tensor(sents_t, dtype=torch.long).t()  # (max_len, batch)


class ModelEmbeddings(nn.Module):
    def __init__(self, embed_size, vocab):
        super(ModelEmbeddings, self).__init__()
        self.embed_size = embed_size
        self.source = nn.Embedding(len(vocab.src), embed_size, padding_idx=vocab.src["<pad>"])
        self.target = nn.Embedding(len(vocab.tgt), embed_size, padding_idx=vocab.tgt["<pad>"])


class NMT(nn.Module):
    def __init__(self, embed_size, hidden_size, vocab, dropout_rate=0.2):
        super(NMT, self).__init__()
        self.model_embeddings = ModelEmbeddings(embed_size, vocab)
        self.hidden_size = hidden_size
        self.vocab = vocab
        self.encoder = nn.LSTM(embed_size, hidden_size, bias=True, bidirectional=True)
        self.decoder = nn.LSTMCell(embed_size + hidden_size, hidden_size, bias=True)
        self.h_projection = nn.Linear(2 * hidden_size, hidden_size, bias=False)
        self.c_projection = nn.Linear(2 * hidden_size, hidden_size, bias=False)
        self.att_projection = nn.Linear(2 * hidden_size, hidden_size, bias=False)
        self.combined_output_projection = nn.Linear(3 * hidden_size, hidden_size, bias=False)
        self.target_vocab_projection = nn.Linear(hidden_size, len(vocab.tgt), bias=False)
        self.dropout = nn.Dropout(p=dropout_rate)

    def forward(self, source, target):
        source_lengths = [len(s) for s in source]
        source_padded = to_input_tensor(source, self.vocab.src)
        target_padded = to_input_tensor(target, self.vocab.tgt)
        enc_hiddens, dec_init_state = self.encode(source_padded, source_lengths)
        enc_masks = self.generate_sent_masks(enc_hiddens, source_lengths)
        combined_outputs = self.decode(enc_hiddens, enc_masks, dec_init_state, target_padded)
        P = F.log_softmax(self.target_vocab_projection(combined_outputs), dim=-1)
        target_masks = (target_padded != self.vocab.tgt["<pad>"]).float()
        target_gold_words_log_prob = torch.gather(
            P, index=target_padded[1:].unsqueeze(-1), dim=-1).squeeze(-1) * target_masks[1:]
        scores = target_gold_words_log_prob.sum(dim=0)
        return scores

    def encode(self, source_padded, source_lengths):
        X = self.model_embeddings.source(source_padded)
        X = pack_padded_sequence(X, source_lengths)
        enc_hiddens, (last_hidden, last_cell) = self.encoder(X)
        enc_hiddens, _ = pad_packed_sequence(enc_hiddens)
        enc_hiddens = enc_hiddens.permute(1, 0, 2)
        init_decoder_hidden = self.h_projection(torch.cat((last_hidden[0], last_hidden[1]), 1))
        init_decoder_cell = self.c_projection(torch.cat((last_cell[0], last_cell[1]), 1))
        return enc_hiddens, (init_decoder_hidden, init_decoder_cell)

    def decode(self, enc_hiddens, enc_masks, dec_init_state, target_padded):
        target_padded = target_padded[:-1]  # Chop off the <END> token for max length sentences.
        dec_state = dec_init_state
        batch_size = enc_hiddens.size(0)
        o_prev = torch.zeros(batch_size, self.hidden_size)
        combined_outputs = []
        enc_hiddens_proj = self.att_projection(enc_hiddens)
        Y = self.model_embeddings.target(target_padded)
        for Y_t in torch.split(Y, 1, dim=0):
            Y_t = torch.squeeze(Y_t, dim=0)
            Ybar_t = torch.cat((Y_t, o_prev), dim=1)
            dec_state, o_t, e_t = self.step(Ybar_t, dec_state, enc_hiddens, enc_hiddens_proj,
                                            enc_masks)
            combined_outputs.append(o_t)
            o_prev = o_t
        return torch.stack(combined_outputs, dim=0)

    def step(self, Ybar_t, dec_state, enc_hiddens, enc_hiddens_proj, enc_masks):
        dec_state = self.decoder(Ybar_t, dec_state)
        dec_hidden, dec_cell = dec_state
        e_t = torch.bmm(enc_hiddens_proj, dec_hidden.unsqueeze(2)).squeeze(2)
        if enc_masks is not None:
            e_t.data.masked_fill_(enc_masks.bool(), -float("inf"))
        alpha_t = F.softmax(e_t, dim=1)
        a_t = torch.bmm(alpha_t.unsqueeze(1), enc_hiddens).squeeze(1)
        U_t = torch.cat((dec_hidden, a_t), dim=1)
        V_t = self.combined_output_projection(U_t)
        O_t = self.dropout(torch.tanh(V_t))
        return dec_state, O_t, e_t

    def generate_sent_masks(self, enc_hiddens, source_lengths):
        enc_masks = torch.zeros(enc_hiddens.size(0), enc_hiddens.size(1), dtype=torch.float)
        for e_id, src_len in enumerate(source_lengths):
            enc_masks[e_id, src_len:] = 1
        return enc_masks


torch.manual_seed(0)
vocab = Vocab()
model = NMT(embed_size=6, hidden_size=5, vocab=vocab, dropout_rate=0.3)
for p in model.parameters():
    p.data.uniform_(-0.1, 0.1)
print(model.encoder)

source_padded = to_input_tensor(src_sents, vocab.src)
print(source_padded)
lengths = [len(s) for s in src_sents]
packed = pack_padded_sequence(model.model_embeddings.source(source_padded), lengths)
print(packed.batch_sizes, packed.sorted_indices, packed.data.shape)
unsorted = torch.tensor([[4, 4], [5, 8], [0, 6]])
try:
    pack_padded_sequence(unsorted, [2, 3])
except RuntimeError as e:
    print("RuntimeError:", e)
packed = pack_padded_sequence(unsorted, [2, 3], enforce_sorted=False)
print(packed.data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
enc_hiddens, (h0, c0) = model.encode(source_padded, lengths)
print(enc_hiddens.shape, h0.shape, enc_hiddens.grad_fn.name())
print(enc_hiddens[1])  # zeros past the length of the second sentence
masks = model.generate_sent_masks(enc_hiddens, lengths)
print(masks)

model.eval()
with torch.no_grad():
    Ybar_t = torch.cat((model.model_embeddings.target(torch.tensor([1, 1, 1])),
                        torch.zeros(3, 5)), dim=1)
    _, o_t, e_t = model.step(Ybar_t, (h0, c0), enc_hiddens, model.att_projection(enc_hiddens),
                             masks)
print(e_t)
print(F.softmax(e_t, dim=1))

model.train()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for it in range(4):
    optimizer.zero_grad()
    example_losses = -model(src_sents, tgt_sents)  # (batch_size,)
    batch_loss = example_losses.sum()
    loss = batch_loss / len(src_sents)
    loss.backward()
    grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    optimizer.step()
    tgt_words_num_to_predict = sum(len(s[1:]) for s in tgt_sents)
    print("iter %d, avg. loss %.4f, avg. ppl %.4f, grad norm %.4f" % (
        it, batch_loss.item() / len(src_sents),
        torch.exp(batch_loss / tgt_words_num_to_predict).item(), grad_norm.item()))
print(model.model_embeddings.source.weight[0])  # the padding row never changes
print(model.model_embeddings.source.weight.grad[0])
