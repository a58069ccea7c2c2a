# In the style of: blog posts on signal processing with PyTorch (the spectrum of a noisy signal
# with torch.fft.rfft and rfftfreq, its peaks, then amplitudes fitted by gradient descent
# against a target spectrum, the loss taken through the transform)
# Family: blogs-and-qa
import torch

torch.manual_seed(3)
rate = 128
t = torch.arange(rate, dtype=torch.float64) / rate
signal = 1.5 * torch.sin(2 * torch.pi * 7 * t) + 0.6 * torch.sin(2 * torch.pi * 19 * t)
noisy = signal + 0.1 * torch.randn(rate, dtype=torch.float64)

spectrum = torch.fft.rfft(noisy)
freqs = torch.fft.rfftfreq(rate, d=1 / rate)
power = spectrum.abs() ** 2 / rate
top = power.topk(2)
print("peak frequencies:", freqs[top.indices].tolist())
print("spectrum dtype:", spectrum.dtype, "bins:", spectrum.shape[0])

amplitudes = torch.tensor([1.0, 1.0], dtype=torch.float64, requires_grad=True)
optimizer = torch.optim.Adam([amplitudes], lr=0.05)
target = torch.fft.rfft(signal).abs()
for step in range(60):
    model = (amplitudes[0] * torch.sin(2 * torch.pi * 7 * t)
             + amplitudes[1] * torch.sin(2 * torch.pi * 19 * t))
    loss = (torch.fft.rfft(model).abs() - target).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        grad = [round(g, 6) for g in amplitudes.grad.tolist()]
        print(f"step {step:2d} loss {loss.item():.4f} grad {grad}")
print("fitted amplitudes:", [round(a, 3) for a in amplitudes.tolist()])
print("round trip error < 1e-12:", (torch.fft.irfft(spectrum, n=rate) - noisy).abs().max() < 1e-12)
