# In the style of: the DCGAN tutorial (a transposed-convolution generator with BatchNorm2d,
# a LeakyReLU discriminator, BCELoss, one step of each with Adam(betas=(0.5, 0.999)))
# Family: pytorch-tutorials
import torch
import torch.nn as nn


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.normal_(m.weight.data, 0.0, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.normal_(m.weight.data, 1.0, 0.02)
        nn.init.constant_(m.bias.data, 0)


torch.manual_seed(999)
netG = nn.Sequential(nn.ConvTranspose2d(8, 16, 4, 1, 0, bias=False), nn.BatchNorm2d(16),
                     nn.ReLU(True), nn.ConvTranspose2d(16, 1, 4, 2, 1, bias=False), nn.Tanh())
netD = nn.Sequential(nn.Conv2d(1, 16, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
                     nn.Conv2d(16, 1, 4, 1, 0, bias=False), nn.Sigmoid())
netG.apply(weights_init)
netD.apply(weights_init)
criterion = nn.BCELoss()
optimizerD = torch.optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = torch.optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
real = torch.rand(4, 1, 8, 8) * 2 - 1
noise = torch.randn(4, 8, 1, 1)
netD.zero_grad()
output = netD(real).view(-1)
errD_real = criterion(output, torch.full((4,), 1.0))
errD_real.backward()
fake = netG(noise)
output = netD(fake.detach()).view(-1)
errD_fake = criterion(output, torch.full((4,), 0.0))
errD_fake.backward()
optimizerD.step()
netG.zero_grad()
output = netD(fake).view(-1)
errG = criterion(output, torch.full((4,), 1.0))
errG.backward()
optimizerG.step()
print(f"Loss_D: {(errD_real + errD_fake).item():.4f}  Loss_G: {errG.item():.4f}  "
      f"D(G(z)): {output.mean().item():.4f}")
print(fake.shape, netG[1].running_mean[:3])
