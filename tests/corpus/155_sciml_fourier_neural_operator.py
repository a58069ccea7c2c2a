# In the style of: Fourier Neural Operator posts and code (a spectral convolution: rfft, the
# lowest modes multiplied by complex weights held as cfloat parameters, irfft; trained with
# Adam on the 1-D heat equation's solution operator)
# Family: scientific-ml
import torch
from torch import nn


class SpectralConv1d(nn.Module):
    def __init__(self, channels, modes):
        super().__init__()
        self.modes = modes
        scale = 1 / (channels * channels)
        self.weights = nn.Parameter(scale * torch.rand(channels, channels, modes,
                                                       dtype=torch.cfloat))

    def forward(self, x):
        x_ft = torch.fft.rfft(x)
        out_ft = torch.zeros(x.shape[0], x.shape[1], x.shape[-1] // 2 + 1, dtype=torch.cfloat)
        out_ft[:, :, :self.modes] = torch.einsum("bix,iox->box", x_ft[:, :, :self.modes],
                                                 self.weights)
        return torch.fft.irfft(out_ft, n=x.shape[-1])


torch.manual_seed(0)
n, modes = 32, 6
grid = torch.linspace(0, 1, n + 1)[:-1]
coefficients = torch.randn(16, 3)
u0 = sum(coefficients[:, k, None] * torch.sin(2 * torch.pi * (k + 1) * grid) for k in range(3))
decay = torch.exp(-0.01 * (2 * torch.pi * torch.arange(1, 4)) ** 2)
u1 = sum(coefficients[:, k, None] * decay[k] * torch.sin(2 * torch.pi * (k + 1) * grid)
         for k in range(3))

layer = SpectralConv1d(1, modes)
print(layer.weights.dtype, layer.weights.shape, layer.weights.is_complex())
optimizer = torch.optim.Adam(layer.parameters(), lr=0.05)
for epoch in range(40):
    prediction = layer(u0[:, None, :])[:, 0]
    loss = (prediction - u1).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if epoch % 10 == 0:
        print(f"epoch {epoch:2d} loss {loss.item():.5f}")
print("grad dtype:", layer.weights.grad.dtype)
learnt = layer.weights.detach()[0, 0, 1:4].real
print("learnt multipliers vs heat decay:", [round(v, 2) for v in learnt.tolist()],
      [round(v, 2) for v in decay.tolist()])
