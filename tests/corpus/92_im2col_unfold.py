# In the style of: "convolution as matrix multiplication" posts (F.unfold to im2col, a matmul,
# F.fold back; checked against F.conv2d)
# Family: blogs-and-qa
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(1, 2, 4, 4, requires_grad=True)
w = torch.randn(3, 2, 3, 3, requires_grad=True)
cols = F.unfold(x, kernel_size=3, padding=1)
out = (w.view(3, -1) @ cols).view(1, 3, 4, 4)
reference = F.conv2d(x, w, padding=1)
print(cols.shape, torch.allclose(out, reference, atol=1e-6))
out.pow(2).sum().backward()
print(f"{x.grad.norm():.5f} {w.grad.norm():.5f}")
folded = F.fold(cols, output_size=(4, 4), kernel_size=3, padding=1)
print(folded[0, 0] / x[0, 0].detach())
