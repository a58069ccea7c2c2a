# In the style of: pytorch/examples' fast_neural_style (a TransformerNet with ReflectionPad2d,
# InstanceNorm2d(affine=True), nearest upsampling and a residual block; gram matrices via bmm,
# normalize_batch, a frozen loss network returning a namedtuple, content + style loss, Adam)
# Family: pytorch-examples
import re
from collections import namedtuple

import torch
import torch.nn.functional as F
from torch.optim import Adam


class ConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out


class ResidualBlock(torch.nn.Module):
    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out


class UpsampleConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = upsample
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample:
            x_in = torch.nn.functional.interpolate(x_in, mode='nearest', scale_factor=self.upsample)
        out = self.reflection_pad(x_in)
        out = self.conv2d(out)
        return out


class TransformerNet(torch.nn.Module):
    def __init__(self):
        super(TransformerNet, self).__init__()
        self.conv1 = ConvLayer(3, 4, kernel_size=5, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(4, affine=True)
        self.conv2 = ConvLayer(4, 8, kernel_size=3, stride=2)
        self.in2 = torch.nn.InstanceNorm2d(8, affine=True)
        self.res1 = ResidualBlock(8)
        self.deconv1 = UpsampleConvLayer(8, 4, kernel_size=3, stride=1, upsample=2)
        self.in3 = torch.nn.InstanceNorm2d(4, affine=True)
        self.deconv2 = ConvLayer(4, 3, kernel_size=5, stride=1)
        self.relu = torch.nn.ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.res1(y)
        y = self.relu(self.in3(self.deconv1(y)))
        y = self.deconv2(y)
        return y


class LossNet(torch.nn.Module):
    """A tiny stand-in for the pretrained Vgg16 (no downloads here)."""

    def __init__(self, requires_grad=False):
        super(LossNet, self).__init__()
        self.slice1 = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, padding=1), torch.nn.ReLU())
        self.slice2 = torch.nn.Sequential(torch.nn.MaxPool2d(kernel_size=2, stride=2),
                                          torch.nn.Conv2d(4, 6, 3, padding=1), torch.nn.ReLU())
        if not requires_grad:
            for param in self.parameters():
                param.requires_grad = False

    def forward(self, X):
        h = self.slice1(X)
        h_relu1_2 = h
        h = self.slice2(h)
        h_relu2_2 = h
        vgg_outputs = namedtuple("VggOutputs", ['relu1_2', 'relu2_2'])
        out = vgg_outputs(h_relu1_2, h_relu2_2)
        return out


def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    gram = features.bmm(features_t) / (ch * h * w)
    return gram


def normalize_batch(batch):
    # normalize using imagenet mean and std
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div_(255.0)
    return (batch - mean) / std


torch.manual_seed(42)
batch_size, content_weight, style_weight = 2, 10.0, 1e2
images = torch.rand(4, 3, 8, 8) * 255
style = (torch.rand(1, 3, 8, 8) * 255).repeat(batch_size, 1, 1, 1)

transformer = TransformerNet()
optimizer = Adam(transformer.parameters(), 1e-3)
mse_loss = torch.nn.MSELoss()
vgg = LossNet(requires_grad=False)
print(transformer.res1.in1, transformer.conv1.reflection_pad)

features_style = vgg(normalize_batch(style))
gram_style = [gram_matrix(y) for y in features_style]
print([tuple(gm.shape) for gm in gram_style], gram_style[0][0])

for e in range(2):
    transformer.train()
    agg_content_loss = 0.
    agg_style_loss = 0.
    count = 0
    for batch_id in range(2):
        x = images[2 * batch_id:2 * batch_id + 2].clone()
        n_batch = len(x)
        count += n_batch
        optimizer.zero_grad()

        y = transformer(x)

        y = normalize_batch(y)
        x = normalize_batch(x)

        features_y = vgg(y)
        features_x = vgg(x)

        content_loss = content_weight * mse_loss(features_y.relu2_2, features_x.relu2_2)

        style_loss = 0.
        for ft_y, gm_s in zip(features_y, gram_style):
            gm_y = gram_matrix(ft_y)
            style_loss += mse_loss(gm_y, gm_s[:n_batch, :, :])
        style_loss *= style_weight

        total_loss = content_loss + style_loss
        total_loss.backward()
        optimizer.step()

        agg_content_loss += content_loss.item()
        agg_style_loss += style_loss.item()
        mesg = "Epoch {}:\t[{}/{}]\tcontent: {:.4f}\tstyle: {:.4f}\ttotal: {:.4f}".format(
            e + 1, count, 4, agg_content_loss / (batch_id + 1), agg_style_loss / (batch_id + 1),
            (agg_content_loss + agg_style_loss) / (batch_id + 1))
        print(mesg)

print(vgg.slice1[0].weight.grad, transformer.in1.weight.grad.shape)

# stylize: reload the weights the way the example does, dropping stale InstanceNorm buffers
state_dict = transformer.state_dict()
for k in list(state_dict.keys()):
    if re.search(r'in\d+\.running_(mean|var)$', k):
        del state_dict[k]
style_model = TransformerNet()
style_model.load_state_dict(state_dict)
style_model.eval()
with torch.no_grad():
    output = style_model(images[:1])
img = output[0].clone().clamp(0, 255)
print(len(state_dict), img.shape, img[0, 0])
