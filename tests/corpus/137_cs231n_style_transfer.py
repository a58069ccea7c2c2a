# In the style of: CS231n's StyleTransfer-PyTorch notebook (features from cnn._modules, a
# content loss, a normalised Gram matrix with bmm, the style loss, the total-variation loss,
# and Adam on the image itself with clamping and a learning-rate decay by a new optimizer)
# Family: stanford-cs231n-cs224n
# tolerance: 1e-6 (torch's float32 bmm is MKL's, whose kernel and order of additions depend on
#   the CPU: on one AVX-512 machine the first style loss differs in its last bit, 13.970718
#   against 13.970719, and Adam at lr=3 carries that to the 7th printed digit)
import torch
import torch.nn as nn

dtype = torch.FloatTensor
torch.manual_seed(0)
# A tiny stand-in for SqueezeNet's feature extractor.
cnn = nn.Sequential(
    nn.Conv2d(3, 6, kernel_size=3, padding=1), nn.ReLU(inplace=True),
    nn.Conv2d(6, 8, kernel_size=3, stride=2, padding=1), nn.ReLU(inplace=True),
    nn.MaxPool2d(kernel_size=2, stride=2, ceil_mode=True),
    nn.Conv2d(8, 8, kernel_size=1), nn.ReLU(inplace=True),
)
for param in cnn.parameters():
    param.requires_grad = False


def extract_features(x, cnn):
    features = []
    prev_feat = x
    for i, module in enumerate(cnn._modules.values()):
        next_feat = module(prev_feat)
        features.append(next_feat)
        prev_feat = next_feat
    return features


def content_loss(content_weight, content_current, content_original):
    return content_weight * torch.sum((content_current - content_original) ** 2)


def gram_matrix(features, normalize=True):
    N, C, H, W = features.size()
    features = features.view(N, C, H * W)
    gram = torch.bmm(features, features.transpose(1, 2))
    if normalize:
        gram /= (H * W * C)
    return gram


def style_loss(feats, style_layers, style_targets, style_weights):
    loss = 0
    for i, layer in enumerate(style_layers):
        G = gram_matrix(feats[layer])
        loss += style_weights[i] * torch.sum((G - style_targets[i]) ** 2)
    return loss


def tv_loss(img, tv_weight):
    h_var = torch.sum((img[:, :, 1:, :] - img[:, :, :-1, :]) ** 2)
    w_var = torch.sum((img[:, :, :, 1:] - img[:, :, :, :-1]) ** 2)
    return tv_weight * (h_var + w_var)


content_img = torch.randn(1, 3, 10, 10).type(dtype)
style_img = torch.rand(1, 3, 10, 10).type(dtype) * 2 - 1

feats = extract_features(content_img, cnn)
print([tuple(f.shape) for f in feats])
g = gram_matrix(extract_features(content_img.clone().requires_grad_(), cnn)[5])
print(g.shape, g.grad_fn.name())
print(g[0, :3, :3])
print(content_loss(6e-2, feats[3], torch.zeros_like(feats[3])))
print(tv_loss(content_img, 2e-2))


def style_transfer(content_img, style_img, content_layer, content_weight, style_layers,
                   style_weights, tv_weight, init_random=False):
    feats = extract_features(content_img, cnn)
    content_target = feats[content_layer].clone()

    feats = extract_features(style_img, cnn)
    style_targets = []
    for idx in style_layers:
        style_targets.append(gram_matrix(feats[idx].clone()))

    # Initialize output image to content image or noise
    if init_random:
        img = torch.Tensor(content_img.size()).uniform_(0, 1).type(dtype)
    else:
        img = content_img.clone().type(dtype)

    # We do want the gradient computed on our image!
    img.requires_grad_()

    initial_lr = 3.0
    decayed_lr = 0.1
    decay_lr_at = 6

    optimizer = torch.optim.Adam([img], lr=initial_lr)
    for t in range(9):
        if t < 7:
            img.data.clamp_(-1.5, 1.5)
        optimizer.zero_grad()

        feats = extract_features(img, cnn)

        c_loss = content_loss(content_weight, feats[content_layer], content_target)
        s_loss = style_loss(feats, style_layers, style_targets, style_weights)
        t_loss = tv_loss(img, tv_weight)
        loss = c_loss + s_loss + t_loss

        loss.backward()

        if t == decay_lr_at:
            optimizer = torch.optim.Adam([img], lr=decayed_lr)
        optimizer.step()
        if t % 3 == 0 or t == 8:
            print('Iteration {}: content {:.4f} style {:.4f} tv {:.4f}'.format(
                t, c_loss.item(), s_loss.item(), t_loss.item()))
    return img


img = style_transfer(content_img, style_img, content_layer=3, content_weight=5e-2,
                     style_layers=(1, 3, 6), style_weights=(20000, 500, 12),
                     tv_weight=5e-2)
print(img[0, 0, :3, :5])
texture = style_transfer(content_img, style_img, content_layer=3, content_weight=0,
                         style_layers=(1, 3, 6), style_weights=(20000, 500, 12),
                         tv_weight=5e-2, init_random=True)
print(texture.min(), texture.max())
