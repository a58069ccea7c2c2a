# In the style of: D2L 4.4 softmax regression from scratch (synthetic Fashion-MNIST-like data) (a fresh sample: scripts from sources the corpus had not yet drawn on)
# Family: d2l
import torch
torch.manual_seed(0)

num_inputs, num_outputs = 784, 10
W = torch.normal(0, 0.01, size=(num_inputs, num_outputs), requires_grad=True)
b = torch.zeros(num_outputs, requires_grad=True)

def softmax(X):
    X_exp = torch.exp(X)
    partition = X_exp.sum(1, keepdim=True)
    return X_exp / partition

def net(X):
    return softmax(torch.matmul(X.reshape((-1, W.shape[0])), W) + b)

def cross_entropy(y_hat, y):
    return -torch.log(y_hat[range(len(y_hat)), y])

def accuracy(y_hat, y):
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())

def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()

X = torch.rand(256, 1, 28, 28)
y = torch.randint(0, 10, (256,))
X_prob = torch.normal(0, 1, (2, 5))
X_prob = softmax(X_prob)
print(X_prob, X_prob.sum(1))
y_demo = torch.tensor([0, 2])
y_hat_demo = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
print(y_hat_demo[[0, 1], y_demo])
print(cross_entropy(y_hat_demo, y_demo))
print(accuracy(y_hat_demo, y_demo) / len(y_demo))

for epoch in range(3):
    for i in range(0, 256, 64):
        Xb, yb = X[i:i+64], y[i:i+64]
        l = cross_entropy(net(Xb), yb)
        l.sum().backward()
        sgd([W, b], 0.1, 64)
    with torch.no_grad():
        train_l = cross_entropy(net(X), y)
        print(f'epoch {epoch + 1}, loss {float(train_l.mean()):f}, acc {accuracy(net(X), y) / len(y):.4f}')
print(W.shape, b)
print(W[:3, :4])
