# In the style of: a character-level LSTM language model (char-RNN posts and the PyTorch
# "generating names" tutorials): embed, LSTM, project to the vocabulary, cross-entropy
# Family: pytorch-tutorials
import torch
import torch.nn as nn

torch.manual_seed(0)
text = "hello autograd, hello gradients"
vocabulary = sorted(set(text))
index = {ch: i for i, ch in enumerate(vocabulary)}
data = torch.tensor([index[ch] for ch in text])


class CharModel(nn.Module):
    def __init__(self, size, hidden):
        super().__init__()
        self.embed = nn.Embedding(size, 8)
        self.lstm = nn.LSTM(8, hidden, batch_first=True)
        self.head = nn.Linear(hidden, size)

    def forward(self, x, state=None):
        out, state = self.lstm(self.embed(x), state)
        return self.head(out), state


model = CharModel(len(vocabulary), 16)
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
inputs, targets = data[:-1].unsqueeze(0), data[1:].unsqueeze(0)
for step in range(40):
    optimizer.zero_grad()
    logits, _ = model(inputs)
    loss = nn.functional.cross_entropy(logits.reshape(-1, len(vocabulary)), targets.reshape(-1))
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 3))
print(type(logits.grad_fn).__name__, logits.shape)
print([name for name, _ in model.lstm.named_parameters()])
