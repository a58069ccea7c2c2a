# In the style of: Dive into Deep Learning, "Linear Regression Implementation from Scratch" and
# "Weight Decay" (synthetic_data, a shuffled data_iter, sgd under no_grad, an L2 penalty by hand
# and the optimiser's weight_decay on the weights only)
# Family: d2l
import random

import torch
from torch import nn
from torch.utils import data


def synthetic_data(w, b, num_examples):
    """Generate y = Xw + b + noise."""
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))


def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]


def linreg(X, w, b):
    return torch.matmul(X, w) + b


def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


random.seed(0)
torch.manual_seed(0)
true_w = torch.tensor([2, -3.4])
true_b = 4.2
features, labels = synthetic_data(true_w, true_b, 60)
print('features:', features[0], '\nlabel:', labels[0])
batch_size = 10
for X, y in data_iter(batch_size, features, labels):
    print(X.shape, '\n', y.T)
    break

w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr, num_epochs = 0.03, 3
net, loss = linreg, squared_loss
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], lr, batch_size)
    with torch.no_grad():
        train_l = loss(net(features, w, b), labels)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}')
print(f'error in estimating w: {true_w - w.reshape(true_w.shape)}')
print(f'error in estimating b: {true_b - b}')

# Weight decay: high-dimensional linear regression with only a few training examples.
n_train, num_inputs = 10, 50
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05
train_X, train_y = synthetic_data(true_w.reshape(-1), true_b, n_train)
train_iter = data.DataLoader(data.TensorDataset(train_X, train_y), batch_size=5, shuffle=True)


def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2


def train(lambd):
    w = torch.normal(0, 1, size=(num_inputs, 1), requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    for epoch in range(20):
        for X, y in train_iter:
            l = squared_loss(linreg(X, w, b), y) + lambd * l2_penalty(w)
            l.sum().backward()
            sgd([w, b], 0.003, 5)
    print('L2 norm of w:', torch.norm(w).item())
    return w


def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction='none')
    trainer = torch.optim.SGD([
        {"params": net[0].weight, 'weight_decay': wd},
        {"params": net[0].bias}], lr=0.003)
    for epoch in range(20):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print(trainer.param_groups[0]['weight_decay'], trainer.param_groups[1]['weight_decay'])
    print('L2 norm of w:', net[0].weight.norm().item())
    return net


train(lambd=0)
w = train(lambd=3)
print(w[:5].T)
net = train_concise(0)
net = train_concise(3)
print(net[0].bias.data, net[0].weight.grad.shape)
