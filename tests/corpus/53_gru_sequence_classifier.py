# In the style of: a GRU sequence classifier from a deep learning course notebook (last hidden
# state into a linear head, bidirectional, gradient clipping)
# Family: blogs-and-qa
import torch
import torch.nn as nn

torch.manual_seed(1)
gru = nn.GRU(input_size=4, hidden_size=6, num_layers=2, bidirectional=True)
head = nn.Linear(12, 3)
x = torch.randn(7, 5, 4)
labels = torch.tensor([0, 2, 1, 1, 0])
params = list(gru.parameters()) + list(head.parameters())
optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
for epoch in range(5):
    optimizer.zero_grad()
    out, h_n = gru(x)
    features = torch.cat([h_n[-2], h_n[-1]], dim=1)
    loss = nn.functional.cross_entropy(head(features), labels)
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(params, 1.0)
    optimizer.step()
    print(epoch, f"{loss.item():.4f}", f"{norm.item():.3f}")
print(out.shape, h_n.shape, type(out.grad_fn).__name__, type(h_n.grad_fn).__name__)
