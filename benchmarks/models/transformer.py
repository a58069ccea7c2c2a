"""A 4-layer transformer encoder (d_model 32) with a linear head, 20 AdamW steps."""

import torch
import torch.nn as nn

torch.manual_seed(0)


class TinyTransformer(nn.Module):
    def __init__(self, d_model=32, layers=4):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, nhead=4, dim_feedforward=64,
                                           dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers=layers,
                                             enable_nested_tensor=False)
        self.head = nn.Linear(d_model, 1)

    def forward(self, x):
        return self.head(self.encoder(x)).mean(dim=1)


model = TinyTransformer()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
x = torch.randn(8, 10, 32)
y = torch.randn(8, 1)
for _ in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
print(f"loss {loss.item():.4f}")
