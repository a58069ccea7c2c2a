# In the style of: D2L 5.2 MLP concise + 3.7 weight decay (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: d2l
import torch
from torch import nn
torch.manual_seed(1)

def relu(X):
    a = torch.zeros_like(X)
    return torch.max(X, a)

n_train, n_test, num_inputs, batch_size = 20, 100, 200, 5
true_w, true_b = torch.ones((num_inputs, 1)) * 0.01, 0.05

def synthetic_data(w, b, num_examples):
    X = torch.normal(0, 1, (num_examples, len(w)))
    y = torch.matmul(X, w) + b
    y += torch.normal(0, 0.01, y.shape)
    return X, y.reshape((-1, 1))

train_data = synthetic_data(true_w, true_b, n_train)
dataset = torch.utils.data.TensorDataset(*train_data)
g = torch.Generator().manual_seed(42)
train_iter = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True, generator=g)

def l2_penalty(w):
    return torch.sum(w.pow(2)) / 2

def train_concise(wd):
    net = nn.Sequential(nn.Linear(num_inputs, 1))
    for param in net.parameters():
        param.data.normal_()
    loss = nn.MSELoss(reduction='none')
    num_epochs, lr = 10, 0.003
    trainer = torch.optim.SGD([
        {"params": net[0].weight, 'weight_decay': wd},
        {"params": net[0].bias}], lr=lr)
    for epoch in range(num_epochs):
        for X, y in train_iter:
            trainer.zero_grad()
            l = loss(net(X), y)
            l.mean().backward()
            trainer.step()
    print('wd', wd, 'L2 norm of w:', net[0].weight.norm().item())
    return net

train_concise(0)
train_concise(3)

print(relu(torch.tensor([-1.0, 0.0, 2.0])))
net = nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
def init_weights(m):
    if type(m) == nn.Linear:
        nn.init.normal_(m.weight, std=0.01)
net.apply(init_weights)
print(net)
x = torch.randn(4, 1, 28, 28)
out = net(x)
print(out.shape, out.dtype)
print(nn.functional.cross_entropy(out, torch.tensor([1, 2, 3, 4])))
print(sum(p.numel() for p in net.parameters()))
