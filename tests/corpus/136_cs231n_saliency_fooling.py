# In the style of: CS231n's NetworkVisualization notebook (saliency maps from the gradient of
# the correct-class score, a fooling image by normalised gradient ascent, and class
# visualisation with jitter, L2 regularisation, img.grad.zero_() and per-channel clamping)
# Family: stanford-cs231n-cs224n
import random

import torch
import torch.nn as nn

dtype = torch.FloatTensor
SQUEEZENET_MEAN = torch.tensor([0.485, 0.456, 0.406])
SQUEEZENET_STD = torch.tensor([0.229, 0.224, 0.225])

torch.manual_seed(0)
random.seed(0)
# A tiny stand-in for the pretrained SqueezeNet.
model = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1), nn.ReLU(inplace=True),
    nn.Conv2d(8, 8, kernel_size=3, padding=1), nn.ReLU(inplace=True),
    nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(8, 5),
)
model.type(dtype)
# We don't want to train the model, so tell PyTorch not to compute gradients
# with respect to model parameters.
for param in model.parameters():
    param.requires_grad = False
model.eval()

X = torch.randn(3, 3, 12, 12)
y = torch.LongTensor([0, 3, 1])


def compute_saliency_maps(X, y, model):
    model.eval()
    X.requires_grad_()
    scores = model(X)
    correct_scores = scores.gather(1, y.view(-1, 1)).squeeze()
    correct_scores.backward(torch.ones(correct_scores.shape))
    saliency = X.grad.data.abs().max(dim=1)[0]
    return saliency


saliency = compute_saliency_maps(X.clone(), y, model)
print(saliency.shape)
print(saliency[0, :3, :6])
print(saliency.argmax(), saliency.sum(dim=(1, 2)))


def make_fooling_image(X, target_y, model):
    X_fooling = X.clone()
    X_fooling = X_fooling.requires_grad_()
    learning_rate = 1
    for it in range(100):
        scores = model(X_fooling)
        _, idx = scores.max(1)
        if idx.item() == target_y:
            print('Fooled the model after %d iterations' % it)
            break
        target_score = scores[0, target_y]
        target_score.backward()
        g = X_fooling.grad
        dX = learning_rate * g / g.norm()
        X_fooling.data += dX
        X_fooling.grad.zero_()
    return X_fooling


idx = 0
target_y = 1
X_fooling = make_fooling_image(X[idx:idx + 1], target_y, model)
scores = model(X_fooling)
assert target_y == scores.data.max(1)[1][0].item(), 'The model is not fooled!'
print(scores)
diff = (X_fooling - X[idx:idx + 1]).abs()
print('max abs change %.4f' % diff.max().item(), X_fooling.grad_fn, X_fooling.is_leaf)


def jitter(X, ox, oy):
    """Randomly jitter an image: a circular shift along width by ox and height by oy."""
    if ox != 0:
        left = X[:, :, :, :-ox]
        right = X[:, :, :, -ox:]
        X = torch.cat([right, left], dim=3)
    if oy != 0:
        top = X[:, :, :-oy]
        bottom = X[:, :, -oy:]
        X = torch.cat([bottom, top], dim=2)
    return X


def create_class_visualization(target_y, model, dtype, **kwargs):
    model.type(dtype)
    l2_reg = kwargs.pop('l2_reg', 1e-3)
    learning_rate = kwargs.pop('learning_rate', 25)
    num_iterations = kwargs.pop('num_iterations', 100)
    max_jitter = kwargs.pop('max_jitter', 16)
    show_every = kwargs.pop('show_every', 25)

    # Randomly initialize the image as a PyTorch Tensor, and make it requires gradient.
    img = torch.randn(1, 3, 12, 12).mul_(1.0).type(dtype).requires_grad_()
    for t in range(num_iterations):
        # Randomly jitter the image a bit; this gives slightly nicer results
        ox, oy = random.randint(0, max_jitter), random.randint(0, max_jitter)
        img.data.copy_(jitter(img.data, ox, oy))

        score = model(img)[0, target_y] - l2_reg * img.norm() ** 2
        score.backward()
        img.data += learning_rate * img.grad / img.grad.norm()
        img.grad.zero_()

        # Undo the random jitter
        img.data.copy_(jitter(img.data, -ox, -oy))

        # As regularizer, clamp the image
        for c in range(3):
            lo = float(-SQUEEZENET_MEAN[c] / SQUEEZENET_STD[c])
            hi = float((1.0 - SQUEEZENET_MEAN[c]) / SQUEEZENET_STD[c])
            img.data[:, c].clamp_(min=lo, max=hi)
        if t == 0 or (t + 1) % show_every == 0 or t == num_iterations - 1:
            print('Iteration %d / %d  score %.4f' % (t + 1, num_iterations, score.item()))
    return img.data


out = create_class_visualization(2, model, dtype, num_iterations=12, show_every=5,
                                 max_jitter=3, learning_rate=5)
print(out.type(), out.dtype, out.requires_grad)
print(out[0, :, 0, :4])
print(torch.softmax(model(out), dim=1))
