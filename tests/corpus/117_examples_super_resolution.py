# In the style of: pytorch/examples' super_resolution (ESPCN: convolutions with tuple arguments,
# orthogonal init with calculate_gain, nn.PixelShuffle, bicubic downscaling, MSE, Adam, PSNR)
# Family: pytorch-examples
from math import log10

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.nn.init as init
import torch.optim as optim


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()

        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 8, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(8, 8, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(8, 4, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(4, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x

    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv2.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv3.weight, init.calculate_gain('relu'))
        init.orthogonal_(self.conv4.weight)


torch.manual_seed(123)
upscale_factor = 2
# "Y channel" targets in [0, 1], and their low-resolution inputs
target = torch.rand(4, 1, 8, 8)
target = F.avg_pool2d(F.pad(target, (1, 1, 1, 1), mode='replicate'), 3, stride=1)
input = F.interpolate(target, scale_factor=1 / upscale_factor, mode='bicubic',
                      align_corners=False).clamp(0, 1)
print('===> Building model')
model = Net(upscale_factor=upscale_factor)
print(model)
print(f"gain {init.calculate_gain('relu'):.4f}",
      f"{(model.conv4.weight.view(4, -1) @ model.conv4.weight.view(4, -1).t()).trace():.4f}")
criterion = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=0.01)

shuffle = nn.PixelShuffle(2)
print(shuffle(torch.arange(8.).view(1, 8, 1, 1)).view(2, 4))

for epoch in range(1, 4):
    epoch_loss = 0
    for iteration in range(2):
        batch = (input[2 * iteration:2 * iteration + 2], target[2 * iteration:2 * iteration + 2])
        optimizer.zero_grad()
        loss = criterion(model(batch[0]), batch[1])
        epoch_loss += loss.item()
        loss.backward()
        optimizer.step()
        print("===> Epoch[{}]({}/{}): Loss: {:.4f}".format(epoch, iteration + 1, 2, loss.item()))
    print("===> Epoch {} Complete: Avg. Loss: {:.4f}".format(epoch, epoch_loss / 2))

avg_psnr = 0
with torch.no_grad():
    for i in range(4):
        prediction = model(input[i:i + 1])
        mse = criterion(prediction, target[i:i + 1])
        psnr = 10 * log10(1 / mse.item())
        avg_psnr += psnr
print("===> Avg. PSNR: {:.4f} dB".format(avg_psnr / 4))

out = model(input[:1])
print(out.shape, out.grad_fn.name())
out_img_y = out[0].detach().mul(255.0).clamp(0, 255).round()
print(out_img_y[0, :2])
