# In the style of: PyTorch recipes "Saving and loading models for inference", "Saving and
# loading a general checkpoint", "Warmstarting model using parameters from a different model"
# and "What is a state_dict?" (torch.save/torch.load through an io.BytesIO buffer instead of a
# file, load_state_dict(strict=False) and its missing/unexpected keys, optimizer state_dict)
# Family: pytorch-func-and-recipes
# tolerance: 1e-4 (a float32 convolution adds in oneDNN's order: one momentum buffer's
#   5th digit, 9.1042e-05 against 9.1043e-05)
import io

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(2, 4, 2)
        self.fc1 = nn.Linear(4 * 1 * 1, 6)
        self.fc2 = nn.Linear(6, 3)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        x = x.view(-1, 4 * 1 * 1)
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return x


torch.manual_seed(0)
net = Net()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
inputs, labels = torch.randn(4, 1, 6, 6), torch.tensor([0, 2, 1, 2])

# Print model's state_dict
print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())

for epoch in range(2):
    optimizer.zero_grad()
    loss = F.cross_entropy(net(inputs), labels)
    loss.backward()
    optimizer.step()
print(f'loss {loss.item():.4f}')

# Print optimizer's state_dict
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])

# Save and load the state_dict for inference
buffer = io.BytesIO()
torch.save(net.state_dict(), buffer)
buffer.seek(0)
model = Net()
print(model.load_state_dict(torch.load(buffer, weights_only=True)))
model.eval()
print(torch.equal(model(inputs), net(inputs)))

# A general checkpoint for resuming training
buffer = io.BytesIO()
torch.save({
    'epoch': 2,
    'model_state_dict': net.state_dict(),
    'optimizer_state_dict': optimizer.state_dict(),
    'loss': loss,
}, buffer)
buffer.seek(0)
model = Net()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
checkpoint = torch.load(buffer, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']
print(epoch, loss, sorted(checkpoint.keys()))
print(optimizer.state_dict()['state'][4]['momentum_buffer'])
model.train()
optimizer.zero_grad()
F.cross_entropy(model(inputs), labels).backward()
optimizer.step()
print(model.fc2.bias)

# Warmstarting model B from model A: a different head and an extra layer


class NetB(nn.Module):
    def __init__(self):
        super(NetB, self).__init__()
        self.conv1 = nn.Conv2d(1, 2, 3)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(2, 4, 2)
        self.fc1 = nn.Linear(4 * 1 * 1, 6)
        self.fc3 = nn.Linear(6, 5)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = F.relu(self.conv2(x))
        x = x.view(-1, 4 * 1 * 1)
        x = F.relu(self.fc1(x))
        return self.fc3(x)


buffer = io.BytesIO()
torch.save(net.state_dict(), buffer)
buffer.seek(0)
netB = NetB()
result = netB.load_state_dict(torch.load(buffer, weights_only=True), strict=False)
print(result)
print(result.missing_keys, result.unexpected_keys)
print(torch.equal(netB.conv1.weight, net.conv1.weight), netB.conv1.weight.requires_grad)

buffer.seek(0)
try:
    NetB().load_state_dict(torch.load(buffer, weights_only=True))
except RuntimeError as e:
    print(type(e).__name__, e)

# Renaming keys by hand when the layer names differ
state = {k.replace('fc2', 'fc3'): v for k, v in net.state_dict().items()}
try:
    netB.load_state_dict(state)
except RuntimeError as e:
    print(type(e).__name__, e)
