# In the style of: pytorch/examples' mnist_rnn (an LSTM with batch_first over image rows, the last
# time step, BatchNorm1d, Dropout2d on a 2-d input and its warning, log_softmax + nll_loss,
# Adadelta with StepLR, argmax/eq/view_as accuracy); tiny 8x8 "digits" instead of MNIST
# Family: pytorch-examples
# tolerance: 1e-5 (torch's float32 LSTM runs on oneDNN, whose matrix products add in
#   their own order: the 7th digit of a loss differs)
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim
from torch.optim.lr_scheduler import StepLR


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.rnn = nn.LSTM(input_size=8, hidden_size=16, batch_first=True)
        self.batchnorm = nn.BatchNorm1d(16)
        self.dropout1 = nn.Dropout2d(0.25)
        self.dropout2 = nn.Dropout2d(0.5)
        self.fc1 = nn.Linear(16, 12)
        self.fc2 = nn.Linear(12, 10)

    def forward(self, input):
        # Shape of input is (batch_size, 1, 8, 8)
        # converting shape of input to (batch_size, 8, 8)
        # as required by RNN when batch_first is set True
        input = input.reshape(-1, 8, 8)
        output, hidden = self.rnn(input)

        # Get last output of RNN
        output = output[:, -1, :]
        output = self.batchnorm(output)
        output = self.dropout1(output)
        output = self.fc1(output)
        output = F.relu(output)
        output = self.dropout2(output)
        output = self.fc2(output)
        output = F.log_softmax(output, dim=1)
        return output


def train(log_interval, model, train_loader, optimizer, epoch):
    model.train()
    for batch_idx, (data, target) in enumerate(train_loader):
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
        if batch_idx % log_interval == 0:
            print('Train Epoch: {} [{}/{} ({:.0f}%)]\tLoss: {:.6f}'.format(
                epoch, batch_idx * len(data), 24,
                100. * batch_idx / len(train_loader), loss.item()))


def test(model, test_loader):
    model.eval()
    test_loss = 0
    correct = 0
    with torch.no_grad():
        for data, target in test_loader:
            output = model(data)
            test_loss += F.nll_loss(output, target, reduction='sum').item()  # sum up batch loss
            pred = output.argmax(dim=1, keepdim=True)  # get the index of the max log-probability
            correct += pred.eq(target.view_as(pred)).sum().item()

    test_loss /= 12

    print('\nTest set: Average loss: {:.4f}, Accuracy: {}/{} ({:.0f}%)\n'.format(
        test_loss, correct, 12, 100. * correct / 12))


torch.manual_seed(1)
images = torch.rand(36, 1, 8, 8)
targets = torch.randint(0, 10, (36,))
train_loader = [(images[i:i + 8], targets[i:i + 8]) for i in range(0, 24, 8)]
test_loader = [(images[24:30], targets[24:30]), (images[30:], targets[30:])]

model = Net()
optimizer = optim.Adadelta(model.parameters(), lr=0.1)
scheduler = StepLR(optimizer, step_size=1, gamma=0.7)

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for epoch in range(1, 3):
        train(2, model, train_loader, optimizer, epoch)
        test(model, test_loader)
        scheduler.step()
        print(scheduler.get_last_lr())
print(len(caught), caught[0].category.__name__, caught[0].message)
print(model.rnn, model.rnn.weight_hh_l0.grad.shape, model.batchnorm.running_var[:4])
