"""An autoencoder: an encoder to a 3-number code and a decoder back, fitted with Adam."""

import torch
import torch.nn as nn

torch.manual_seed(0)


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(12, 8), nn.ReLU(), nn.Linear(8, 3))
        self.decoder = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 12), nn.Sigmoid())

    def forward(self, x):
        return self.decoder(self.encoder(x))


model = AutoEncoder()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
data = torch.rand(16, 12)
for _ in range(15):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(data), data)
    loss.backward()
    optimizer.step()
print(f"reconstruction loss {loss.item():.5f}")
