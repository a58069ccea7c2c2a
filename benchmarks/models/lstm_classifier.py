"""A sequence classifier: embedding, a one-layer LSTM, the last hidden state to the classes."""

import torch
import torch.nn as nn

torch.manual_seed(0)


class LSTMClassifier(nn.Module):
    def __init__(self, vocabulary=12, embedding=8, hidden=16, classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, embedding)
        self.lstm = nn.LSTM(embedding, hidden, batch_first=True)
        self.out = nn.Linear(hidden, classes)

    def forward(self, tokens):
        outputs, (last, _) = self.lstm(self.embed(tokens))
        return self.out(last[-1])


model = LSTMClassifier()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
tokens = torch.randint(0, 12, (4, 7))
labels = torch.tensor([0, 1, 1, 0])
for _ in range(5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(tokens), labels)
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}, accuracy {(model(tokens).argmax(1) == labels).float().mean():.2f}")
