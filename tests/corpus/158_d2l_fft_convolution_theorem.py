# In the style of: Dive into Deep Learning's convolution chapters and signal processing notes
# (the convolution theorem: a circular convolution equals a product of spectra, checked with
# torch.fft against direct sums, and its gradient with respect to the kernel)
# Family: d2l
import torch

torch.manual_seed(0)
signal = torch.randn(16, dtype=torch.float64)
kernel = torch.zeros(16, dtype=torch.float64)
kernel[:3] = torch.tensor([0.25, 0.5, 0.25])
kernel.requires_grad_(True)

by_fft = torch.fft.ifft(torch.fft.fft(signal) * torch.fft.fft(kernel)).real
direct = torch.stack([sum(signal[(i - j) % 16] * kernel[j] for j in range(16))
                      for i in range(16)])
print("same result:", torch.allclose(by_fft, direct))
print(by_fft[:4])

by_fft.pow(2).sum().backward()
fft_grad = kernel.grad.clone()
kernel.grad = None
direct.pow(2).sum().backward()
print("same gradient:", torch.allclose(fft_grad, kernel.grad))
print(fft_grad[:4])

image = torch.arange(36, dtype=torch.float64).reshape(6, 6) % 7
blur = torch.zeros(6, 6, dtype=torch.float64)
blur[0, 0] = blur[0, 1] = blur[1, 0] = blur[1, 1] = 0.25
blurred = torch.fft.ifft2(torch.fft.fft2(image) * torch.fft.fft2(blur)).real
print(blurred[:2])
shifted = torch.fft.fftshift(torch.fft.fft2(image).abs())
print("DC at the centre:", shifted[3, 3].item(), image.sum().item())
